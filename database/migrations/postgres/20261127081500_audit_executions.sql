-- `executed` events move from audit_events to audit_executions: one narrow
-- row per run (ids as uuid, kinds as small ints, what every run says as
-- columns, only a failure's error as JSON), two indexes (the log of a
-- tenant, newest first, with (at, id) as the cursor; the history of a
-- base), partitioned by day (UTC) on "at" so that retention drops whole
-- days. Columns are ordered so that PostgreSQL packs them without padding.
-- The same trigger as on audit_events refuses updates, deletes and
-- truncation, on the parent and on every partition (a statement trigger is
-- not inherited, so audit_executions_partition creates one per partition);
-- dropping a whole expired partition is the only way events leave.
-- +goose Up
CREATE TABLE "audit_executions" (
	"at" timestamptz NOT NULL,
	"duration_ns" bigint NOT NULL,
	"organization_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"base_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"actor_id" uuid NOT NULL,
	"version" integer NULL,
	"kind" smallint NOT NULL,
	"actor_kind" smallint NOT NULL,
	"result" boolean NOT NULL,
	"published" boolean NOT NULL,
	"details" jsonb NULL
) PARTITION BY RANGE ("at");
CREATE UNIQUE INDEX "audit_executions_log" ON "audit_executions" ("organization_id", "at", "id");
CREATE INDEX "audit_executions_base" ON "audit_executions" ("base_id", "at");
CREATE TRIGGER "audit_executions_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "audit_executions"
	FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();

-- Creates the partition of one day, unless it exists, under a lock so that
-- replicas asking for the same day at once create it once.
-- +goose StatementBegin
CREATE FUNCTION "audit_executions_partition"(day date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	name text := 'audit_executions_' || to_char(day, 'YYYYMMDD');
BEGIN
	PERFORM pg_advisory_xact_lock(hashtext('audit_executions_partition'));
	IF to_regclass(quote_ident(name)) IS NOT NULL THEN
		RETURN;
	END IF;
	EXECUTE format('CREATE TABLE %I PARTITION OF "audit_executions" FOR VALUES FROM (%L) TO (%L)',
		name, day::timestamp AT TIME ZONE 'UTC', (day + 1)::timestamp AT TIME ZONE 'UTC');
	EXECUTE format('CREATE TRIGGER "audit_executions_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON %I
		FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"()', name);
END;
$$;
-- +goose StatementEnd

-- The events stored so far move, with their ids and times, into the
-- partitions of their days; the trigger on audit_events steps aside for
-- this one statement of the migration.
SELECT "audit_executions_partition"("day") FROM (
	SELECT DISTINCT ("at" AT TIME ZONE 'UTC')::date AS "day" FROM "audit_events" WHERE "action" = 'executed') AS "days";
INSERT INTO "audit_executions"
SELECT "at", COALESCE(("details"->>'durationNs')::numeric::bigint, 0), "organization_id", "id", "base_id", "record_id", "actor_id",
	("details"->>'version')::numeric::integer, CASE "kind" WHEN 'flow' THEN 2 ELSE 1 END, CASE "actor_kind" WHEN 'user' THEN 1 ELSE 2 END,
	COALESCE(("details"->>'result')::boolean, false), COALESCE("details"->>'status' = 'published', false),
	NULLIF("details" - 'result' - 'durationNs' - 'status' - 'version', '{}'::jsonb)
FROM "audit_events" WHERE "action" = 'executed';
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_append_only";
DELETE FROM "audit_events" WHERE "action" = 'executed';
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_append_only";

-- +goose Down
INSERT INTO "audit_events" ("id", "organization_id", "at", "action", "kind", "base_id", "record_id", "actor_kind", "actor_id", "details")
SELECT "id", "organization_id", "at", 'executed', CASE "kind" WHEN 2 THEN 'flow' ELSE 'policy' END, "base_id", "record_id",
	CASE "actor_kind" WHEN 1 THEN 'user' ELSE 'key' END, "actor_id",
	jsonb_build_object('result', "result", 'durationNs', "duration_ns", 'status', CASE WHEN "published" THEN 'published' ELSE 'draft' END)
		|| CASE WHEN "version" IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('version', "version") END || COALESCE("details", '{}'::jsonb)
FROM "audit_executions";
DROP TABLE "audit_executions";
DROP FUNCTION "audit_executions_partition"(date);
