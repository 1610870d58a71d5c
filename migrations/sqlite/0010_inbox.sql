-- One inbox for every chat adapter (adapters/inbox). Every update,
-- event, button press and slash command is stored here before it is
-- acknowledged, so a crash between the ack and the end of its turn loses
-- nothing; (source, key) makes a redelivery a no-op. Unhandled rows resume
-- at start, oldest first; handled ones are pruned after a week.
CREATE TABLE inbox (
    source      TEXT NOT NULL,
    key         TEXT NOT NULL,
    chat        TEXT NOT NULL DEFAULT '',
    kind        TEXT NOT NULL DEFAULT '',
    payload     TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    handled_at  TIMESTAMP,
    PRIMARY KEY (source, key)
);
CREATE INDEX inbox_unhandled ON inbox (source, received_at, key) WHERE handled_at IS NULL;

-- The cart message of each chat (and thread, where the platform has
-- them), edited in place as the cart changes, by whichever replica handles
-- the turn. message_id is the platform's id as text (a Telegram message
-- id, a Slack ts).
CREATE TABLE cart_messages (
    source     TEXT NOT NULL,
    chat       TEXT NOT NULL,
    thread     TEXT NOT NULL DEFAULT '',
    message_id TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (source, chat, thread)
);

-- The adapters' own tables, copied so that an update acknowledged before
-- the upgrade is still resumed after it, and a cart message still edited.
INSERT INTO inbox (source, key, chat, kind, payload, received_at, handled_at)
SELECT 'telegram', CAST(update_id AS TEXT), chat_id, 'update', payload, received_at, handled_at FROM telegram_updates;
INSERT INTO inbox (source, key, chat, kind, payload, received_at, handled_at)
SELECT 'slack', event_key, '', kind, payload, received_at, handled_at FROM slack_inbox;
INSERT INTO cart_messages (source, chat, thread, message_id, updated_at)
SELECT 'telegram', chat_id, '', CAST(cart_message_id AS TEXT), updated_at FROM telegram_chats;
INSERT INTO cart_messages (source, chat, thread, message_id, updated_at)
SELECT 'slack', channel_id, thread_ts, message_ts, updated_at FROM slack_carts;

DROP TABLE telegram_updates;
DROP TABLE telegram_chats;
DROP TABLE slack_inbox;
DROP TABLE slack_carts;
