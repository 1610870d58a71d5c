-- The team's measures and round-robin assignment (catalog/team_*.go,
-- catalog/support_cases.go, catalog/csat.go).
--
-- Round robin: assignment_counter is one row whose update serializes the
-- assigners of every replica (a row lock on Postgres, the write lock on
-- SQLite); assignment_turns keeps, per staff member, the counter value of
-- their last automatic assignment: the next one goes to the online member
-- who waited longest (never assigned first).
CREATE TABLE assignment_counter (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    turn BIGINT NOT NULL
);
INSERT INTO assignment_counter (id, turn) VALUES (1, 0);
CREATE TABLE assignment_turns (
    user_id   BIGINT PRIMARY KEY REFERENCES staff_users (id) ON DELETE CASCADE,
    last_turn BIGINT NOT NULL
);
-- Online: a session used (last_seen_at) or with the live inbox stream
-- open (heartbeat_at, which does not extend the idle timeout) lately.
ALTER TABLE staff_sessions ADD COLUMN heartbeat_at TIMESTAMP;

-- A support case: one stretch of a conversation needing the team, from
-- the shopper's message that needed a person (request_human, or a
-- message in a taken-over conversation) to its resolution. At most one
-- open case per conversation. Durations are kept in seconds, so the
-- measures are SQL aggregates.
CREATE TABLE support_cases (
    id               INTEGER PRIMARY KEY,
    conversation_id  BIGINT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    opened_at        TIMESTAMP NOT NULL,
    first_reply_at   TIMESTAMP,
    first_reply_by   BIGINT REFERENCES staff_users (id) ON DELETE SET NULL,
    first_reply_secs BIGINT CHECK (first_reply_secs >= 0),
    resolved_at      TIMESTAMP,
    resolved_by      BIGINT REFERENCES staff_users (id) ON DELETE SET NULL,
    agent_id         BIGINT REFERENCES staff_users (id) ON DELETE SET NULL,
    resolution_secs  BIGINT CHECK (resolution_secs >= 0)
);
CREATE UNIQUE INDEX support_cases_open_idx ON support_cases (conversation_id) WHERE resolved_at IS NULL;
CREATE INDEX support_cases_reply_idx ON support_cases (first_reply_at) WHERE first_reply_at IS NOT NULL;
CREATE INDEX support_cases_resolved_idx ON support_cases (resolved_at) WHERE resolved_at IS NOT NULL;

-- A shopper's message in a taken-over conversation needs a person: it
-- opens a case (if none is open), whichever code path stores it.
CREATE TRIGGER messages_support_case AFTER INSERT ON messages FOR EACH ROW WHEN NEW.role = 'user' BEGIN INSERT OR IGNORE INTO support_cases (conversation_id, opened_at) SELECT c.id, NEW.created_at FROM conversations AS c WHERE c.id = NEW.conversation_id AND c.paused; END;

-- CSAT: the shopper's 1-5 rating after a resolution, once per
-- conversation (the first answer stays), with the staff member it rates.
ALTER TABLE conversations ADD COLUMN csat_asked_at TIMESTAMP;
ALTER TABLE conversations ADD COLUMN csat_rating SMALLINT CHECK (csat_rating BETWEEN 1 AND 5);
ALTER TABLE conversations ADD COLUMN csat_at TIMESTAMP;
ALTER TABLE conversations ADD COLUMN csat_agent_id BIGINT REFERENCES staff_users (id) ON DELETE SET NULL;
CREATE INDEX conversations_csat_idx ON conversations (csat_at) WHERE csat_at IS NOT NULL;
