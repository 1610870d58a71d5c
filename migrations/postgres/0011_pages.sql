-- Shop pages: Markdown the merchant writes (returns, shipping, payment,
-- warranty, contact, about...), addressed by slug.
CREATE TABLE pages (
    id         BIGSERIAL PRIMARY KEY,
    slug       TEXT NOT NULL UNIQUE CHECK (slug <> ''),
    title      TEXT NOT NULL CHECK (title <> ''),
    body       TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Passages: the searchable pieces of longer texts, each a chunk of a
-- source (kind 'page': ref is the page's slug; reviews come next). A
-- source's passages are replaced together in the transaction that changes
-- it and share its updated_at, which the embedded search index follows.
-- scope narrows a search (a review's product SKU); '' for pages.
CREATE TABLE passages (
    id         BIGSERIAL PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind <> ''),
    ref        TEXT NOT NULL CHECK (ref <> ''),
    seq        INTEGER NOT NULL,
    scope      TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL DEFAULT '',
    heading    TEXT NOT NULL DEFAULT '',
    body       TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    UNIQUE (kind, ref, seq)
);
CREATE INDEX passages_updated_at ON passages (updated_at);

-- The outbox also carries passage changes (its sku column then holds the
-- source's key, "page:returns").
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check
    CHECK (kind IN ('product.upsert', 'product.delete', 'passages.change'));
