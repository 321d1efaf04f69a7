-- Audit events are append-only. ent refuses updates and deletes with a hook;
-- these triggers refuse them from every other path too (raw SQL, other
-- tools). A migration that rebuilds audit_events drops them with the old
-- table and must create them again.
-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER `audit_events_no_update` BEFORE UPDATE ON `audit_events`
BEGIN
	SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `audit_events_no_delete` BEFORE DELETE ON `audit_events`
BEGIN
	SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER `audit_events_no_delete`;
DROP TRIGGER `audit_events_no_update`;
