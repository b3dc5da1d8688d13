-- 0006_index_open_games.sql - the lobby and invitations (issue 25), as
-- SQLite's 0014: the open games, newest first, a page at a time from a
-- keyset cursor on (created_ms, id) (the active ones are served by
-- games_active, 0001); and the seats kept for named players.
CREATE INDEX games_open ON games (created_ms, id) WHERE status = 'open';

CREATE TABLE invitations (
  game_id    TEXT COLLATE "C" NOT NULL REFERENCES games (id),
  seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  player_id  TEXT COLLATE "C" NOT NULL REFERENCES players (id),
  PRIMARY KEY (game_id, seat),
  UNIQUE (game_id, player_id)
);
CREATE INDEX invitations_by_player ON invitations (player_id);

-- A game its creator cancels before it starts takes the status
-- 'cancelled' (SQLite's 0014 rebuilds its table for the same check).
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
  CHECK (status IN ('open', 'active', 'finished', 'cancelled'));
