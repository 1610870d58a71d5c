-- Placeholder so that 0021 applies on the feedsync branch alone (migrations are
-- numbered without gaps). DROP THIS FILE when merging: another branch owns
-- migration 0019.
SELECT 1;
