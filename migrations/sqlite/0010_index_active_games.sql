-- 0010_index_active_games.sql - the active games, listed without reading the
-- archive (issue 21): when the server starts, it plays every bot that owes a
-- move (game_bots_resume), which only active games can; with 100,000 stored
-- games, most of them finished, a scan of every row cost more than the rest
-- of the start. Derived: drop it and nothing is lost.
CREATE INDEX games_active ON games (created_ms, id) WHERE status = 'active';
