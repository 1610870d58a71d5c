-- Sign-in delays shared by every replica: one row per key (a user name,
-- a known device) holds the delay the next failure imposes and the time
-- before which no attempt for the key is evaluated (Unix milliseconds).
-- A key unused for a while (expires_at) starts again at the first delay;
-- expired rows are pruned now and then.
CREATE TABLE signin_delays (
    key        TEXT PRIMARY KEY,
    failures   INTEGER NOT NULL,
    delay_ms   BIGINT NOT NULL,
    not_before BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX signin_delays_expires_at ON signin_delays (expires_at);

-- Server secrets made once by whichever replica asks first (the key that
-- signs known-device cookies) and shared by all of them.
CREATE TABLE server_secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Idempotency keys a client sent with a turn, remembered for a set time
-- (Unix milliseconds) so a replay long after is still recognised.
CREATE TABLE idempotency_keys (
    scope      TEXT NOT NULL,
    key        TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
