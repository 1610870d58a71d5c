-- Provenance of the demo shop: a row the demo loaded has demo set, so
-- `shopbot demo remove` (and the panel's banner) deletes exactly what the
-- demo created and never the merchant's own data. A demo product the
-- merchant edited stays a demo product (it is removed too; the banner says
-- so). Whether the demo was loaded or removed is the settings row
-- 'demo_state' ('loaded', 'removed', 'absent'), so an empty shop after
-- removal is not loaded again at the next start.
ALTER TABLE products ADD COLUMN demo BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE reviews ADD COLUMN demo BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE pages ADD COLUMN demo BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE delivery_methods ADD COLUMN demo BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE promo_codes ADD COLUMN demo BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX products_demo_idx ON products (id) WHERE demo;
