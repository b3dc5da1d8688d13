-- 0014_index_open_games.sql - the lobby (issue 25) lists the open games,
-- newest first, a page at a time (games_lobby: a keyset cursor on
-- (created_ms, id)). Partial, like games_active (0010), which serves the
-- lobby's active listing: a game enters it at creation and leaves it once,
-- when its last seat is taken, and a move never touches it. The filters
-- (title, seats, time control) are checked on the open games alone, which
-- are few beside the archive. Derived: drop it and nothing is lost.
CREATE INDEX games_open ON games (created_ms, id) WHERE status = 'open';
