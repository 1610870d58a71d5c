-- The UCP binding's records (adapters/ucp, catalog/ucp_records.go):
-- checkout sessions (kind 'session'), the lease one operation holds on a
-- session (kind 'lease') and the replies to Idempotency-Keys (kind
-- 'reply'), each a JSON value kept until expires_at (Unix milliseconds),
-- so every replica sees them and a restart forgets none. Expired rows
-- are pruned with the other expiring counters (catalog.LimitPruner).
CREATE TABLE ucp_records (
    kind       TEXT NOT NULL CHECK (kind <> ''),
    key        TEXT NOT NULL CHECK (key <> ''),
    value      TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (kind, key)
);
CREATE INDEX ucp_records_expires_at ON ucp_records (expires_at);
