-- The team's conversation workflow (catalog/workflow.go): a state (open,
-- pending, snoozed until a time, resolved), the staff member it is
-- assigned to, private notes (a table of their own: nothing that reads
-- messages, the model's history and every channel included, can see
-- them), labels and canned replies.
ALTER TABLE conversations ADD COLUMN status TEXT NOT NULL DEFAULT 'open'
    CHECK (status IN ('open', 'pending', 'snoozed', 'resolved'));
ALTER TABLE conversations ADD COLUMN snoozed_until TIMESTAMP;
ALTER TABLE conversations ADD COLUMN assignee_id BIGINT REFERENCES staff_users (id) ON DELETE SET NULL;
CREATE INDEX conversations_assignee_idx ON conversations (assignee_id, last_message_at, id);
CREATE INDEX conversations_status_idx ON conversations (status, last_message_at, id);

-- A shopper's new message reopens a resolved or snoozed conversation, in
-- the transaction that stores it, whichever code path stores it.
CREATE TRIGGER messages_reopen AFTER INSERT ON messages FOR EACH ROW WHEN NEW.role = 'user' BEGIN UPDATE conversations SET status = 'open', snoozed_until = NULL WHERE id = NEW.conversation_id AND status IN ('resolved', 'snoozed'); END;

CREATE TABLE conversation_notes (
    id              INTEGER PRIMARY KEY,
    conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    author_id       BIGINT REFERENCES staff_users (id) ON DELETE SET NULL,
    author          TEXT NOT NULL,
    body            TEXT NOT NULL CHECK (body <> ''),
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX conversation_notes_conv_idx ON conversation_notes (conversation_id, id);

CREATE TABLE conversation_labels (
    conversation_id BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    label           TEXT NOT NULL CHECK (label <> ''),
    PRIMARY KEY (conversation_id, label)
);
CREATE INDEX conversation_labels_label_idx ON conversation_labels (label, conversation_id);

CREATE TABLE canned_replies (
    id         INTEGER PRIMARY KEY,
    shortcut   TEXT NOT NULL UNIQUE CHECK (shortcut <> ''),
    body       TEXT NOT NULL CHECK (body <> ''),
    updated_at TIMESTAMP NOT NULL
);
