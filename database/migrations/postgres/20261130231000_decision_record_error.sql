-- A decision record keeps the error its run stopped with, so that a replay
-- can show that the recorded run failed. The partitions take the column
-- from the table.
-- +goose Up
ALTER TABLE "decision_records" ADD COLUMN "error" text NULL;

-- +goose Down
ALTER TABLE "decision_records" DROP COLUMN "error";
