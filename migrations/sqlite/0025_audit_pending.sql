-- An audit entry is written (pending) before the change it records and
-- confirmed after it (catalog.BeginAudit): a crash in between leaves an
-- unconfirmed entry instead of none.
ALTER TABLE audit_log ADD COLUMN pending BOOLEAN NOT NULL DEFAULT 0;
