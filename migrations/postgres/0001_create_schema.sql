-- 0001_create_schema.sql - the whole schema for PostgreSQL: what SQLite
-- reached through migrations/sqlite/0001 to 0010, in one step, since a new
-- backend has no older databases to carry forward. db/db.h describes what
-- each table holds; the comments of the SQLite migrations give the
-- reasons, repeated here only where PostgreSQL differs.
--
-- Released migrations are never edited; a change is a new numbered file.
-- The runner (db/postgres/migrate.c) applies this file under an advisory
-- lock and sets schema_version in the same transaction.
--
-- Types: BYTEA for blobs, BIGINT for ms and for seq and move counts (which
-- span uint32_t), BOOLEAN for flags, TEXT with the same byte-length checks
-- as SQLite's (octet_length). Ids compare as bytes (COLLATE "C"), as in
-- SQLite, so listings ordered by id come out in the same order whatever
-- the database's locale.

CREATE TABLE schema_version (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL CHECK (version >= 0)
);

CREATE TABLE players (
  id         TEXT COLLATE "C" PRIMARY KEY CHECK (octet_length(id) BETWEEN 1 AND 32),
  name       TEXT NOT NULL CHECK (octet_length(name) <= 64),
  -- a hash of the bearer token; the token itself is never stored
  token_hash BYTEA NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
  created_ms BIGINT
);

CREATE TABLE games (
  id            TEXT COLLATE "C" PRIMARY KEY CHECK (octet_length(id) BETWEEN 1 AND 32),
  -- fixed at creation (see the games_fixed trigger)
  title         TEXT NOT NULL CHECK (octet_length(title) BETWEEN 1 AND 64),
  rules_version TEXT NOT NULL CHECK (octet_length(rules_version) <= 64),
  options_json  TEXT NOT NULL,
  seed          BYTEA NOT NULL CHECK (octet_length(seed) = 32),
  seats         INTEGER NOT NULL CHECK (seats BETWEEN 1 AND 8),
  creator       TEXT COLLATE "C" NOT NULL REFERENCES players (id),
  created_ms    BIGINT NOT NULL,
  -- bookkeeping, committed with the move that changes it
  status        TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'active', 'finished')),
  seq           BIGINT NOT NULL DEFAULT 0 CHECK (seq BETWEEN 0 AND 4294967295),
  moves         BIGINT NOT NULL DEFAULT 0 CHECK (moves BETWEEN 0 AND 4294967295),
  result_json   TEXT,
  updated_ms    BIGINT NOT NULL,
  -- time controls (SQLite 0004, 0005)
  move_ms       BIGINT NOT NULL DEFAULT 0 CHECK (move_ms >= 0),
  on_timeout    TEXT NOT NULL DEFAULT 'move' CHECK (on_timeout IN ('move', 'adjudicate')),
  base_ms       BIGINT NOT NULL DEFAULT 0 CHECK (base_ms >= 0),
  increment_ms  BIGINT NOT NULL DEFAULT 0 CHECK (increment_ms >= 0),
  cap_ms        BIGINT NOT NULL DEFAULT 0 CHECK (cap_ms >= 0),
  -- the chain's format and imports (SQLite 0008)
  chain_format  INTEGER NOT NULL DEFAULT 2 CHECK (chain_format IN (1, 2)),
  imported      BOOLEAN NOT NULL DEFAULT false,
  signer        BYTEA CHECK (signer IS NULL OR octet_length(signer) = 32),
  signature     BYTEA CHECK ((signature IS NULL) = (signer IS NULL)
                             AND (signature IS NULL OR octet_length(signature) = 64)),
  -- a result exactly when finished, so the two can never disagree
  CHECK ((status = 'finished') = (result_json IS NOT NULL))
);
-- The open-games cap counts a creator's unfinished games; the start-up
-- lists the active ones (SQLite 0006, 0010). Partial: a finished game
-- leaves both.
CREATE INDEX games_unfinished_by_creator ON games (creator) WHERE status <> 'finished';
CREATE INDEX games_active ON games (created_ms, id) WHERE status = 'active';

CREATE TABLE seats (
  game_id   TEXT COLLATE "C" NOT NULL REFERENCES games (id),
  seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  player_id TEXT COLLATE "C" NOT NULL REFERENCES players (id),
  joined_ms BIGINT,
  -- the seat's player resigned; the server's bot plays it (SQLite 0009)
  resigned  BOOLEAN NOT NULL DEFAULT false,
  PRIMARY KEY (game_id, seat),
  UNIQUE (game_id, player_id)
);
-- player_games: the games a player sits in.
CREATE INDEX seats_by_player ON seats (player_id);

