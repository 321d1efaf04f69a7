-- The first release of 20261130230000 made these triggers abort the
-- insert of a stored event rather than skip it, and a database migrated
-- by it kept that form: there, the audit writer's retry of a batch whose
-- commit was in doubt failed for ever. Both triggers are made again as
-- 20261130230000 makes them now, which a database migrated since has
-- already: skipping the insert, as INSERT OR IGNORE would.
-- +goose Up
-- +goose StatementBegin
DROP TRIGGER IF EXISTS `audit_events_no_replace`;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `audit_events_no_replace` BEFORE INSERT ON `audit_events`
	WHEN EXISTS (SELECT 1 FROM `audit_events` WHERE `id` = NEW.`id`)
BEGIN
	SELECT RAISE(IGNORE);
END;
-- +goose StatementEnd
-- +goose StatementBegin
DROP TRIGGER IF EXISTS `audit_executions_no_replace`;
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
SELECT 1;
