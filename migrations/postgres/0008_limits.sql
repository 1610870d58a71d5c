-- Counters shared by every replica: turns per customer, sign-in attempts
-- per user and per address. One row per key counts the hits of the key's
-- current fixed window; window_start and window_end are Unix milliseconds.
-- Rows whose window has ended are pruned now and then (window_end index).
CREATE TABLE rate_limits (
    key          TEXT PRIMARY KEY,
    window_start BIGINT NOT NULL,
    window_end   BIGINT NOT NULL,
    hits         INTEGER NOT NULL
);
CREATE INDEX rate_limits_window_end ON rate_limits (window_end);
