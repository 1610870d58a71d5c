-- Shopbot schema, version 1: the catalog, customers, carts, orders,
-- conversations, de-duplication of platform updates and the search outbox.

CREATE TABLE categories (
    id         INTEGER PRIMARY KEY,
    parent_id  BIGINT REFERENCES categories (id) ON DELETE RESTRICT,
    name       TEXT NOT NULL CHECK (name <> ''),
    path       TEXT NOT NULL UNIQUE,
    position   INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX categories_parent_idx ON categories (parent_id);

CREATE TABLE products (
    id           INTEGER PRIMARY KEY,
    sku          TEXT NOT NULL UNIQUE CHECK (sku <> ''),
    title        TEXT NOT NULL CHECK (title <> ''),
    description  TEXT NOT NULL DEFAULT '',
    brand        TEXT NOT NULL DEFAULT '',
    category_id  BIGINT REFERENCES categories (id) ON DELETE SET NULL,
    attributes   TEXT NOT NULL DEFAULT '{}',
    price        BIGINT NOT NULL CHECK (price >= 0),
    currency     TEXT NOT NULL,
    stock        INTEGER NOT NULL CHECK (stock >= 0),
    active       INTEGER NOT NULL DEFAULT 1,
    image_urls   TEXT NOT NULL DEFAULT '[]',
    rating_avg   REAL NOT NULL DEFAULT 0 CHECK (rating_avg >= 0 AND rating_avg <= 5),
    rating_count INTEGER NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
    sold_count   INTEGER NOT NULL DEFAULT 0 CHECK (sold_count >= 0),
    created_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX products_category_idx ON products (category_id);
CREATE INDEX products_updated_idx ON products (updated_at);

CREATE TABLE customers (
    id               INTEGER PRIMARY KEY,
    channel          TEXT NOT NULL,
    platform_user_id TEXT NOT NULL,
    display_name     TEXT NOT NULL DEFAULT '',
    username         TEXT NOT NULL DEFAULT '',
    locale           TEXT NOT NULL DEFAULT '',
    contact_name     TEXT NOT NULL DEFAULT '',
    phone            TEXT NOT NULL DEFAULT '',
    email            TEXT NOT NULL DEFAULT '',
    address          TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at       TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE (channel, platform_user_id)
);

CREATE TABLE reviews (
    id          INTEGER PRIMARY KEY,
    product_id  BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    customer_id BIGINT REFERENCES customers (id) ON DELETE SET NULL,
    author      TEXT NOT NULL DEFAULT '',
    rating      SMALLINT NOT NULL CHECK (rating BETWEEN 1 AND 5),
    body        TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX reviews_product_idx ON reviews (product_id);

CREATE TABLE carts (
    id          INTEGER PRIMARY KEY,
    scope       TEXT NOT NULL UNIQUE,
    channel     TEXT NOT NULL DEFAULT '',
    chat_id     TEXT NOT NULL DEFAULT '',
    customer_id BIGINT REFERENCES customers (id) ON DELETE CASCADE,
    created_at  TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at  TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE cart_items (
    id         INTEGER PRIMARY KEY,
    cart_id    BIGINT NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    product_id BIGINT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    added_by   BIGINT REFERENCES customers (id) ON DELETE SET NULL,
    added_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE (cart_id, product_id)
);

CREATE TABLE orders (
    id                INTEGER PRIMARY KEY,
    number            TEXT NOT NULL UNIQUE,
    idempotency_key   TEXT NOT NULL UNIQUE,
    customer_id       BIGINT NOT NULL REFERENCES customers (id) ON DELETE RESTRICT,
    cart_scope        TEXT NOT NULL,
    channel           TEXT NOT NULL,
    chat_id           TEXT NOT NULL DEFAULT '',
    thread_id         TEXT NOT NULL DEFAULT '',
    status            TEXT NOT NULL CHECK (status IN ('new', 'paid', 'shipped', 'delivered', 'cancelled')),
    currency          TEXT NOT NULL,
    total             BIGINT NOT NULL CHECK (total >= 0),
    contact_name      TEXT NOT NULL DEFAULT '',
    phone             TEXT NOT NULL DEFAULT '',
    email             TEXT NOT NULL DEFAULT '',
    shipping_address  TEXT NOT NULL DEFAULT '',
    note              TEXT NOT NULL DEFAULT '',
    tracking_note     TEXT NOT NULL DEFAULT '',
    payment_provider  TEXT NOT NULL DEFAULT '',
    payment_charge_id TEXT UNIQUE,
    created_at        TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at        TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    paid_at           TIMESTAMP,
    shipped_at        TIMESTAMP,
    delivered_at      TIMESTAMP,
    cancelled_at      TIMESTAMP
);
CREATE INDEX orders_customer_idx ON orders (customer_id, created_at);
CREATE INDEX orders_status_idx ON orders (status, created_at);

CREATE TABLE order_items (
    id         INTEGER PRIMARY KEY,
    order_id   BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    product_id BIGINT REFERENCES products (id) ON DELETE SET NULL,
    sku        TEXT NOT NULL,
    title      TEXT NOT NULL,
    unit_price BIGINT NOT NULL CHECK (unit_price >= 0),
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    added_by   BIGINT REFERENCES customers (id) ON DELETE SET NULL
);
CREATE INDEX order_items_order_idx ON order_items (order_id);
CREATE INDEX order_items_product_idx ON order_items (product_id);

CREATE TABLE conversations (
    id                 INTEGER PRIMARY KEY,
    channel            TEXT NOT NULL,
    chat_id            TEXT NOT NULL,
    thread_id          TEXT NOT NULL DEFAULT '',
    customer_id        BIGINT REFERENCES customers (id) ON DELETE SET NULL,
    paused             INTEGER NOT NULL DEFAULT 0,
    needs_human        INTEGER NOT NULL DEFAULT 0,
    needs_human_reason TEXT NOT NULL DEFAULT '',
    last_message_at    TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    last_read_at       TIMESTAMP,
    created_at         TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    UNIQUE (channel, chat_id, thread_id)
);
CREATE INDEX conversations_last_message_idx ON conversations (last_message_at);

CREATE TABLE messages (
    id                INTEGER PRIMARY KEY,
    conversation_id   BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    role              TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool', 'merchant')),
    content           TEXT NOT NULL DEFAULT '',
    tool_calls        TEXT,
    tool_call_id      TEXT NOT NULL DEFAULT '',
    tool_name         TEXT NOT NULL DEFAULT '',
    tool_error        INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    model             TEXT NOT NULL DEFAULT '',
    latency_ms        INTEGER NOT NULL DEFAULT 0,
    created_at        TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX messages_conversation_idx ON messages (conversation_id, id);

CREATE TABLE processed_updates (
    channel     TEXT NOT NULL,
    update_key  TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (channel, update_key)
);

CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('product.upsert', 'product.delete')),
    sku          TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    available_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    created_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX outbox_available_idx ON outbox (available_at, id);
