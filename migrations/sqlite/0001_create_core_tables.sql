-- 0001_create_core_tables.sql - the first schema: players, games, their
-- seats and the append-only move log (db/db.h describes what each holds).
--
-- Released migrations are never edited; a change is a new numbered file.
-- The runner (db/sqlite/migrate.c) applies this file and sets
-- schema_version in the same transaction, so this file does not touch it.
--
-- Tables are STRICT (SQLite 3.37 or later, checked at open) so a column
-- holds only its declared type: a seq is always an integer, a seed always a
-- blob. Length checks mirror the fixed buffers of struct db_player and
-- struct db_game (DB_ID_MAX 32, DB_NAME_MAX and DB_TITLE_MAX 64 bytes,
-- ENGINE_MAX_SEATS 8, uint32_t counters), so a stored row always fits the
-- struct it is loaded into. JSON columns are opaque text: storage does not
-- look inside what the engine produces.
--
-- Indexes: every query in db/sqlite/ is served by a primary key or a
-- UNIQUE constraint (games by id, seats by (game_id, seat) and
-- (game_id, player_id), moves by (game_id, ord), players by token_hash), so
-- no extra index is created; one that no query uses would only slow writes.

-- One row (id 1): the number of the last migration applied.
CREATE TABLE schema_version (
  id      INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
  version INTEGER NOT NULL CHECK (version >= 0)
) STRICT;

CREATE TABLE players (
  id         TEXT PRIMARY KEY NOT NULL CHECK (length(CAST(id AS BLOB)) BETWEEN 1 AND 32),
  name       TEXT NOT NULL CHECK (length(CAST(name AS BLOB)) <= 64),
  -- a hash of the bearer token; the token itself is never stored
  token_hash BLOB NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  -- ms since the Unix epoch; NULL while db_ops version 1 passes no time to
  -- player_create (the storage layer does not read the clock itself)
  created_ms INTEGER
) STRICT;

CREATE TABLE games (
  id            TEXT PRIMARY KEY NOT NULL CHECK (length(CAST(id AS BLOB)) BETWEEN 1 AND 32),
  -- fixed at creation (see the games_fixed trigger)
  title         TEXT NOT NULL CHECK (length(CAST(title AS BLOB)) BETWEEN 1 AND 64),
  rules_version TEXT NOT NULL CHECK (length(CAST(rules_version AS BLOB)) <= 64),
  options_json  TEXT NOT NULL,
  seed          BLOB NOT NULL CHECK (length(seed) = 32),
  seats         INTEGER NOT NULL CHECK (seats BETWEEN 1 AND 8),
  creator       TEXT NOT NULL REFERENCES players (id),
  created_ms    INTEGER NOT NULL,
  -- bookkeeping, committed with the move that changes it
  status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'active', 'finished')),
  seq           INTEGER NOT NULL DEFAULT 0 CHECK (seq BETWEEN 0 AND 4294967295),
  moves         INTEGER NOT NULL DEFAULT 0 CHECK (moves BETWEEN 0 AND 4294967295),
  result_json   TEXT,
  updated_ms    INTEGER NOT NULL,
  -- a result exactly when finished, so the two can never disagree
  CHECK ((status = 'finished') = (result_json IS NOT NULL))
) STRICT;

CREATE TABLE seats (
  game_id   TEXT NOT NULL REFERENCES games (id),
  seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  player_id TEXT NOT NULL REFERENCES players (id),
  -- ms since the Unix epoch; NULL while db_ops version 1 passes no time to
  -- seat_take
  joined_ms INTEGER,
  PRIMARY KEY (game_id, seat),
  UNIQUE (game_id, player_id)
) STRICT;

-- The move log: the truth every game state is rebuilt from. ord is dense
-- from 0 within a game.
CREATE TABLE moves (
  game_id     TEXT NOT NULL REFERENCES games (id),
  ord         INTEGER NOT NULL CHECK (ord BETWEEN 0 AND 4294967295),
  seq         INTEGER NOT NULL CHECK (seq BETWEEN 0 AND 4294967295),
  seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  move_json   TEXT NOT NULL,
  events_json TEXT NOT NULL,
  at_ms       INTEGER NOT NULL,
  PRIMARY KEY (game_id, ord)
) STRICT;

-- The log is append-only: a stored move is never rewritten or removed, by
-- this server or by anyone with a sqlite3 shell.
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
  SELECT RAISE(ABORT, 'moves is append-only: UPDATE refused');
END;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
  SELECT RAISE(ABORT, 'moves is append-only: DELETE refused');
END;

-- A new row must extend the log exactly: its ord is the game's move count
-- (the code checks this first and answers stale-seq; this is the backstop
-- that keeps the log dense whoever writes). For a missing game the
-- comparison is NULL, so the trigger stays quiet and the foreign key
-- refuses the row instead.
CREATE TRIGGER moves_dense BEFORE INSERT ON moves
WHEN NEW.ord <> (SELECT moves FROM games WHERE id = NEW.game_id)
BEGIN
  SELECT RAISE(ABORT, 'moves: ord must equal the game''s move count');
END;

-- What a game was created with (and the seed its commitment was published
-- for) never changes.
CREATE TRIGGER games_fixed
BEFORE UPDATE OF id, title, rules_version, options_json, seed, seats, creator, created_ms ON games
BEGIN
  SELECT RAISE(ABORT, 'games: creation fields are fixed');
END;
