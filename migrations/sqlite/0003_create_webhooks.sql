-- 0003_create_webhooks.sql - outgoing notifications for chat bots.
--
-- A webhook belongs to a player. With game_id NULL it fires for every game
-- the owner is seated in, when the owner must act and when such a game
-- starts or ends; with a game_id it fires for that game whoever must act
-- (a chat channel following one game). The secret signs every delivery
-- (HMAC-SHA256), so it is kept as is: it is the owner's to verify with.
CREATE TABLE webhooks (
  id         TEXT PRIMARY KEY NOT NULL CHECK (length(CAST(id AS BLOB)) BETWEEN 1 AND 32),
  owner      TEXT NOT NULL REFERENCES players (id),
  game_id    TEXT REFERENCES games (id),
  url        TEXT NOT NULL CHECK (length(CAST(url AS BLOB)) BETWEEN 1 AND 2048),
  format     TEXT NOT NULL CHECK (format IN ('discord', 'slack', 'matrix', 'json')),
  mention    TEXT NOT NULL DEFAULT '' CHECK (length(CAST(mention AS BLOB)) <= 128),
  secret     BLOB NOT NULL CHECK (length(secret) = 32),
  created_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX webhooks_by_owner ON webhooks (owner);
CREATE INDEX webhooks_by_game ON webhooks (game_id);

-- One row per delivery attempt: what the owner reads to debug a bot.
CREATE TABLE deliveries (
  id          INTEGER PRIMARY KEY,
  webhook_id  TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event       TEXT NOT NULL,
  game_id     TEXT NOT NULL,
  attempt     INTEGER NOT NULL CHECK (attempt >= 1),
  at_ms       INTEGER NOT NULL,
  http_status INTEGER,
  error       TEXT,
  delivered   INTEGER NOT NULL CHECK (delivered IN (0, 1))
) STRICT;
CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id, id);
