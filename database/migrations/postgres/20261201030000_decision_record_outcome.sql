-- A decision record keeps the outcome of the custom node a flow run ended
-- on, so that a replay can tell a run that ends elsewhere with the same
-- result. The partitions take the column from the table.
-- +goose Up
ALTER TABLE "decision_records" ADD COLUMN "outcome" text NULL;

-- +goose Down
ALTER TABLE "decision_records" DROP COLUMN "outcome";
