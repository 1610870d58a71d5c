-- Postgres's rate_limits becomes unlogged from this version (no WAL for a
-- hit). SQLite has no unlogged tables: nothing changes here.
SELECT 1;
