-- Replicas cover for each other (adapters/inbox, lease.go). An update is
-- claimed by the replica that records or resumes it: claimed_by names the
-- replica, lease_until is how long the claim holds unless renewed. The
-- holder renews its claims while their turns wait and run; a replica
-- that dies stops renewing, and another claims the update once the lease
-- has run out (UPDATE ... WHERE lease_until < now, so one replica takes
-- it). Rows recorded before this migration have no lease: anyone may
-- claim them.
ALTER TABLE inbox ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE inbox ADD COLUMN lease_until TIMESTAMP;
CREATE INDEX inbox_claimed ON inbox (source, claimed_by) WHERE handled_at IS NULL;

-- The turn (its dedup key) that posted the chat's cart message: a turn
-- run again after its replica died edits the cart message it posted
-- instead of posting a second one.
ALTER TABLE cart_messages ADD COLUMN turn TEXT NOT NULL DEFAULT '';

-- Notices waiting for shoppers who cannot be reached between requests
-- (the web chat): any replica puts them, the one the shopper's next
-- request reaches takes them (DELETE ... RETURNING: each once). They
-- expire; expired rows are pruned.
CREATE TABLE shopper_notices (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    channel    TEXT NOT NULL,
    chat       TEXT NOT NULL,
    payload    TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX shopper_notices_chat ON shopper_notices (channel, chat, id);
CREATE INDEX shopper_notices_expiry ON shopper_notices (expires_at);
