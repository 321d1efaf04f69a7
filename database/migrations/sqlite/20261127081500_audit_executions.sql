-- `executed` events move from audit_events to audit_executions: one narrow
-- row per run (ids as 16-byte blobs, times as microseconds since the
-- epoch, kinds as small ints, only a failure's error as JSON), clustered
-- on the log's order (tenant, time, id) with one index for the history of
-- a base.
--
-- Events are never updated. They are deleted only by retention, which
-- deletes expired events in small batches, each in a transaction that
-- records its cutoff in audit_retention_gate first and empties it before
-- committing: the delete trigger lets through only the deletion of an
-- event older than the cutoff recorded there, so every other delete,
-- while the gate table is empty as it is outside that transaction, is
-- refused.
-- +goose Up
CREATE TABLE `audit_executions` (
	`organization_id` blob NOT NULL,
	`at` integer NOT NULL,
	`id` blob NOT NULL,
	`base_id` blob NOT NULL,
	`record_id` blob NOT NULL,
	`actor_id` blob NOT NULL,
	`kind` integer NOT NULL,
	`actor_kind` integer NOT NULL,
	`result` integer NOT NULL,
	`published` integer NOT NULL,
	`duration_ns` integer NOT NULL,
	`version` integer NULL,
	`details` text NULL,
	PRIMARY KEY (`organization_id`, `at`, `id`)
) WITHOUT ROWID;
CREATE INDEX `audit_executions_base` ON `audit_executions` (`base_id`, `at`);
CREATE TABLE `audit_retention_gate` (`id` integer NOT NULL PRIMARY KEY CHECK (`id` = 1), `cutoff` integer NOT NULL);
-- +goose StatementBegin
CREATE TRIGGER `audit_executions_no_update` BEFORE UPDATE ON `audit_executions`
BEGIN
	SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `audit_executions_no_delete` BEFORE DELETE ON `audit_executions`
	WHEN NOT EXISTS (SELECT 1 FROM `audit_retention_gate` WHERE `cutoff` > OLD.`at`)
BEGIN
	SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd

-- The events stored so far move, with their ids and times. ent stored ids
-- as text and times as Go's time.String() in UTC
-- ("2026-11-27 08:09:20.830204 +0000 UTC"); the delete trigger on
-- audit_events steps aside for this one statement of the migration.
INSERT INTO `audit_executions`
SELECT unhex(replace(`organization_id`, '-', '')),
	unixepoch(substr(`at`, 1, 19)) * 1000000 + CASE WHEN substr(`at`, 20, 1) = '.'
		THEN CAST(substr(substr(`at`, 21, instr(substr(`at`, 21), ' ') - 1) || '000000', 1, 6) AS integer) ELSE 0 END,
	unhex(replace(`id`, '-', '')), unhex(replace(`base_id`, '-', '')), unhex(replace(`record_id`, '-', '')),
	unhex(replace(`actor_id`, '-', '')),
	CASE `kind` WHEN 'flow' THEN 2 ELSE 1 END, CASE `actor_kind` WHEN 'user' THEN 1 ELSE 2 END,
	coalesce(json_extract(`details`, '$.result'), 0), coalesce(json_extract(`details`, '$.status') = 'published', 0),
	coalesce(CAST(json_extract(`details`, '$.durationNs') AS integer), 0), CAST(json_extract(`details`, '$.version') AS integer),
	nullif(json_remove(`details`, '$.result', '$.durationNs', '$.status', '$.version'), '{}')
FROM `audit_events` WHERE `action` = 'executed';
DROP TRIGGER `audit_events_no_delete`;
DELETE FROM `audit_events` WHERE `action` = 'executed';
-- +goose StatementBegin
CREATE TRIGGER `audit_events_no_delete` BEFORE DELETE ON `audit_events`
BEGIN
	SELECT RAISE(ABORT, 'audit events are append-only');
END;
-- +goose StatementEnd

-- +goose Down
INSERT INTO `audit_events` (`id`, `organization_id`, `at`, `action`, `kind`, `base_id`, `record_id`, `actor_kind`, `actor_id`, `details`)
SELECT lower(substr(hex(`id`), 1, 8) || '-' || substr(hex(`id`), 9, 4) || '-' || substr(hex(`id`), 13, 4) || '-' || substr(hex(`id`), 17, 4) || '-' || substr(hex(`id`), 21)),
	lower(substr(hex(`organization_id`), 1, 8) || '-' || substr(hex(`organization_id`), 9, 4) || '-' || substr(hex(`organization_id`), 13, 4) || '-' || substr(hex(`organization_id`), 17, 4) || '-' || substr(hex(`organization_id`), 21)),
	strftime('%Y-%m-%d %H:%M:%S', `at` / 1000000, 'unixepoch') || printf('.%06d', `at` % 1000000) || ' +0000 UTC',
	'executed', CASE `kind` WHEN 2 THEN 'flow' ELSE 'policy' END,
	lower(substr(hex(`base_id`), 1, 8) || '-' || substr(hex(`base_id`), 9, 4) || '-' || substr(hex(`base_id`), 13, 4) || '-' || substr(hex(`base_id`), 17, 4) || '-' || substr(hex(`base_id`), 21)),
	lower(substr(hex(`record_id`), 1, 8) || '-' || substr(hex(`record_id`), 9, 4) || '-' || substr(hex(`record_id`), 13, 4) || '-' || substr(hex(`record_id`), 17, 4) || '-' || substr(hex(`record_id`), 21)),
	CASE `actor_kind` WHEN 1 THEN 'user' ELSE 'key' END,
	lower(substr(hex(`actor_id`), 1, 8) || '-' || substr(hex(`actor_id`), 9, 4) || '-' || substr(hex(`actor_id`), 13, 4) || '-' || substr(hex(`actor_id`), 17, 4) || '-' || substr(hex(`actor_id`), 21)),
	json_patch(json_patch(json_object('result', json(CASE WHEN `result` THEN 'true' ELSE 'false' END), 'durationNs', `duration_ns`,
		'status', CASE WHEN `published` THEN 'published' ELSE 'draft' END),
		CASE WHEN `version` IS NULL THEN '{}' ELSE json_object('version', `version`) END), coalesce(`details`, '{}'))
FROM `audit_executions`;
DROP TABLE `audit_retention_gate`;
DROP TABLE `audit_executions`;
