-- Rate-limit counters are written on every turn (the opening statement
-- counts the customer's hit), and as an ordinary table each hit was WAL
-- records and a commit that waited for the WAL to reach the disk. Unlogged,
-- a hit writes no WAL and its commit does not wait; `shopbot bench` on
-- Postgres (100 × 30) went from 1,332–1,404 to 1,528–1,553 turns/s. The
-- price: after a Postgres crash (not a clean restart, and not a restart of
-- shopbot) the table comes back empty, so every window starts again, and a
-- streaming standby has no counts. A limit is a guard against floods, not a
-- record: starting its windows again after a crash is harmless.
ALTER TABLE rate_limits SET UNLOGGED;
