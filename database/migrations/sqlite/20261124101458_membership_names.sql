-- +goose Up
-- create "new_memberships" table
CREATE TABLE `new_memberships` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `role` text NOT NULL, `name` text NOT NULL DEFAULT (''), `organization_id` uuid NOT NULL, `user_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `memberships_organizations_memberships` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE NO ACTION, CONSTRAINT `memberships_users_memberships` FOREIGN KEY (`user_id`) REFERENCES `users` (`id`) ON DELETE NO ACTION);
-- copy rows from old table "memberships" to new temporary table "new_memberships"
INSERT INTO `new_memberships` (`id`, `created_at`, `role`, `organization_id`, `user_id`) SELECT `id`, `created_at`, `role`, `organization_id`, `user_id` FROM `memberships`;
-- drop "memberships" table after copying rows
DROP TABLE `memberships`;
-- rename temporary table "new_memberships" to "memberships"
ALTER TABLE `new_memberships` RENAME TO `memberships`;
-- create index "membership_user_id_organization_id" to table: "memberships"
CREATE UNIQUE INDEX `membership_user_id_organization_id` ON `memberships` (`user_id`, `organization_id`);
-- create index "membership_organization_id_id" to table: "memberships"
CREATE INDEX `membership_organization_id_id` ON `memberships` (`organization_id`, `id`);
-- members keep the names they had: until now an organization showed the user's own
UPDATE `memberships` SET name = (SELECT `users`.name FROM `users` WHERE `users`.id = `memberships`.user_id);

-- +goose Down
-- reverse: create index "membership_organization_id_id" to table: "memberships"
DROP INDEX `membership_organization_id_id`;
-- reverse: create index "membership_user_id_organization_id" to table: "memberships"
DROP INDEX `membership_user_id_organization_id`;
-- reverse: create "new_memberships" table
DROP TABLE `new_memberships`;
