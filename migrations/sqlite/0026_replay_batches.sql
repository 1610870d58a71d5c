-- The admin Replay page's batches (catalog/replay_batches.go), shared by
-- every replica: progress (done of total) and the replayed turns (JSON)
-- live here, not in one process's memory. A running batch beats
-- heartbeat_at; one whose heartbeat is old is shown as interrupted (its
-- process died) and is marked so when the next batch starts. At most one
-- batch runs at a time across replicas: the partial unique index.
CREATE TABLE replay_batches (
    id            INTEGER PRIMARY KEY,
    since_seconds BIGINT NOT NULL CHECK (since_seconds > 0),
    started_by    TEXT NOT NULL DEFAULT '',
    status        TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'interrupted')),
    error         TEXT NOT NULL DEFAULT '',
    done          INTEGER NOT NULL DEFAULT 0,
    total         INTEGER NOT NULL DEFAULT 0,
    turns         TEXT NOT NULL DEFAULT '[]',
    started_at    TIMESTAMP NOT NULL,
    heartbeat_at  TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP
);
CREATE UNIQUE INDEX replay_batches_one_running ON replay_batches (status) WHERE status = 'running';

-- The trace id (W3C, 32 hex digits) of the engine turn that wrote a
-- message, when tracing is on; the admin transcript shows it.
ALTER TABLE messages ADD COLUMN trace_id TEXT NOT NULL DEFAULT '';
