-- 0003_claims.sql - webhook deliveries claimed by one node at a time (issue 23).
--
-- With several nodes on one database, an owed delivery is sent by the node
-- that holds its lease: claimed_by is that node's id (random, drawn when the
-- node starts), claimed_until the real time (ms since the epoch) the lease
-- runs to. The node that commits a change writes the rows it owes already
-- claimed by itself, renews the leases of what it holds every few seconds,
-- and releases them when it stops; every node claims, with FOR UPDATE SKIP
-- LOCKED, the rows whose lease ran out (a dead node's work) or was released
-- (claimed_until 0). Rows written before this migration are unclaimed.
ALTER TABLE webhook_outbox ADD COLUMN claimed_by TEXT COLLATE "C";
ALTER TABLE webhook_outbox ADD COLUMN claimed_until BIGINT NOT NULL DEFAULT 0;
