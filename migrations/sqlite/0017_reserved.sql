-- Placeholder: 0017 is reserved for another branch. Delete this file when
-- that branch's 0017 is merged (branch stale only needs 0018).
SELECT 1;
