-- 0007_create_chat_and_ratings.sql - a game's chat and the players'
-- ratings (issue 25), as SQLite's 0015. Chat: two channels (0 the seated players', 1 the spectators'), each
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

-- Ratings (docs/ratings.md), as SQLite's 0015. DOUBLE PRECISION keeps the
-- IEEE doubles the update computed, bit for bit (PostgreSQL 12 and later
-- print them in their shortest exact form).
CREATE TABLE ratings (
  title      TEXT COLLATE "C" NOT NULL,
  player     TEXT COLLATE "C" NOT NULL,
  mu         DOUBLE PRECISION NOT NULL,
  sigma      DOUBLE PRECISION NOT NULL,
  ordinal    DOUBLE PRECISION NOT NULL,
  games      INTEGER NOT NULL,
  wins       INTEGER NOT NULL,
  draws      INTEGER NOT NULL,
  losses     INTEGER NOT NULL,
  updated_ms BIGINT NOT NULL,
  PRIMARY KEY (title, player)
);
CREATE INDEX ratings_leaderboard ON ratings (title, ordinal DESC, player);
CREATE INDEX ratings_by_player ON ratings (player);

-- The rated games in the order their ends committed. A game's ord is drawn
-- after the row locks of its players' ratings are held, so the games of
-- any one player are numbered in the order their updates were applied.
CREATE TABLE rated_games (
  ord     BIGSERIAL PRIMARY KEY,
  game_id TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES games (id),
  at_ms   BIGINT NOT NULL
);
