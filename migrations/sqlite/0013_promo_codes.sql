-- Promo codes. value is a percent (1..100) or an amount in minor units of
-- currency; 0 in max_uses / per_customer means no limit. uses counts
-- redemptions: an order takes one with a conditional UPDATE (uses <
-- max_uses) in its transaction, and the CHECK backs that up. category_ids
-- is a JSON array; empty means every category.
CREATE TABLE promo_codes (
    id           INTEGER PRIMARY KEY,
    code         TEXT NOT NULL UNIQUE,
    kind         TEXT NOT NULL CHECK (kind IN ('percent', 'fixed')),
    value        BIGINT NOT NULL CHECK (value > 0),
    currency     TEXT NOT NULL,
    min_subtotal BIGINT NOT NULL DEFAULT 0 CHECK (min_subtotal >= 0),
    starts_at    TIMESTAMP,
    ends_at      TIMESTAMP,
    max_uses     INTEGER NOT NULL DEFAULT 0 CHECK (max_uses >= 0),
    per_customer INTEGER NOT NULL DEFAULT 0 CHECK (per_customer >= 0),
    category_ids TEXT NOT NULL DEFAULT '[]',
    uses         INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND (max_uses = 0 OR uses <= max_uses)),
    active       BOOLEAN NOT NULL DEFAULT TRUE,
    created_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- One row per order that used a code: the per-customer count, and the
-- guard against one order redeeming a code twice.
CREATE TABLE promo_redemptions (
    id            INTEGER PRIMARY KEY,
    promo_code_id BIGINT NOT NULL REFERENCES promo_codes (id) ON DELETE CASCADE,
    order_id      BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    customer_id   BIGINT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    discount      BIGINT NOT NULL CHECK (discount >= 0),
    created_at    TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE (promo_code_id, order_id)
);
CREATE INDEX promo_redemptions_customer_idx ON promo_redemptions (promo_code_id, customer_id);

-- The code a cart carries until checkout, and what an order got.
ALTER TABLE carts ADD COLUMN promo_code TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN promo_code TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN discount_cents BIGINT NOT NULL DEFAULT 0 CHECK (discount_cents >= 0);
