-- +goose Up
-- modify "memberships" table
ALTER TABLE "memberships" ADD COLUMN "name" character varying NOT NULL DEFAULT '';
-- members keep the names they had: until now an organization showed the user's own
UPDATE memberships SET name = (SELECT users.name FROM users WHERE users.id = memberships.user_id);

-- +goose Down
-- reverse: modify "memberships" table
ALTER TABLE "memberships" DROP COLUMN "name";
