-- SQLite runs no delete trigger for the row that INSERT OR REPLACE (or
-- REPLACE) removes, so the append-only triggers let such a statement
-- rewrite an event. An insert whose key is taken is now skipped before
-- it can replace anything, as INSERT OR IGNORE would skip it (the audit
-- writer's retries rely on that); new events, whose keys are new, pay one
-- lookup of the primary key they are inserted by anyway.
-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER `audit_events_no_replace` BEFORE INSERT ON `audit_events`
	WHEN EXISTS (SELECT 1 FROM `audit_events` WHERE `id` = NEW.`id`)
BEGIN
	SELECT RAISE(IGNORE);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `audit_executions_no_replace` BEFORE INSERT ON `audit_executions`
	WHEN EXISTS (SELECT 1 FROM `audit_executions`
		WHERE `organization_id` = NEW.`organization_id` AND `at` = NEW.`at` AND `id` = NEW.`id`)
BEGIN
	SELECT RAISE(IGNORE);
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER `audit_executions_no_replace`;
DROP TRIGGER `audit_events_no_replace`;
