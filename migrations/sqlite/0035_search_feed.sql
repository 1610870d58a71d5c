-- The search backends follow the catalog's change feed (catalog/changes.go)
-- instead of the outbox: the outbox goes. What a deletion leaves behind
-- (no updated_at to follow) is a tombstone; the Weaviate follower keeps
-- its place in the feed in search_cursors, shared by every replica.
DROP TABLE outbox;

CREATE TABLE search_tombstones (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('product', 'passages')),
    key        TEXT NOT NULL,
    deleted_at TIMESTAMP NOT NULL
);
CREATE INDEX search_tombstones_deleted_idx ON search_tombstones (deleted_at);

CREATE TABLE search_cursors (
    name     TEXT PRIMARY KEY,
    at       TIMESTAMP NOT NULL,
    after_id BIGINT NOT NULL DEFAULT 0
);
