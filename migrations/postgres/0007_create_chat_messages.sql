-- 0007_create_chat_messages.sql - a game's chat (issue 25), as SQLite's
-- 0015: two channels (0 the seated players', 1 the spectators'), each
-- numbering its messages on its own; a deleted message stays as a
-- tombstone. Not part of the game's log or its chain.
CREATE TABLE chat_messages (
  id          TEXT COLLATE "C" PRIMARY KEY,
  game_id     TEXT COLLATE "C" NOT NULL REFERENCES games (id),
  channel     INTEGER NOT NULL CHECK (channel IN (0, 1)),
  n           INTEGER NOT NULL CHECK (n >= 1),
  author      TEXT COLLATE "C" NOT NULL REFERENCES players (id),
  author_name TEXT NOT NULL,
  text        TEXT NOT NULL,
  at_ms       BIGINT NOT NULL,
  deleted_ms  BIGINT NOT NULL DEFAULT 0,
  UNIQUE (game_id, channel, n)
);