-- The move log: the truth every game state is rebuilt from. ord is dense
-- from 0 within a game; (game_id, ord) is unique, so of two writers of one
-- ord only one row can ever land.
CREATE TABLE moves (
  game_id     TEXT COLLATE "C" NOT NULL REFERENCES games (id),
  ord         BIGINT NOT NULL CHECK (ord BETWEEN 0 AND 4294967295),
  seq         BIGINT NOT NULL CHECK (seq BETWEEN 0 AND 4294967295),
  seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  move_json   TEXT NOT NULL,
  events_json TEXT NOT NULL,
  at_ms       BIGINT NOT NULL,
  -- the tamper-evident chain (db/chain.c); NULL only for rows older than it
  hash        BYTEA CHECK (hash IS NULL OR octet_length(hash) = 32),
  PRIMARY KEY (game_id, ord)
);

-- The log is append-only and dense, and a game's creation fields never
-- change, whoever writes (a psql session included). Refusals are raised as
-- check_violation, so the backend sees an integrity failure, as SQLite's
-- RAISE(ABORT) is a constraint failure there.
CREATE FUNCTION cairn_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'check_violation';
END;
$$;

CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
  FOR EACH ROW EXECUTE FUNCTION cairn_refuse('moves is append-only: UPDATE refused');
CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
  FOR EACH ROW EXECUTE FUNCTION cairn_refuse('moves is append-only: DELETE refused');

-- A new row must extend the log exactly: its ord is the game's move count.
-- For a missing game the comparison is NULL and the foreign key refuses
-- the row instead.
CREATE FUNCTION cairn_moves_dense() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.ord <> (SELECT moves FROM games WHERE id = NEW.game_id) THEN
    RAISE EXCEPTION 'moves: ord must equal the game''s move count'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER moves_dense BEFORE INSERT ON moves
  FOR EACH ROW EXECUTE FUNCTION cairn_moves_dense();

CREATE TRIGGER games_fixed
  BEFORE UPDATE OF id, title, rules_version, options_json, seed, seats, creator, created_ms,
                   chain_format, imported, signer, signature
  ON games
  FOR EACH ROW EXECUTE FUNCTION cairn_refuse('games: creation fields are fixed');

CREATE TABLE webhooks (
  id         TEXT COLLATE "C" PRIMARY KEY CHECK (octet_length(id) BETWEEN 1 AND 32),
  owner      TEXT COLLATE "C" NOT NULL REFERENCES players (id),
  game_id    TEXT COLLATE "C" REFERENCES games (id),
  url        TEXT NOT NULL CHECK (octet_length(url) BETWEEN 1 AND 2048),
  format     TEXT NOT NULL CHECK (format IN ('discord', 'slack', 'matrix', 'json')),
  mention    TEXT NOT NULL DEFAULT '' CHECK (octet_length(mention) <= 128),
  secret     BYTEA NOT NULL CHECK (octet_length(secret) = 32),
  created_ms BIGINT NOT NULL
);
CREATE INDEX webhooks_by_owner ON webhooks (owner);
CREATE INDEX webhooks_by_game ON webhooks (game_id);

CREATE TABLE deliveries (
  id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  webhook_id  TEXT COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event       TEXT NOT NULL,
  game_id     TEXT NOT NULL,
  attempt     INTEGER NOT NULL CHECK (attempt >= 1),
  at_ms       BIGINT NOT NULL,
  http_status INTEGER,
  error       TEXT,
  delivered   BOOLEAN NOT NULL
);
CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id, id);

CREATE TABLE clocks (
  game_id     TEXT COLLATE "C" NOT NULL REFERENCES games (id),
  seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  bank_ms     BIGINT NOT NULL,
  since_ms    BIGINT, -- owing a decision since; NULL when not
  deadline_ms BIGINT, -- NULL when not owing
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX clocks_by_deadline ON clocks (deadline_ms);

CREATE TABLE vacations (
  id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  player_id TEXT COLLATE "C" NOT NULL REFERENCES players (id),
  start_ms  BIGINT NOT NULL,
  end_ms    BIGINT NOT NULL,
  CHECK (end_ms > start_ms)
);
CREATE INDEX vacations_by_player ON vacations (player_id, start_ms);

CREATE TABLE webhook_outbox (
  delivery_id TEXT COLLATE "C" PRIMARY KEY CHECK (octet_length(delivery_id) = 16),
  webhook_id  TEXT COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event       TEXT NOT NULL,
  game_id     TEXT NOT NULL,
  body        TEXT NOT NULL,
  attempt     INTEGER NOT NULL CHECK (attempt >= 1),
  due_ms      BIGINT NOT NULL
);

CREATE TABLE imported_seats (
  game_id    TEXT COLLATE "C" NOT NULL REFERENCES games (id),
  seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  claimed_id TEXT NOT NULL CHECK (octet_length(claimed_id) <= 32),
  name       TEXT NOT NULL CHECK (octet_length(name) <= 64),
  PRIMARY KEY (game_id, seat)
);
