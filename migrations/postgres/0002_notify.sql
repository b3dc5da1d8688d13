-- 0002_notify.sql - every committed change of a game raises a notification
-- on channel cairn_games, in the transaction that makes it, so a waiting
-- client on another node hears of it (issue 23; db/postgres/listen.c
-- listens, game/remote.c publishes what it hears).
--
-- Triggers rather than a pg_notify in each of the backend's writes: every
-- writer that changes a game's row (an append of any kind, a join that
-- starts it, whatever is added later, a psql session included) raises one
-- without knowing of it, and PostgreSQL sends a notification only when
-- its transaction commits, so a refused or rolled-back change is never
-- heard of.
--
-- The payload is "<game id> <seq> <moves> <node>": nothing hidden and
-- nothing per seat. <node> is the cairn.node setting of the connection
-- that wrote (each node sets its own on every connection it opens;
-- db/postgres/open.c), so a node can tell its own changes, which it has
-- published already, from the others'; "" for any other writer.
--
-- What is a change: seq, the move count or the status moved (game_touch's
-- updated_ms alone is not), or a seat was taken (a join that leaves a seat
-- empty writes only its seat row). A game created, or imported, in the
-- same transaction is not: nobody can be waiting on it yet, and the node
-- that makes one does not announce it either. A join that starts the game
-- raises the same payload twice (its seat, then its status), which
-- PostgreSQL delivers once: identical notifications of one transaction
-- are folded into one.

CREATE FUNCTION cairn_notify_game(game_id TEXT) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  g RECORD;
BEGIN
  IF current_setting('cairn.created', true) = game_id THEN
    RETURN;
  END IF;
  SELECT seq, moves INTO g FROM games WHERE id = game_id;
  PERFORM pg_notify('cairn_games', game_id || ' ' || g.seq || ' ' || g.moves || ' ' ||
                    coalesce(current_setting('cairn.node', true), ''));
END;
$$;

-- A game's own transaction of creation (or import) marks it, so the
-- seats and status it writes there are not announced.
CREATE FUNCTION cairn_games_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.created', NEW.id, true);
  RETURN NULL;
END;
$$;

CREATE FUNCTION cairn_games_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cairn_notify_game(NEW.id);
  RETURN NULL;
END;
$$;

CREATE FUNCTION cairn_seat_taken() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cairn_notify_game(NEW.game_id);
  RETURN NULL;
END;
$$;

CREATE TRIGGER games_created AFTER INSERT ON games
  FOR EACH ROW EXECUTE FUNCTION cairn_games_created();
CREATE TRIGGER games_changed AFTER UPDATE ON games
  FOR EACH ROW
  WHEN (OLD.seq IS DISTINCT FROM NEW.seq OR OLD.moves IS DISTINCT FROM NEW.moves
        OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION cairn_games_changed();
CREATE TRIGGER seats_taken AFTER INSERT ON seats
  FOR EACH ROW EXECUTE FUNCTION cairn_seat_taken();
