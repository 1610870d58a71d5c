-- Product imports started from the panel (and `shopbot import`), kept in
-- the database so any replica shows a job's progress and result. The job
-- row is updated as the import runs (throttled), heartbeat_at with it: a
-- job still 'running' whose heartbeat is old belongs to a process that
-- died and is shown as interrupted. Only the first 1,000 row errors of a
-- job are kept (import_job_errors); failed counts them all. Old jobs are
-- pruned when a new one starts.
CREATE TABLE import_jobs (
    id           BIGSERIAL PRIMARY KEY,
    file_name    TEXT NOT NULL CHECK (file_name <> ''),
    format       TEXT NOT NULL DEFAULT '',
    started_by   TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
    error        TEXT NOT NULL DEFAULT '',
    size_bytes   BIGINT NOT NULL DEFAULT 0,
    bytes_read   BIGINT NOT NULL DEFAULT 0,
    rows_read    BIGINT NOT NULL DEFAULT 0,
    imported     BIGINT NOT NULL DEFAULT 0,
    updated      BIGINT NOT NULL DEFAULT 0,
    failed       BIGINT NOT NULL DEFAULT 0,
    started_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at  TIMESTAMPTZ
);

CREATE TABLE import_job_errors (
    job_id BIGINT NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    line   INTEGER NOT NULL,
    sku    TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL,
    PRIMARY KEY (job_id, seq)
);
