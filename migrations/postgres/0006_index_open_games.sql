-- 0006_index_open_games.sql - the lobby's open games (issue 25), as
-- SQLite's 0014: newest first, a page at a time from a keyset cursor on
-- (created_ms, id); the active ones are served by games_active (0001).
CREATE INDEX games_open ON games (created_ms, id) WHERE status = 'open';
