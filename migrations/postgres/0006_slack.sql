-- Slack inbox: every event, button press and slash command is stored here
-- before it is acknowledged, so a crash between the ack and the end of its
-- turn loses nothing (Slack does not resend an acknowledged request); the
-- key (event_id, or the trigger_id of an interaction or command) makes a
-- retry a no-op. Unhandled rows resume at start in the order received.
CREATE TABLE slack_inbox (
    event_key   TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    handled_at  TIMESTAMPTZ
);
CREATE INDEX slack_inbox_unhandled ON slack_inbox (received_at, event_key) WHERE handled_at IS NULL;

-- The cart message of each channel thread (or DM), updated in place as the
-- cart changes, by whichever replica handles the turn.
CREATE TABLE slack_carts (
    channel_id  TEXT NOT NULL,
    thread_ts   TEXT NOT NULL,
    message_ts  TEXT NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (channel_id, thread_ts)
);

-- Each adapter now keeps its own inbox (telegram_updates, slack_inbox);
-- the shared list of processed update keys has no user left.
DROP TABLE processed_updates;
