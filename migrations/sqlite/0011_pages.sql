-- Shop pages: Markdown the merchant writes (returns, shipping, payment,
-- warranty, contact, about...), addressed by slug.
CREATE TABLE pages (
    id         INTEGER PRIMARY KEY,
    slug       TEXT NOT NULL UNIQUE CHECK (slug <> ''),
    title      TEXT NOT NULL CHECK (title <> ''),
    body       TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- Passages: the searchable pieces of longer texts, each a chunk of a
-- source (kind 'page': ref is the page's slug; reviews come next). A
-- source's passages are replaced together in the transaction that changes
-- it and share its updated_at, which the embedded search index follows.
-- scope narrows a search (a review's product SKU); '' for pages.
CREATE TABLE passages (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind <> ''),
    ref        TEXT NOT NULL CHECK (ref <> ''),
    seq        INTEGER NOT NULL,
    scope      TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL DEFAULT '',
    heading    TEXT NOT NULL DEFAULT '',
    body       TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (kind, ref, seq)
);
CREATE INDEX passages_updated_at ON passages (updated_at);

-- The outbox also carries passage changes (its sku column then holds the
-- source's key, "page:returns"). SQLite cannot change a CHECK in place, so
-- the table is copied.
CREATE TABLE outbox_new (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('product.upsert', 'product.delete', 'passages.change')),
    sku          TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    available_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    created_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO outbox_new SELECT id, kind, sku, attempts, last_error, available_at, created_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_available_idx ON outbox (available_at, id);
