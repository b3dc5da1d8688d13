-- 0014_index_open_games.sql - the lobby and invitations (issue 25).
--
-- The lobby lists the open games, newest first, a page at a time
-- (games_lobby: a keyset cursor on (created_ms, id)). games_open is
-- partial, like games_active (0010), which serves the lobby's active
-- listing: a game enters it at creation and leaves it once, when its last
-- seat is taken, and a move never touches it. The filters (title, seats,
-- time control) are checked on the open games alone, which are few beside
-- the archive. Derived: drop it and nothing is lost.
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
