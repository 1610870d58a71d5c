-- Counters shared by every replica: turns per customer, sign-in attempts
-- per user and per address. One row per key counts the hits of the key's
-- current fixed window; window_start and window_end are Unix milliseconds.
-- Every turn updates a row, so the table is one b-tree (WITHOUT ROWID)
-- and has no second index, and a commit writes a single page; pruning
-- rows whose window has ended scans it, now and then.
CREATE TABLE rate_limits (
    key          TEXT PRIMARY KEY,
    window_start BIGINT NOT NULL,
    window_end   BIGINT NOT NULL,
    hits         INTEGER NOT NULL
) WITHOUT ROWID;
