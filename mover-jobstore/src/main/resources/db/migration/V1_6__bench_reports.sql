-- Issue 8 (bench jobs in the job store): a job that runs in steps says what it is doing (phase, and the
-- steps done of all), and a bench keeps its report, as mover bench --output json prints it (text: a CLOB
-- on H2, where TEXT holds up to 1e9 characters). Lists filter by kind (GET /api/v1/jobs?kind=bench).
alter table job add column phase varchar(500);
alter table job add column phase_step integer not null default 0;
alter table job add column phase_steps integer not null default 0;
alter table job add column report_json text;
create index job_kind_created_idx on job (kind, created);
