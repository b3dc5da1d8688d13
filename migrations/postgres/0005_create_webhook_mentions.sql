-- 0005_create_webhook_mentions.sql - per-player mentions (issue 24), as
-- SQLite's 0013: the handle a channel pings when the player's seat is to
-- act, one per player and webhook, deleted with its webhook.
CREATE TABLE webhook_mentions (
  webhook_id TEXT COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  player_id  TEXT COLLATE "C" NOT NULL REFERENCES players (id),
  handle     TEXT NOT NULL CHECK (octet_length(handle) BETWEEN 1 AND 64),
  PRIMARY KEY (webhook_id, player_id)
);
