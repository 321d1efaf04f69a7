-- +goose Up
-- modify "bases" table
ALTER TABLE "bases" ADD COLUMN "decisions_enabled" boolean NOT NULL DEFAULT false, ADD COLUMN "decisions_sample_rate" double precision NOT NULL DEFAULT 1, ADD COLUMN "decisions_mask" jsonb NULL;
-- create "decision_records" table
CREATE TABLE "decision_records" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "kind" character varying NOT NULL, "base_id" uuid NOT NULL, "record_id" uuid NOT NULL, "version" bigint NULL, "revision" bigint NOT NULL, "at" timestamptz NOT NULL, "result" boolean NOT NULL, "explanation" text NOT NULL, "duration_ns" bigint NOT NULL, "actor_kind" character varying NOT NULL, "actor_id" uuid NOT NULL, "input" text NOT NULL, PRIMARY KEY ("id"));
-- create index "decisionrecord_at" to table: "decision_records"
CREATE INDEX "decisionrecord_at" ON "decision_records" ("at");
-- create index "decisionrecord_organization_id_at_id" to table: "decision_records"
CREATE INDEX "decisionrecord_organization_id_at_id" ON "decision_records" ("organization_id", "at", "id");
-- create index "decisionrecord_organization_id_base_id_at_id" to table: "decision_records"
CREATE INDEX "decisionrecord_organization_id_base_id_at_id" ON "decision_records" ("organization_id", "base_id", "at", "id");

-- +goose Down
-- reverse: create index "decisionrecord_organization_id_base_id_at_id" to table: "decision_records"
DROP INDEX "decisionrecord_organization_id_base_id_at_id";
-- reverse: create index "decisionrecord_organization_id_at_id" to table: "decision_records"
DROP INDEX "decisionrecord_organization_id_at_id";
-- reverse: create index "decisionrecord_at" to table: "decision_records"
DROP INDEX "decisionrecord_at";
-- reverse: create "decision_records" table
DROP TABLE "decision_records";
-- reverse: modify "bases" table
ALTER TABLE "bases" DROP COLUMN "decisions_mask", DROP COLUMN "decisions_sample_rate", DROP COLUMN "decisions_enabled";
