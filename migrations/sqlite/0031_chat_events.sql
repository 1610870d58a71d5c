-- chat_events: what a shopper on a channel without a transcript of its
-- own (the web chat widget) was shown, as the adapter's structured
-- events (text, product cards, buttons, the picker, the cart, the order,
-- notices), so a reloaded page or a second tab draws the conversation
-- again, and a reconnecting live stream resumes after the last id it saw.
-- Payload is the adapter's JSON, opaque to the catalog. Old rows are pruned.
CREATE TABLE chat_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    channel    TEXT NOT NULL,
    chat       TEXT NOT NULL,
    kind       TEXT NOT NULL,
    payload    TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX chat_events_chat ON chat_events (channel, chat, id);
CREATE INDEX chat_events_created ON chat_events (created_at);
