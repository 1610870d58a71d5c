-- One import job record for every file kind: products (the CSV/JSONL
-- product file and any format the importer detects), reviews and pages.
ALTER TABLE import_jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'products'
    CHECK (kind IN ('products', 'reviews', 'pages'));

-- Scheduled product feeds (catalog/feeds.go, catalog/importer/feed.go):
-- a URL fetched every every_hours with a conditional GET (etag,
-- last_modified) and imported as a product import job; products a
-- complete feed no longer names are archived. Replicas share the schedule
-- through next_run_at: a replica claims a due feed by moving next_run_at
-- forward with a conditional update on claims (a counter), so one replica
-- fetches a feed per period and a restart keeps the schedule.
CREATE TABLE import_feeds (
    id              BIGSERIAL PRIMARY KEY,
    url             TEXT NOT NULL UNIQUE CHECK (url <> ''),
    every_hours     INTEGER NOT NULL DEFAULT 6 CHECK (every_hours BETWEEN 1 AND 168),
    enabled         BOOLEAN NOT NULL DEFAULT TRUE,
    etag            TEXT NOT NULL DEFAULT '',
    last_modified   TEXT NOT NULL DEFAULT '',
    claims          BIGINT NOT NULL DEFAULT 0,
    next_run_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_run_at     TIMESTAMPTZ,
    last_success_at TIMESTAMPTZ,
    last_status     TEXT NOT NULL DEFAULT ''
        CHECK (last_status IN ('', 'imported', 'not_changed', 'failed')),
    last_error      TEXT NOT NULL DEFAULT '',
    last_note       TEXT NOT NULL DEFAULT '',
    last_job_id     BIGINT,
    last_archived   INTEGER NOT NULL DEFAULT 0,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
