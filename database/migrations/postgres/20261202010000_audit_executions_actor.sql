-- What one key or member did is read through an index of their own: the
-- audit log filtered by actor otherwise read every partition of the table
-- (5 s among six million events, past the database timeout). An index on
-- the partitioned table is made on every partition, and on each new one.
-- +goose Up
CREATE INDEX "audit_executions_actor" ON "audit_executions" ("actor_id", "at");

-- +goose Down
DROP INDEX "audit_executions_actor";
