-- The job store (docs/job-store.md). One script for both databases: PostgreSQL, and H2 in PostgreSQL
-- mode (MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE), where TEXT and VARCHAR map to VARCHAR and BYTEA to
-- VARBINARY. Enum-like columns are text (the enum's name), so a new state needs no migration.

-- A job as submitted and as it runs. spec_json never holds a secret: the caller strips them.
create table job (
  id                varchar(36)  not null primary key,
  kind              varchar(32)  not null,
  spec_json         text         not null,
  desired_state     varchar(16)  not null,   -- RUNNING, PAUSED, CANCELLED: what the user asked for
  state             varchar(32)  not null,   -- QUEUED ... CANCELLED: what the job actually is
  created           timestamp with time zone not null,
  started           timestamp with time zone,
  ended             timestamp with time zone,
  files_scanned     bigint       not null default 0,
  bytes_scanned     bigint       not null default 0,
  files_done        bigint       not null default 0,
  files_skipped     bigint       not null default 0,
  files_failed      bigint       not null default 0,
  bytes_transferred bigint       not null default 0,
  units_total       bigint       not null default 0,
  units_done        bigint       not null default 0,
  retries           bigint       not null default 0,
  enumeration_done  boolean      not null default false,
  error_code        varchar(64),
  error_message     varchar(2000),
  version           bigint       not null default 0
);
create index job_created_idx on job (created);
create index job_state_created_idx on job (state, created);

-- A slice of a job (about 1,000 files, or byte ranges of a huge file) that one node runs at a time.
-- epoch is the lease: each attempt increments it, and only the holder of the current epoch may commit.
create table work_unit (
  job_id     varchar(36)  not null references job (id) on delete cascade,
  seq        bigint       not null,
  state      varchar(16)  not null,            -- PENDING, RUNNING, DONE
  epoch      bigint       not null default 0,
  owner      varchar(128),                     -- node id of the current holder
  heartbeat  timestamp with time zone,
  file_count bigint       not null,
  byte_count bigint       not null,
  manifest   bytea        not null,            -- the unit's file list, encoded by the caller
  created    timestamp with time zone not null,
  primary key (job_id, seq)
);
create index work_unit_job_state_idx on work_unit (job_id, state);

-- The exactly-once record of each file of a job: inserted if absent, in the unit's commit transaction.
-- PostgreSQL indexes keys of at most about 2,700 bytes: longer paths fail their insert.
create table file_result (
  job_id      varchar(36)   not null references job (id) on delete cascade,
  path        varchar(4096) not null,
  unit_seq    bigint        not null,
  outcome     varchar(16)   not null,          -- TRANSFERRED, SKIPPED, FAILED
  bytes       bigint        not null,
  attempts    integer       not null,
  error_code  varchar(64),
  message     varchar(2000),
  recorded_at timestamp with time zone not null,
  primary key (job_id, path)
);
create index file_result_outcome_idx on file_result (job_id, outcome, path);

-- Per job, node and stage: what the nodes measured (the bottleneck across a cluster).
create table stage_stats (
  job_id     varchar(36)  not null references job (id) on delete cascade,
  node_id    varchar(128) not null,
  stage      varchar(16)  not null,
  bytes      bigint       not null default 0,
  busy_nanos bigint       not null default 0,
  wait_nanos bigint       not null default 0,
  ops        bigint       not null default 0,
  primary key (job_id, node_id, stage)
);

-- The movers of a cluster (one row for a standalone mover).
create table node (
  id        varchar(128) not null primary key,
  host      varchar(255) not null,
  started   timestamp with time zone not null,
  heartbeat timestamp with time zone not null
);

-- db-scheduler 16.x (its postgresql_tables.sql), which runs job drivers and work units.
create table scheduled_tasks (
  task_name            text    not null,
  task_instance        text    not null,
  task_data            bytea,
  execution_time       timestamp with time zone not null,
  picked               boolean not null,
  picked_by            text,
  last_success         timestamp with time zone,
  last_failure         timestamp with time zone,
  consecutive_failures integer,
  last_heartbeat       timestamp with time zone,
  version              bigint  not null,
  priority             smallint,
  primary key (task_name, task_instance)
);
create index execution_time_idx on scheduled_tasks (execution_time);
create index last_heartbeat_idx on scheduled_tasks (last_heartbeat);
create index priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc);
