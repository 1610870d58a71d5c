-- The inbox's label filter (catalog/workflow_inbox.go) walks a label's
-- conversations newest first: each label row carries its conversation's
-- last_message_at, kept equal by triggers, and an index in that order
-- serves a page without visiting the conversations of other labels.
ALTER TABLE conversation_labels ADD COLUMN last_message_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP;
UPDATE conversation_labels SET last_message_at = (SELECT c.last_message_at FROM conversations AS c WHERE c.id = conversation_labels.conversation_id);
CREATE INDEX conversation_labels_recent_idx ON conversation_labels (label, last_message_at DESC, conversation_id DESC);

-- A new label takes its conversation's time (SQLite has one writer: no
-- message can be stored in between).
CREATE TRIGGER conversation_labels_time AFTER INSERT ON conversation_labels FOR EACH ROW BEGIN UPDATE conversation_labels SET last_message_at = (SELECT c.last_message_at FROM conversations AS c WHERE c.id = NEW.conversation_id) WHERE conversation_id = NEW.conversation_id AND label = NEW.label; END;

CREATE TRIGGER conversations_labels_follow AFTER UPDATE OF last_message_at ON conversations FOR EACH ROW WHEN OLD.last_message_at IS NOT NEW.last_message_at BEGIN UPDATE conversation_labels SET last_message_at = NEW.last_message_at WHERE conversation_id = NEW.id; END;
