-- Model tokens a customer used today, for the daily token budget: kept on
-- the customer row so checking the budget is one read, not a sum over
-- every message of the day.
ALTER TABLE customers ADD COLUMN tokens_day DATE;
ALTER TABLE customers ADD COLUMN tokens_used INTEGER NOT NULL DEFAULT 0;
