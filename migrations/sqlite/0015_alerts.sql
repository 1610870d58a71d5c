-- Back-in-stock alerts: one per customer and product, remembering the
-- conversation it was asked from. A stock write that makes the product
-- sellable again moves waiting alerts to 'due' in its own transaction; a
-- worker claims each due alert with a conditional update before sending
-- ('sending' with a lease), so replicas deliver it once.
CREATE TABLE stock_alerts (
    id            INTEGER PRIMARY KEY,
    customer_id   BIGINT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    product_id    BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    channel       TEXT NOT NULL,
    chat_id       TEXT NOT NULL DEFAULT '',
    thread_id     TEXT NOT NULL DEFAULT '',
    locale        TEXT NOT NULL DEFAULT '',
    state         TEXT NOT NULL CHECK (state IN ('waiting', 'due', 'sending', 'sent', 'blocked', 'failed', 'expired')),
    attempts      INTEGER NOT NULL DEFAULT 0,
    last_error    TEXT NOT NULL DEFAULT '',
    created_at    TIMESTAMP NOT NULL,
    expires_at    TIMESTAMP NOT NULL,
    due_at        TIMESTAMP,
    claimed_until TIMESTAMP,
    sent_at       TIMESTAMP,
    UNIQUE (customer_id, product_id)
);
CREATE INDEX stock_alerts_product_idx ON stock_alerts (product_id, state);
CREATE INDEX stock_alerts_state_idx ON stock_alerts (state, id);

-- Merchant order changes: how much of each line and of the total was
-- refunded, and one row per refund (or paid cancellation), unique on the
-- key its admin form carried so a second submit changes nothing.
ALTER TABLE order_items ADD COLUMN refunded_qty INTEGER NOT NULL DEFAULT 0 CHECK (refunded_qty >= 0);
ALTER TABLE orders ADD COLUMN refunded_total BIGINT NOT NULL DEFAULT 0 CHECK (refunded_total >= 0);
CREATE TABLE order_refunds (
    id         INTEGER PRIMARY KEY,
    order_id   BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    form_key   TEXT NOT NULL CHECK (form_key <> ''),
    kind       TEXT NOT NULL CHECK (kind IN ('refund', 'cancel')),
    amount     BIGINT NOT NULL CHECK (amount >= 0),
    lines      TEXT NOT NULL DEFAULT '[]',
    staff      TEXT NOT NULL DEFAULT '',
    note       TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    UNIQUE (order_id, form_key)
);
