-- Staff roles, invitations and the audit log (catalog/staff_roles.go,
-- catalog/staff_invites.go, catalog/audit.go).
--
-- A role per staff user: owner (everything, settings and staff
-- included), manager (catalog, orders, conversations) or agent
-- (conversations; orders read-only). Users from before roles keep what
-- they could do, short of staff and settings: they become managers; the
-- ADMIN_PASSWORD user becomes the owner. A disabled user cannot sign in.
ALTER TABLE staff_users ADD COLUMN role TEXT NOT NULL DEFAULT 'manager'
    CHECK (role IN ('owner', 'manager', 'agent'));
ALTER TABLE staff_users ADD COLUMN disabled_at TIMESTAMP;
UPDATE staff_users SET role = 'owner' WHERE username = 'admin';

-- One-time invitation links: only the SHA-256 of the token is kept; a
-- link is claimed by a conditional update (used_at IS NULL and not
-- expired), so it signs up one person once, across replicas too.
CREATE TABLE staff_invites (
    id          INTEGER PRIMARY KEY,
    token_hash  TEXT NOT NULL UNIQUE,
    role        TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'agent')),
    created_by  BIGINT REFERENCES staff_users (id) ON DELETE SET NULL,
    created_at  TIMESTAMP NOT NULL,
    expires_at  TIMESTAMP NOT NULL,
    used_at     TIMESTAMP,
    used_by     BIGINT REFERENCES staff_users (id) ON DELETE SET NULL
);

-- Who changed what in the panel. The user's name is copied so an entry
-- outlives the user.
CREATE TABLE audit_log (
    id        INTEGER PRIMARY KEY,
    at        TIMESTAMP NOT NULL,
    user_id   BIGINT,
    username  TEXT NOT NULL,
    action    TEXT NOT NULL,
    subject   TEXT NOT NULL DEFAULT '',
    detail    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_at_idx ON audit_log (at, id);
