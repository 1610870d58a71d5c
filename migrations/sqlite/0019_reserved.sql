-- Placeholder so that 0020 applies on the demo branch alone (migrations are
-- numbered without gaps). DROP THIS FILE when merging: another branch owns
-- migration 0019.
SELECT 1;
