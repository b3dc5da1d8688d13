-- 0004_add_time_control.sql - deadlines for play-by-web games.
--
-- move_ms: how long a seat may take over one decision (0: no time control).
-- A seat's deadline is the time of the game's last change (updated_ms: the
-- last log row, or the moment the last seat was taken) plus move_ms; the
-- sweeper in api/sweeper.c acts on the games past it. on_timeout: "move"
-- plays a random legal move for the absent seat; "adjudicate" ends the game
-- against the seats that let time run out.
ALTER TABLE games ADD COLUMN move_ms INTEGER NOT NULL DEFAULT 0 CHECK (move_ms >= 0);
ALTER TABLE games ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'move'
  CHECK (on_timeout IN ('move', 'adjudicate'));
CREATE INDEX games_by_deadline ON games (status, move_ms, updated_ms);
