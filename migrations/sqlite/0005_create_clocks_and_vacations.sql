-- 0005_create_clocks_and_vacations.sql - pace time controls and vacations.
--
-- A pace control gives each seat a bank: base_ms at the start; the time a
-- decision takes is taken from it, then increment_ms is added, up to
-- cap_ms. (The per-move control of 0004 is the special case where every
-- decision starts with a full move_ms.) clocks holds each seat's bank and,
-- while the seat owes a decision, since when and its deadline; api/clocks.c
-- keeps it up to date after every change and the sweeper reads deadline_ms.
-- vacations are declared ahead by a player; time inside them is not counted
-- against the player's clocks.
ALTER TABLE games ADD COLUMN base_ms INTEGER NOT NULL DEFAULT 0 CHECK (base_ms >= 0);
ALTER TABLE games ADD COLUMN increment_ms INTEGER NOT NULL DEFAULT 0 CHECK (increment_ms >= 0);
ALTER TABLE games ADD COLUMN cap_ms INTEGER NOT NULL DEFAULT 0 CHECK (cap_ms >= 0);

CREATE TABLE clocks (
  game_id     TEXT NOT NULL REFERENCES games (id),
  seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  bank_ms     INTEGER NOT NULL,
  since_ms    INTEGER,          -- owing a decision since; NULL when not
  deadline_ms INTEGER,          -- NULL when not owing
  PRIMARY KEY (game_id, seat)
) STRICT;
CREATE INDEX clocks_by_deadline ON clocks (deadline_ms);

CREATE TABLE vacations (
  id        INTEGER PRIMARY KEY,
  player_id TEXT NOT NULL REFERENCES players (id),
  start_ms  INTEGER NOT NULL,
  end_ms    INTEGER NOT NULL,
  CHECK (end_ms > start_ms)
) STRICT;
CREATE INDEX vacations_by_player ON vacations (player_id, start_ms);
