-- +goose Up
-- create "new_bases" table
CREATE TABLE `new_bases` (`id` uuid NOT NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `kind` text NOT NULL, `name` text NOT NULL, `description` text NOT NULL DEFAULT (''), `owner_kind` text NOT NULL, `owner_id` uuid NOT NULL, `created_by` uuid NOT NULL, `deleted_at` datetime NULL, `latest_version` integer NOT NULL DEFAULT (0), `latest_record_id` uuid NULL, `draft_record_id` uuid NULL, `decisions_enabled` bool NOT NULL DEFAULT (false), `decisions_sample_rate` real NOT NULL DEFAULT (1), `decisions_mask` json NULL, `organization_id` uuid NOT NULL, PRIMARY KEY (`id`), CONSTRAINT `bases_organizations_bases` FOREIGN KEY (`organization_id`) REFERENCES `organizations` (`id`) ON DELETE NO ACTION);
-- copy rows from old table "bases" to new temporary table "new_bases"
INSERT INTO `new_bases` (`id`, `created_at`, `updated_at`, `kind`, `name`, `description`, `owner_kind`, `owner_id`, `created_by`, `deleted_at`, `latest_version`, `latest_record_id`, `draft_record_id`, `organization_id`) SELECT `id`, `created_at`, `updated_at`, `kind`, `name`, `description`, `owner_kind`, `owner_id`, `created_by`, `deleted_at`, `latest_version`, `latest_record_id`, `draft_record_id`, `organization_id` FROM `bases`;
-- drop "bases" table after copying rows
DROP TABLE `bases`;
-- rename temporary table "new_bases" to "bases"
ALTER TABLE `new_bases` RENAME TO `bases`;
-- create index "base_organization_id_kind_deleted_at_id" to table: "bases"
CREATE INDEX `base_organization_id_kind_deleted_at_id` ON `bases` (`organization_id`, `kind`, `deleted_at`, `id`);
-- create index "base_organization_id_name" to table: "bases"
CREATE INDEX `base_organization_id_name` ON `bases` (`organization_id`, `name`);
-- create "decision_records" table
CREATE TABLE `decision_records` (`id` uuid NOT NULL, `organization_id` uuid NOT NULL, `kind` text NOT NULL, `base_id` uuid NOT NULL, `record_id` uuid NOT NULL, `version` integer NULL, `revision` integer NOT NULL, `at` datetime NOT NULL, `result` bool NOT NULL, `explanation` text NOT NULL, `duration_ns` integer NOT NULL, `actor_kind` text NOT NULL, `actor_id` uuid NOT NULL, `input` text NOT NULL, PRIMARY KEY (`id`));
-- create index "decisionrecord_organization_id_at_id" to table: "decision_records"
CREATE INDEX `decisionrecord_organization_id_at_id` ON `decision_records` (`organization_id`, `at`, `id`);
-- create index "decisionrecord_organization_id_base_id_at_id" to table: "decision_records"
CREATE INDEX `decisionrecord_organization_id_base_id_at_id` ON `decision_records` (`organization_id`, `base_id`, `at`, `id`);
-- create index "decisionrecord_at" to table: "decision_records"
CREATE INDEX `decisionrecord_at` ON `decision_records` (`at`);

-- +goose Down
-- reverse: create index "decisionrecord_at" to table: "decision_records"
DROP INDEX `decisionrecord_at`;
-- reverse: create index "decisionrecord_organization_id_base_id_at_id" to table: "decision_records"
DROP INDEX `decisionrecord_organization_id_base_id_at_id`;
-- reverse: create index "decisionrecord_organization_id_at_id" to table: "decision_records"
DROP INDEX `decisionrecord_organization_id_at_id`;
-- reverse: create "decision_records" table
DROP TABLE `decision_records`;
-- reverse: create index "base_organization_id_name" to table: "bases"
DROP INDEX `base_organization_id_name`;
-- reverse: create index "base_organization_id_kind_deleted_at_id" to table: "bases"
DROP INDEX `base_organization_id_kind_deleted_at_id`;
-- reverse: create "new_bases" table
DROP TABLE `new_bases`;
