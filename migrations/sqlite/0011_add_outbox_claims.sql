-- 0011_add_outbox_claims.sql - the lease of an owed webhook delivery
-- (issue 23), the same columns as PostgreSQL's 0003 so one slot contract
-- (db.h: outbox_claim, outbox_renew, outbox_release) serves both backends.
--
-- claimed_by is the id of the node (process) sending the delivery,
-- claimed_until the real time (ms since the epoch) its lease runs to; 0 is
-- unclaimed. A SQLite store has one process, which releases every lease
-- when it opens the file (any lease found then was a dead process's), so
-- here the columns only keep the one contract.
ALTER TABLE webhook_outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE webhook_outbox ADD COLUMN claimed_until INTEGER NOT NULL DEFAULT 0;
