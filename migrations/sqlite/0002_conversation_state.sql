-- The engine's per-conversation memory: the products last shown ("the
-- second one"), the product in focus, and a checkout in progress.
ALTER TABLE conversations ADD COLUMN state TEXT NOT NULL DEFAULT '{}';
