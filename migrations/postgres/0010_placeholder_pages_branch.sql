-- PLACEHOLDER on the pages branch only: another branch owns migration
-- 0010 and the migrator requires consecutive numbers. Delete this file when
-- merging that branch's 0010.
SELECT 1;
