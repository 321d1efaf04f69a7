-- A flow's decision record keeps the policy record (and revision) each
-- reference of its nodes resolved to, so that the run can be recomputed
-- with exactly those; null for a policy's.
-- +goose Up
ALTER TABLE `decision_records` ADD COLUMN `policies` text NULL;

-- +goose Down
ALTER TABLE `decision_records` DROP COLUMN `policies`;
