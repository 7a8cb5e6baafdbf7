-- Issue 5: what carried a job's blocks, as its units' runs describe it ("auto (blocks: zstd:1 94%, lz4 6%; 2 switches;
-- last choice ...)" for --codec auto over a link), so a durable job's summary says which codec was chosen and why, as
-- the CLI's does; units write it as they run and when they end. Empty until then (the summary then shows the
-- submitted codec).
alter table job add column codec_report varchar(2000);
