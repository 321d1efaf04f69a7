-- +goose Up
-- create "audit_events" table
CREATE TABLE "audit_events" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "at" timestamptz NOT NULL, "action" character varying NOT NULL, "kind" character varying NOT NULL, "base_id" uuid NULL, "record_id" uuid NULL, "group_id" uuid NULL, "actor_kind" character varying NOT NULL, "actor_id" uuid NOT NULL, "details" jsonb NULL, PRIMARY KEY ("id"));
-- create index "auditevent_organization_id_at_id" to table: "audit_events"
CREATE INDEX "auditevent_organization_id_at_id" ON "audit_events" ("organization_id", "at", "id");
-- create index "auditevent_organization_id_base_id" to table: "audit_events"
CREATE INDEX "auditevent_organization_id_base_id" ON "audit_events" ("organization_id", "base_id");
-- create "organizations" table
CREATE TABLE "organizations" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "name" character varying NOT NULL, PRIMARY KEY ("id"));
-- create index "organizations_name_key" to table: "organizations"
CREATE UNIQUE INDEX "organizations_name_key" ON "organizations" ("name");
-- create "users" table
CREATE TABLE "users" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "email" character varying NOT NULL, "name" character varying NOT NULL DEFAULT '', PRIMARY KEY ("id"));
-- create index "users_email_key" to table: "users"
CREATE UNIQUE INDEX "users_email_key" ON "users" ("email");
-- create "api_keys" table
CREATE TABLE "api_keys" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "owner_kind" character varying NOT NULL, "name" character varying NOT NULL DEFAULT '', "scope" character varying NOT NULL, "prefix" character varying NOT NULL, "hash" character varying NOT NULL, "last_used_at" timestamptz NULL, "expires_at" timestamptz NULL, "revoked_at" timestamptz NULL, "organization_id" uuid NOT NULL, "user_id" uuid NULL, PRIMARY KEY ("id"), CONSTRAINT "api_keys_organizations_api_keys" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE NO ACTION, CONSTRAINT "api_keys_users_api_keys" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE SET NULL);
-- create index "api_keys_prefix_key" to table: "api_keys"
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys" ("prefix");
-- create index "api_keys_hash_key" to table: "api_keys"
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys" ("hash");
-- create index "apikey_organization_id_created_at" to table: "api_keys"
CREATE INDEX "apikey_organization_id_created_at" ON "api_keys" ("organization_id", "created_at");
-- create "bases" table
CREATE TABLE "bases" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "name" character varying NOT NULL, "description" text NOT NULL DEFAULT '', "owner_kind" character varying NOT NULL, "owner_id" uuid NOT NULL, "created_by" uuid NOT NULL, "deleted_at" timestamptz NULL, "latest_version" bigint NOT NULL DEFAULT 0, "latest_record_id" uuid NULL, "draft_record_id" uuid NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "bases_organizations_bases" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE NO ACTION);
-- create index "base_organization_id_kind_deleted_at_updated_at" to table: "bases"
CREATE INDEX "base_organization_id_kind_deleted_at_updated_at" ON "bases" ("organization_id", "kind", "deleted_at", "updated_at");
-- create index "base_organization_id_name" to table: "bases"
CREATE INDEX "base_organization_id_name" ON "bases" ("organization_id", "name");
-- create "groups" table
CREATE TABLE "groups" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "name" character varying NOT NULL, "description" text NOT NULL DEFAULT '', "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "groups_organizations_groups" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE NO ACTION);
-- create index "group_organization_id_created_at" to table: "groups"
CREATE INDEX "group_organization_id_created_at" ON "groups" ("organization_id", "created_at");
-- create "group_members" table
CREATE TABLE "group_members" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "base_id" uuid NOT NULL, "group_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "group_members_bases_memberships" FOREIGN KEY ("base_id") REFERENCES "bases" ("id") ON DELETE NO ACTION, CONSTRAINT "group_members_groups_members" FOREIGN KEY ("group_id") REFERENCES "groups" ("id") ON DELETE CASCADE);
-- create index "groupmember_group_id_base_id" to table: "group_members"
CREATE UNIQUE INDEX "groupmember_group_id_base_id" ON "group_members" ("group_id", "base_id");
-- create index "groupmember_base_id" to table: "group_members"
CREATE INDEX "groupmember_base_id" ON "group_members" ("base_id");
-- create "memberships" table
CREATE TABLE "memberships" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "role" character varying NOT NULL, "organization_id" uuid NOT NULL, "user_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "memberships_organizations_memberships" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE NO ACTION, CONSTRAINT "memberships_users_memberships" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE NO ACTION);
-- create index "membership_user_id_organization_id" to table: "memberships"
CREATE UNIQUE INDEX "membership_user_id_organization_id" ON "memberships" ("user_id", "organization_id");
-- create index "membership_organization_id_created_at" to table: "memberships"
CREATE INDEX "membership_organization_id_created_at" ON "memberships" ("organization_id", "created_at");
-- create "records" table
CREATE TABLE "records" ("id" uuid NOT NULL, "created_at" timestamptz NOT NULL, "updated_at" timestamptz NOT NULL, "kind" character varying NOT NULL, "status" character varying NOT NULL, "version" bigint NULL, "revision" bigint NOT NULL DEFAULT 1, "name" character varying NOT NULL, "description" text NOT NULL DEFAULT '', "rule" text NOT NULL DEFAULT '', "definition" jsonb NULL, "schema" jsonb NULL, "tests" jsonb NULL, "created_by" uuid NOT NULL, "published_at" timestamptz NULL, "base_id" uuid NOT NULL, "organization_id" uuid NOT NULL, PRIMARY KEY ("id"), CONSTRAINT "records_bases_records" FOREIGN KEY ("base_id") REFERENCES "bases" ("id") ON DELETE NO ACTION, CONSTRAINT "records_organizations_records" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE NO ACTION);
-- create index "record_base_id_version" to table: "records"
CREATE UNIQUE INDEX "record_base_id_version" ON "records" ("base_id", "version");
-- create index "record_one_draft_per_base" to table: "records"
CREATE UNIQUE INDEX "record_one_draft_per_base" ON "records" ("base_id") WHERE status = 'draft';

