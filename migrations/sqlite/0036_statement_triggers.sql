-- Postgres's triggers on messages and conversations run once per
-- statement from this version (a turn's save, grouped, stores many rows
-- in one). SQLite has row triggers only, and they cost little in
-- process: nothing changes here.
SELECT 1;
