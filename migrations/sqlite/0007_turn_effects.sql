-- The effects journal: one row per side effect of a turn (a cart change,
-- an order, a saved contact, a handoff), written in the same transaction
-- as the effect. turn_key is the conversation and the turn's dedup key
-- (web Idempotency-Key, Telegram update id, Slack event id); effect_key is
-- the effect's kind, its canonical arguments and its occurrence in the
-- turn. A turn run again after a crash finds its effects here and skips
-- them, so nothing is applied twice. An effect that tells the merchant
-- (an order, a handoff) keeps its notice here, written with the effect and
-- claimed (notified_at) when it is delivered after the commit, so a crash
-- between the two delivers it on the retry instead of losing it. Rows are
-- pruned after a few days.
CREATE TABLE turn_effects (
    turn_key   TEXT NOT NULL,
    effect_key TEXT NOT NULL,
    notice     TEXT,
    notified_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (turn_key, effect_key)
);
CREATE INDEX turn_effects_created ON turn_effects (created_at);
