-- Issue 4: recurring syncs (docs/schedules.md). A schedule fires a sync job per firing through a db-scheduler
-- recurring task with a persistent schedule (task "mover-schedule", instance = the schedule's id); this table is
-- the truth about what the user defined, and what the schedule did last.
create table sync_schedule (
  id                varchar(36)  not null primary key,
  name              varchar(64)  not null unique,
  cron              varchar(200),                -- a cron expression, or null when interval_millis is set
  interval_millis   bigint,
  time_zone         varchar(64)  not null,       -- the zone the cron expression is read in
  template_json     text         not null,       -- the sync job spec as jobs keep theirs: never a secret
  rpo_target_millis bigint,                      -- null: no target
  overlap           varchar(16)  not null,       -- SKIP, QUEUE_ONE
  paused            boolean      not null default false,
  created           timestamp with time zone not null,
  updated           timestamp with time zone not null,
  last_fired        timestamp with time zone,
  last_job_id       varchar(36),                 -- the latest job this schedule started
  last_job_seen_end boolean      not null default true, -- its end has been recorded as an event
  queued            boolean      not null default false, -- a firing waits for the running job (QUEUE_ONE)
  fired             bigint       not null default 0,
  skipped           bigint       not null default 0,
  submit_failures   bigint       not null default 0,
  rpo_state         varchar(16)  not null,       -- RPO_MET, RPO_EXCEEDED, NO_TARGET: the last one evaluated
  event_seq         bigint       not null default 0,
  version           bigint       not null default 0
);

-- What a schedule did and noticed, newest kept (the store trims each schedule's events to the last 200).
create table schedule_event (
  schedule_id varchar(36)   not null references sync_schedule (id) on delete cascade,
  seq         bigint        not null,
  at          timestamp with time zone not null,
  kind        varchar(32)   not null,
  job_id      varchar(36),
  message     varchar(2000) not null,
  primary key (schedule_id, seq)
);

-- The schedule that started a job (no foreign key: a deleted schedule's jobs stay, with its id).
alter table job add column schedule_id varchar(36);
create index job_schedule_idx on job (schedule_id, created);
