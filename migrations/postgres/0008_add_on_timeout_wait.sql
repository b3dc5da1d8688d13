-- 0008_add_on_timeout_wait.sql - a late seat waits for the others' vote
-- (issue 25; SQLite 0016): on_timeout may be 'wait', under which the
-- sweeper leaves a seat past its deadline for the other people to replace
-- by a bot (game/replace.c). 0001's column CHECK carries PostgreSQL's
-- default name.
ALTER TABLE games DROP CONSTRAINT games_on_timeout_check;
ALTER TABLE games ADD CONSTRAINT games_on_timeout_check
  CHECK (on_timeout IN ('move', 'adjudicate', 'wait'));
