-- 0007_create_webhook_outbox.sql - webhook deliveries still owed.
--
-- api/deliver.c retries a failed delivery with backoff. The retries lived
-- only in memory, so a restart (a deploy, a crash) dropped every one still
-- waiting, and a bot relaying turns to a chat room would never hear of
-- that turn. A delivery is written here when it is queued, moved on after
-- each failed attempt, and deleted once delivered or given up; a server
-- starting up queues again whatever it finds. delivery_id is the
-- X-Cairn-Delivery value, the same for every attempt, so a receiver can
-- tell a retry from a new event.
CREATE TABLE webhook_outbox (
  delivery_id TEXT PRIMARY KEY NOT NULL CHECK (length(delivery_id) = 16),
  webhook_id  TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event       TEXT NOT NULL,
  game_id     TEXT NOT NULL,
  body        TEXT NOT NULL,
  attempt     INTEGER NOT NULL CHECK (attempt >= 1),
  due_ms      INTEGER NOT NULL
) STRICT;