-- +goose Down
-- reverse: create index "record_one_draft_per_base" to table: "records"
DROP INDEX "record_one_draft_per_base";
-- reverse: create index "record_base_id_version" to table: "records"
DROP INDEX "record_base_id_version";
-- reverse: create "records" table
DROP TABLE "records";
-- reverse: create index "membership_organization_id_created_at" to table: "memberships"
DROP INDEX "membership_organization_id_created_at";
-- reverse: create index "membership_user_id_organization_id" to table: "memberships"
DROP INDEX "membership_user_id_organization_id";
-- reverse: create "memberships" table
DROP TABLE "memberships";
-- reverse: create index "groupmember_base_id" to table: "group_members"
DROP INDEX "groupmember_base_id";
-- reverse: create index "groupmember_group_id_base_id" to table: "group_members"
DROP INDEX "groupmember_group_id_base_id";
-- reverse: create "group_members" table
DROP TABLE "group_members";
-- reverse: create index "group_organization_id_created_at" to table: "groups"
DROP INDEX "group_organization_id_created_at";
-- reverse: create "groups" table
DROP TABLE "groups";
-- reverse: create index "base_organization_id_name" to table: "bases"
DROP INDEX "base_organization_id_name";
-- reverse: create index "base_organization_id_kind_deleted_at_updated_at" to table: "bases"
DROP INDEX "base_organization_id_kind_deleted_at_updated_at";
-- reverse: create "bases" table
DROP TABLE "bases";
-- reverse: create index "apikey_organization_id_created_at" to table: "api_keys"
DROP INDEX "apikey_organization_id_created_at";
-- reverse: create index "api_keys_hash_key" to table: "api_keys"
DROP INDEX "api_keys_hash_key";
-- reverse: create index "api_keys_prefix_key" to table: "api_keys"
DROP INDEX "api_keys_prefix_key";
-- reverse: create "api_keys" table
DROP TABLE "api_keys";
-- reverse: create index "users_email_key" to table: "users"
DROP INDEX "users_email_key";
-- reverse: create "users" table
DROP TABLE "users";
-- reverse: create index "organizations_name_key" to table: "organizations"
DROP INDEX "organizations_name_key";
-- reverse: create "organizations" table
DROP TABLE "organizations";
-- reverse: create index "auditevent_organization_id_base_id" to table: "audit_events"
DROP INDEX "auditevent_organization_id_base_id";
-- reverse: create index "auditevent_organization_id_at_id" to table: "audit_events"
DROP INDEX "auditevent_organization_id_at_id";
-- reverse: create "audit_events" table
DROP TABLE "audit_events";
