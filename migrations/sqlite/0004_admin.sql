-- The merchant panel: staff users, server-side sessions, settings that
-- take effect without a restart, uploaded product images, and indexes for
-- the panel's lists (products sorted by price, stock or title; tool
-- messages by tool for the dashboard's search statistics).

CREATE TABLE staff_users (
    id            INTEGER PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE CHECK (username <> ''),
    password_hash TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at    TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE staff_sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
    csrf_token   TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    last_seen_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    expires_at   TIMESTAMP NOT NULL
);
CREATE INDEX staff_sessions_user_idx ON staff_sessions (user_id);
CREATE INDEX staff_sessions_expires_idx ON staff_sessions (expires_at);

CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE media (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    content_type TEXT NOT NULL,
    data         BLOB NOT NULL,
    created_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE INDEX products_price_idx ON products (price, id);
CREATE INDEX products_stock_idx ON products (stock, id);
CREATE INDEX products_title_idx ON products (title, id);
CREATE INDEX messages_tool_idx ON messages (tool_name, created_at);
CREATE INDEX conversations_created_idx ON conversations (created_at);
CREATE INDEX orders_created_idx ON orders (created_at, id);
