-- Issue 4 (sync): a sync job's report, written by its driver once both sides are compared and the
-- deletes are done (files scanned at the source and destination, unchanged, planned, deleted, compare
-- time, warnings), as JSON: the durable view of io.mover.core.engine.SyncReport.
alter table job add column sync_json text;
