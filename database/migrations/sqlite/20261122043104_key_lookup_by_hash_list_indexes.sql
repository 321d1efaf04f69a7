-- +goose Up
-- drop index "api_keys_prefix_key" from table: "api_keys"
DROP INDEX `api_keys_prefix_key`;
-- drop index "apikey_organization_id_created_at" from table: "api_keys"
DROP INDEX `apikey_organization_id_created_at`;
-- create index "apikey_organization_id_id" to table: "api_keys"
CREATE INDEX `apikey_organization_id_id` ON `api_keys` (`organization_id`, `id`);
-- drop index "base_organization_id_kind_deleted_at_updated_at" from table: "bases"
DROP INDEX `base_organization_id_kind_deleted_at_updated_at`;
-- create index "base_organization_id_kind_deleted_at_id" to table: "bases"
CREATE INDEX `base_organization_id_kind_deleted_at_id` ON `bases` (`organization_id`, `kind`, `deleted_at`, `id`);
-- drop index "group_organization_id_created_at" from table: "groups"
DROP INDEX `group_organization_id_created_at`;
-- create index "group_organization_id_id" to table: "groups"
CREATE INDEX `group_organization_id_id` ON `groups` (`organization_id`, `id`);
-- drop index "membership_organization_id_created_at" from table: "memberships"
DROP INDEX `membership_organization_id_created_at`;
-- create index "membership_organization_id_id" to table: "memberships"
CREATE INDEX `membership_organization_id_id` ON `memberships` (`organization_id`, `id`);

-- +goose Down
-- reverse: create index "membership_organization_id_id" to table: "memberships"
DROP INDEX `membership_organization_id_id`;
-- reverse: drop index "membership_organization_id_created_at" from table: "memberships"
CREATE INDEX `membership_organization_id_created_at` ON `memberships` (`organization_id`, `created_at`);
-- reverse: create index "group_organization_id_id" to table: "groups"
DROP INDEX `group_organization_id_id`;
-- reverse: drop index "group_organization_id_created_at" from table: "groups"
CREATE INDEX `group_organization_id_created_at` ON `groups` (`organization_id`, `created_at`);
-- reverse: create index "base_organization_id_kind_deleted_at_id" to table: "bases"
DROP INDEX `base_organization_id_kind_deleted_at_id`;
-- reverse: drop index "base_organization_id_kind_deleted_at_updated_at" from table: "bases"
CREATE INDEX `base_organization_id_kind_deleted_at_updated_at` ON `bases` (`organization_id`, `kind`, `deleted_at`, `updated_at`);
-- reverse: create index "apikey_organization_id_id" to table: "api_keys"
DROP INDEX `apikey_organization_id_id`;
-- reverse: drop index "apikey_organization_id_created_at" from table: "api_keys"
CREATE INDEX `apikey_organization_id_created_at` ON `api_keys` (`organization_id`, `created_at`);
-- reverse: drop index "api_keys_prefix_key" from table: "api_keys"
CREATE UNIQUE INDEX `api_keys_prefix_key` ON `api_keys` (`prefix`);
