-- search_pins: products the merchant pinned for a search query (the
-- search insights page). A search whose normalized text (lower case,
-- spaces collapsed) equals query lists its pinned active products first,
-- in the order they were pinned (catalog/search.Pinned, which both
-- backends go through).
CREATE TABLE search_pins (
    id         INTEGER PRIMARY KEY,
    query      TEXT NOT NULL CHECK (query <> ''),
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE (query, product_id)
);
