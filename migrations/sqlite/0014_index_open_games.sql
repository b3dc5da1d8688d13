-- 0014_index_open_games.sql - the lobby and invitations (issue 25).
--
-- The lobby lists the open games, newest first, a page at a time
-- (games_lobby: a keyset cursor on (created_ms, id)). games_open is
-- partial, like games_active (0010), which serves the lobby's active
-- listing: a game enters it at creation and leaves it once, when its last
-- seat is taken, and a move never touches it. The filters (title, seats,
-- time control) are checked on the open games alone, which are few beside
-- the archive. Derived: drop it and nothing is lost.
-- A game its creator cancels before it starts (issue 25) takes the status
-- 'cancelled', which 0001's CHECK does not allow. SQLite cannot change a
-- CHECK in place, so games is rebuilt: the same columns, checks, triggers
-- and indexes, the status list longer by one. The migration runs with
-- foreign keys on (migrate.c, in one transaction), so they are deferred
-- to its commit: dropping games leaves the other tables' rows without
-- their game for a moment, and putting every row back into the new games
-- (named as before, so every reference to "games" names it) gives each
-- its game again before the commit checks.
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE games_held AS SELECT * FROM games;
DROP TABLE games;
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
  status        TEXT NOT NULL DEFAULT 'open'
    CHECK (status IN ('open', 'active', 'finished', 'cancelled')),
  seq           INTEGER NOT NULL DEFAULT 0 CHECK (seq BETWEEN 0 AND 4294967295),
  moves         INTEGER NOT NULL DEFAULT 0 CHECK (moves BETWEEN 0 AND 4294967295),
  result_json   TEXT,
  updated_ms    INTEGER NOT NULL,
  move_ms       INTEGER NOT NULL DEFAULT 0 CHECK (move_ms >= 0),
  on_timeout    TEXT NOT NULL DEFAULT 'move' CHECK (on_timeout IN ('move', 'adjudicate')),
  base_ms       INTEGER NOT NULL DEFAULT 0 CHECK (base_ms >= 0),
  increment_ms  INTEGER NOT NULL DEFAULT 0 CHECK (increment_ms >= 0),
  cap_ms        INTEGER NOT NULL DEFAULT 0 CHECK (cap_ms >= 0),
  chain_format  INTEGER NOT NULL DEFAULT 1 CHECK (chain_format IN (1, 2)),
  imported      INTEGER NOT NULL DEFAULT 0 CHECK (imported IN (0, 1)),
  signer        BLOB CHECK (signer IS NULL OR length(signer) = 32),
  signature     BLOB
    CHECK ((signature IS NULL) = (signer IS NULL) AND (signature IS NULL OR length(signature) = 64)),
  -- a result exactly when finished, so the two can never disagree
  CHECK ((status = 'finished') = (result_json IS NOT NULL))
) STRICT;
INSERT INTO games (id, title, rules_version, options_json, seed, seats, creator, created_ms, status,
                   seq, moves, result_json, updated_ms, move_ms, on_timeout, base_ms,
                   increment_ms, cap_ms, chain_format, imported, signer, signature)
  SELECT id, title, rules_version, options_json, seed, seats, creator, created_ms, status, seq,
         moves, result_json, updated_ms, move_ms, on_timeout, base_ms, increment_ms, cap_ms,
         chain_format, imported, signer, signature
  FROM temp.games_held;
DROP TABLE temp.games_held;

-- What went with the old table, as 0001, 0006, 0008 and 0010 made it.
CREATE TRIGGER games_fixed
BEFORE UPDATE OF id, title, rules_version, options_json, seed, seats, creator, created_ms ON games
BEGIN
  SELECT RAISE(ABORT, 'games: creation fields are fixed');
END;
CREATE TRIGGER games_fixed_8
BEFORE UPDATE OF chain_format, imported, signer, signature ON games
BEGIN
  SELECT RAISE(ABORT, 'games: creation fields are fixed');
END;
CREATE INDEX games_unfinished_by_creator ON games (creator) WHERE status <> 'finished';
CREATE INDEX games_active ON games (created_ms, id) WHERE status = 'active';
CREATE INDEX games_open ON games (created_ms, id) WHERE status = 'open';

-- A seat kept for a named player until they take it (accept) or decline:
-- nobody else may take it. A row lives only while its seat is free: the
-- join that seats the invitee deletes it in the join's transaction, as a
-- decline does. invitations_by_player serves "my games" (invitations_of).
CREATE TABLE invitations (
  game_id    TEXT NOT NULL REFERENCES games (id),
  seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  player_id  TEXT NOT NULL REFERENCES players (id),
  PRIMARY KEY (game_id, seat),
  UNIQUE (game_id, player_id)
) STRICT;
CREATE INDEX invitations_by_player ON invitations (player_id);

-- The archive lists a player's finished games from their seats, and "my
-- games" their seats: both read seats by player, which until now scanned
-- the whole table (PostgreSQL's 0001 has this index already). A join
-- writes one entry more.
CREATE INDEX seats_by_player ON seats (player_id);
