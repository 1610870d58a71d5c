-- A product's regular price when it is on sale (catalog.Product.CompareAt):
-- the price it is compared at, above the price it sells for; 0 when it is
-- not on sale. Imports fill it from a shop export's compare-at or regular
-- price; the catalog feeds publish it as the price and the selling price
-- as the sale price.
ALTER TABLE products ADD COLUMN compare_at_price BIGINT NOT NULL DEFAULT 0 CHECK (compare_at_price >= 0);
