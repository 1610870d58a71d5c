-- Delivery methods the merchant defines (admin → Settings → Delivery).
-- countries is "any" or a comma-separated list of ISO 3166-1 alpha-2
-- codes; free_over is the subtotal (minor units, shop currency) from which
-- the method costs nothing, 0 for never; a pickup method fits every
-- address. Names are unique so the shopper (and the model) can choose a
-- method by name.
CREATE TABLE delivery_methods (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    price      BIGINT NOT NULL DEFAULT 0 CHECK (price >= 0),
    free_over  BIGINT NOT NULL DEFAULT 0 CHECK (free_over >= 0),
    countries  TEXT NOT NULL DEFAULT 'any',
    days_min   INTEGER NOT NULL DEFAULT 0 CHECK (days_min >= 0),
    days_max   INTEGER NOT NULL DEFAULT 0 CHECK (days_max >= days_min),
    pickup     BOOLEAN NOT NULL DEFAULT FALSE,
    active     BOOLEAN NOT NULL DEFAULT TRUE,
    position   INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX delivery_methods_name ON delivery_methods (lower(name));

-- The order keeps the method's name and the price charged for it; the
-- order's total includes that price.
ALTER TABLE orders ADD COLUMN delivery_method TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN delivery_cents BIGINT NOT NULL DEFAULT 0;
