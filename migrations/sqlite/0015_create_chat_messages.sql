-- 0015_create_chat_messages.sql - a game's chat (issue 25): two channels,
-- the seated players' (channel 0) and the spectators' (channel 1). Each
-- channel numbers its messages 1, 2, ... on its own (n), so what one
-- channel's readers see says nothing of the other's traffic. A message is
-- never removed: deleting it keeps the row as a tombstone (text emptied,
-- deleted_ms set). Chat is not part of the game's log: no row here is
-- hashed into the chain or replayed.
CREATE TABLE chat_messages (
  id          TEXT PRIMARY KEY NOT NULL,
  game_id     TEXT NOT NULL REFERENCES games (id),
  channel     INTEGER NOT NULL CHECK (channel IN (0, 1)),
  n           INTEGER NOT NULL CHECK (n >= 1),
  author      TEXT NOT NULL REFERENCES players (id),
  author_name TEXT NOT NULL,
  text        TEXT NOT NULL,
  at_ms       INTEGER NOT NULL,
  deleted_ms  INTEGER NOT NULL DEFAULT 0,
  UNIQUE (game_id, channel, n)
) STRICT;
