-- The live panel (catalog/live): every change an open inbox or transcript
-- must show is a row here, written by triggers in the transaction that
-- makes the change, whichever replica or code path makes it. Panels read
-- the rows after the last id they showed; on Postgres the trigger also
-- NOTIFYs shopbot_inbox so they read at once, SQLite panels poll. Rows
-- older than a day are pruned.
CREATE TABLE inbox_events (
    id              BIGSERIAL PRIMARY KEY,
    conversation_id BIGINT NOT NULL,
    kind            TEXT NOT NULL,
    at              TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX inbox_events_at_idx ON inbox_events (at);

CREATE FUNCTION inbox_event() RETURNS trigger AS $$ BEGIN INSERT INTO inbox_events (conversation_id, kind) VALUES (NEW.conversation_id, TG_ARGV[0]); PERFORM pg_notify('shopbot_inbox', ''); RETURN NEW; END $$ LANGUAGE plpgsql;
CREATE FUNCTION inbox_event_conversation() RETURNS trigger AS $$ BEGIN INSERT INTO inbox_events (conversation_id, kind) VALUES (NEW.id, 'state'); PERFORM pg_notify('shopbot_inbox', ''); RETURN NEW; END $$ LANGUAGE plpgsql;
CREATE TRIGGER messages_inbox_event AFTER INSERT ON messages FOR EACH ROW WHEN (NEW.role IN ('user', 'assistant', 'merchant')) EXECUTE FUNCTION inbox_event('message');
CREATE TRIGGER notes_inbox_event AFTER INSERT ON conversation_notes FOR EACH ROW EXECUTE FUNCTION inbox_event('note');
CREATE TRIGGER conversations_inbox_event AFTER UPDATE ON conversations FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.assignee_id IS DISTINCT FROM NEW.assignee_id OR OLD.needs_human IS DISTINCT FROM NEW.needs_human OR OLD.paused IS DISTINCT FROM NEW.paused) EXECUTE FUNCTION inbox_event_conversation();
