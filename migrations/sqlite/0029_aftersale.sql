-- After-sale self-service (issue 30). orders.revision grows with every
-- change of an order's lines, refunds or returns (catalog/order_edits.go,
-- returns.go, order_changes.go): a change updates the order conditional
-- on the revision it read, so of two racing changes one applies and the
-- other finds it changed and fails or starts again.
--
-- order_returns is a shopper's request to send back (return) or swap
-- (exchange) units of a delivered order, with its own status: requested →
-- approved | rejected; approved → received; received → refunded |
-- exchanged. request_key is the chat turn that asked for it, unique per
-- order, so the same request again changes nothing.
ALTER TABLE orders ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
CREATE TABLE order_returns (
    id          INTEGER PRIMARY KEY,
    order_id    BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    request_key TEXT NOT NULL CHECK (request_key <> ''),
    kind        TEXT NOT NULL CHECK (kind IN ('return', 'exchange')),
    reason      TEXT NOT NULL CHECK (reason <> ''),
    lines       TEXT NOT NULL DEFAULT '[]',
    status      TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'rejected', 'received', 'refunded', 'exchanged')),
    staff       TEXT NOT NULL DEFAULT '',
    note        TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL,
    UNIQUE (order_id, request_key)
);
CREATE INDEX order_returns_status_idx ON order_returns (status, id);
