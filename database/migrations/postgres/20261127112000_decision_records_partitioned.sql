-- decision_records becomes partitioned by day (UTC) on "at", like
-- audit_executions, so that retention drops whole expired days instead of
-- deleting rows. A partitioned table's keys must hold the partition key:
-- the primary key becomes (id, at), which still finds a record by its id
-- with one probe per partition; the (at) index that expiry's deletes used
-- goes. The records stored so far move, with their ids and times, into
-- the partitions of their days.
-- +goose Up
ALTER TABLE "decision_records" RENAME TO "decision_records_unpartitioned";
CREATE TABLE "decision_records" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "kind" character varying NOT NULL,
	"base_id" uuid NOT NULL, "record_id" uuid NOT NULL, "version" bigint NULL, "revision" bigint NOT NULL, "at" timestamptz NOT NULL,
	"result" boolean NOT NULL, "explanation" text NOT NULL, "duration_ns" bigint NOT NULL, "actor_kind" character varying NOT NULL,
	"actor_id" uuid NOT NULL, "input" text NOT NULL) PARTITION BY RANGE ("at");

-- Creates the partition of one day, unless it exists, under a lock so that
-- replicas asking for the same day at once create it once.
-- +goose StatementBegin
CREATE FUNCTION "decision_records_partition"(day date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	name text := 'decision_records_' || to_char(day, 'YYYYMMDD');
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('decision_records_partition'));
	IF to_regclass(quote_ident(name)) IS NOT NULL THEN
		RETURN;
	END IF;
	EXECUTE format('CREATE TABLE %I PARTITION OF "decision_records" FOR VALUES FROM (%L) TO (%L)',
		name, day::timestamp AT TIME ZONE 'UTC', (day + 1)::timestamp AT TIME ZONE 'UTC');
END;
$$;
-- +goose StatementEnd

SELECT "decision_records_partition"("day") FROM (
	SELECT DISTINCT ("at" AT TIME ZONE 'UTC')::date AS "day" FROM "decision_records_unpartitioned") AS "days";
INSERT INTO "decision_records" ("id", "organization_id", "kind", "base_id", "record_id", "version", "revision", "at", "result",
	"explanation", "duration_ns", "actor_kind", "actor_id", "input")
SELECT "id", "organization_id", "kind", "base_id", "record_id", "version", "revision", "at", "result",
	"explanation", "duration_ns", "actor_kind", "actor_id", "input" FROM "decision_records_unpartitioned";
-- Dropped before the new keys are made: its own keep their names.
DROP TABLE "decision_records_unpartitioned";
ALTER TABLE "decision_records" ADD PRIMARY KEY ("id", "at");
CREATE INDEX "decisionrecord_organization_id_at_id" ON "decision_records" ("organization_id", "at", "id");
CREATE INDEX "decisionrecord_organization_id_base_id_at_id" ON "decision_records" ("organization_id", "base_id", "at", "id");

-- +goose Down
ALTER TABLE "decision_records" RENAME TO "decision_records_partitioned";
CREATE TABLE "decision_records" ("id" uuid NOT NULL, "organization_id" uuid NOT NULL, "kind" character varying NOT NULL,
	"base_id" uuid NOT NULL, "record_id" uuid NOT NULL, "version" bigint NULL, "revision" bigint NOT NULL, "at" timestamptz NOT NULL,
	"result" boolean NOT NULL, "explanation" text NOT NULL, "duration_ns" bigint NOT NULL, "actor_kind" character varying NOT NULL,
	"actor_id" uuid NOT NULL, "input" text NOT NULL);
INSERT INTO "decision_records" ("id", "organization_id", "kind", "base_id", "record_id", "version", "revision", "at", "result",
	"explanation", "duration_ns", "actor_kind", "actor_id", "input")
SELECT "id", "organization_id", "kind", "base_id", "record_id", "version", "revision", "at", "result",
	"explanation", "duration_ns", "actor_kind", "actor_id", "input" FROM "decision_records_partitioned";
DROP TABLE "decision_records_partitioned";
DROP FUNCTION "decision_records_partition"(date);
ALTER TABLE "decision_records" ADD PRIMARY KEY ("id");
CREATE INDEX "decisionrecord_at" ON "decision_records" ("at");
CREATE INDEX "decisionrecord_organization_id_at_id" ON "decision_records" ("organization_id", "at", "id");
CREATE INDEX "decisionrecord_organization_id_base_id_at_id" ON "decision_records" ("organization_id", "base_id", "at", "id");
