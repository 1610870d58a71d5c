-- Versions: a product row's version counts the writes of its content
-- (admin saves, imports, archive and restore). An admin form carries the
-- version it was loaded at and its save is refused when the row has moved
-- on (catalog.SaveProducts), so a stale page never writes old values back.
-- Stock changed by orders, refunds and cancels does not count: forms never
-- write stock back as a number they read, they send a change applied to
-- the stock as it is (catalog.StockChange).
ALTER TABLE products ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);
