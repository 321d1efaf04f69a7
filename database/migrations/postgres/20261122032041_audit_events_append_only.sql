-- Audit events are append-only. ent refuses updates and deletes with a hook;
-- this trigger refuses them from every other path too (raw SQL, other
-- tools), TRUNCATE included. It fires per statement, so even a statement
-- that matches no row is refused.
-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'audit events are append-only';
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE OR TRUNCATE ON "audit_events"
	FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();

-- +goose Down
DROP TRIGGER "audit_events_append_only" ON "audit_events";
DROP FUNCTION "audit_events_append_only"();
