-- 0013_create_webhook_mentions.sql - per-player mentions (issue 24): a
-- player seated in the game a webhook follows may register the handle the
-- channel should ping when that player's seat is to act (api/webhooks.c
-- checks the handle's shape for the hook's format). One per player and
-- hook; it goes with its webhook.
CREATE TABLE webhook_mentions (
  webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  player_id  TEXT NOT NULL REFERENCES players (id),
  handle     TEXT NOT NULL CHECK (length(CAST(handle AS BLOB)) BETWEEN 1 AND 64),
  PRIMARY KEY (webhook_id, player_id)
) STRICT;
