-- 0015_create_chat_and_ratings.sql - a game's chat and the players' ratings
-- (issue 25). Chat: two channels,
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

-- Ratings (docs/ratings.md): one row per title and rated party, a player
-- id or a solo scenario's pseudo-player ("scenario:<title>:<name>", so no
-- key to players). Written by the append that ends a rated game, in its
-- transaction; ordinal (mu - 3 sigma) is kept for the leaderboard's order.
CREATE TABLE ratings (
  title      TEXT NOT NULL,
  player     TEXT NOT NULL,
  mu         REAL NOT NULL,
  sigma      REAL NOT NULL,
  ordinal    REAL NOT NULL,
  games      INTEGER NOT NULL,
  wins       INTEGER NOT NULL,
  draws      INTEGER NOT NULL,
  losses     INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (title, player)
) STRICT;
CREATE INDEX ratings_leaderboard ON ratings (title, ordinal DESC, player);
CREATE INDEX ratings_by_player ON ratings (player);

-- The rated games in the order their ends committed (ord): what
-- `cairn ratings-recompute` replays.
CREATE TABLE rated_games (
  ord     INTEGER PRIMARY KEY,
  game_id TEXT NOT NULL UNIQUE REFERENCES games (id),
  at_ms   INTEGER NOT NULL
) STRICT;
