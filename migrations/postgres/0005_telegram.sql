-- Telegram inbox: every update is stored here before it is acknowledged
-- (webhook 200, getUpdates offset), so a crash between acknowledging and
-- handling loses nothing; update_id as the key makes a redelivery a no-op.
CREATE TABLE telegram_updates (
    update_id   BIGINT PRIMARY KEY,
    chat_id     TEXT NOT NULL,
    payload     TEXT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    handled_at  TIMESTAMPTZ
);
CREATE INDEX telegram_updates_unhandled ON telegram_updates (update_id) WHERE handled_at IS NULL;

-- The cart message of each chat, edited in place as the cart changes.
CREATE TABLE telegram_chats (
    chat_id         TEXT PRIMARY KEY,
    cart_message_id BIGINT NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
