-- Reviews as a source: a title, a hidden flag the merchant sets (a hidden
-- review is neither searched nor quoted), and the key an import gives a
-- row so that importing the same file again changes nothing. NULL keys
-- (reviews written by the shop itself) never collide.
ALTER TABLE reviews ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE reviews ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE reviews ADD COLUMN import_key TEXT;
CREATE UNIQUE INDEX reviews_import_key ON reviews (product_id, import_key);

-- Each visible review is one passage of kind 'review' (ref: the review's
-- id, scope: the product's SKU), kept in step by the catalog from now on;
-- the reviews stored before get theirs here, and an outbox event each for
-- an index fed by the outbox.
INSERT INTO passages (kind, ref, seq, scope, title, heading, body, updated_at)
SELECT 'review', r.id::text, 0, p.sku, r.title, '', r.body, now()
FROM reviews r JOIN products p ON p.id = r.product_id
WHERE NOT r.hidden AND r.body <> '';
INSERT INTO outbox (kind, sku)
SELECT 'passages.change', 'review:' || r.id::text
FROM reviews r WHERE NOT r.hidden AND r.body <> '';
