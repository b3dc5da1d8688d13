-- 0016_add_on_timeout_wait.sql - a late seat waits for the others' vote (issue 25).
--
-- on_timeout "wait": past a deadline the sweeper does nothing; the seat
-- may still move, or the other people may vote to hand it to a bot
-- (game/replace.c, POST /v1/games/{id}/replace). 0004's CHECK allows
-- 'move' and 'adjudicate' only, and SQLite cannot change a CHECK in place,
-- so games is rebuilt as 0014 rebuilt it (same columns, checks, triggers
-- and indexes; foreign keys deferred to the migration's commit), the
-- on_timeout list longer by one.
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
  on_timeout    TEXT NOT NULL DEFAULT 'move' CHECK (on_timeout IN ('move', 'adjudicate', 'wait')),
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

-- What went with the old table, as 0001, 0006, 0008, 0010 and 0014 made it.
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
