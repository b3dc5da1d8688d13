-- 0006_index_what_is_queried.sql - indexes for the queries the server runs,
-- and none for those it no longer runs.
--
-- games_by_deadline (0004) served the sweeper's search for overdue games
-- until 0005 moved deadlines into clocks (clocks_by_deadline); no query has
-- used it since, yet every move rewrote its entry, because a move changes
-- updated_ms: a b-tree delete and insert, and its pages in every commit.
--
-- games_unfinished_by counts a player's unfinished games each time they
-- create one (the open-games cap) and scanned the whole table to do it. A
-- partial index holds only unfinished games, so a move never touches it and
-- a game leaves it once, when it ends.
DROP INDEX games_by_deadline;
CREATE INDEX games_unfinished_by_creator ON games (creator) WHERE status <> 'finished';
