-- Issue 6: what the endpoints' plugins counted for a job (PluginCounters: an Azure share's requests and
-- throttled responses, NFS retransmissions), by side and name ("destination.azure-files.throttled-503"),
-- summed over its units and its driver's listing, so a durable job's summary shows them as the CLI does.
create table plugin_counter (
  job_id varchar(36)  not null references job (id) on delete cascade,
  name   varchar(200) not null,
  total  bigint       not null default 0,
  primary key (job_id, name)
);
