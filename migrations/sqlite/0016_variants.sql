-- Variants: a product may have up to three option names (size, colour,
-- material) and variants, each a product row of its own (SKU, price,
-- stock, image) with parent_id set and its option values in options. A
-- parent's stock, sold count and price range roll up from its active
-- variants in the transaction that changed them (catalog/variants.go), so
-- lists, search and cards read a parent like any product. An order line
-- keeps the option values it was sold with.
ALTER TABLE products ADD COLUMN parent_id BIGINT REFERENCES products (id) ON DELETE CASCADE;
ALTER TABLE products ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
ALTER TABLE products ADD COLUMN option_names TEXT NOT NULL DEFAULT '[]';
ALTER TABLE products ADD COLUMN variant_count INTEGER NOT NULL DEFAULT 0 CHECK (variant_count >= 0);
ALTER TABLE products ADD COLUMN price_max BIGINT NOT NULL DEFAULT 0 CHECK (price_max >= 0);
CREATE INDEX products_parent_idx ON products (parent_id) WHERE parent_id IS NOT NULL;
ALTER TABLE order_items ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
