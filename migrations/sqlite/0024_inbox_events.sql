-- The live panel (catalog/live): every change an open inbox or transcript
-- must show is a row here, written by triggers in the transaction that
-- makes the change, whichever process or code path makes it. Panels read
-- the rows after the last id they showed (SQLite panels poll; Postgres
-- ones are woken by NOTIFY). Rows older than a day are pruned.
CREATE TABLE inbox_events (
    id              INTEGER PRIMARY KEY,
    conversation_id BIGINT NOT NULL,
    kind            TEXT NOT NULL,
    at              TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX inbox_events_at_idx ON inbox_events (at);

CREATE TRIGGER messages_inbox_event AFTER INSERT ON messages FOR EACH ROW WHEN NEW.role IN ('user', 'assistant', 'merchant') BEGIN INSERT INTO inbox_events (conversation_id, kind) VALUES (NEW.conversation_id, 'message'); END;
CREATE TRIGGER notes_inbox_event AFTER INSERT ON conversation_notes FOR EACH ROW BEGIN INSERT INTO inbox_events (conversation_id, kind) VALUES (NEW.conversation_id, 'note'); END;
CREATE TRIGGER conversations_inbox_event AFTER UPDATE ON conversations FOR EACH ROW WHEN OLD.status IS NOT NEW.status OR OLD.assignee_id IS NOT NEW.assignee_id OR OLD.needs_human IS NOT NEW.needs_human OR OLD.paused IS NOT NEW.paused BEGIN INSERT INTO inbox_events (conversation_id, kind) VALUES (NEW.id, 'state'); END;
