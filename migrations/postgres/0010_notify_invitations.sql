-- 0010_notify_invitations.sql - an invitation that ends without its seat
-- being taken (declined, or withdrawn by its game's cancel) raises a
-- notification on channel cairn_invitations in the transaction that
-- deletes it, so the streams on another node hear of it as they do on the
-- node that took the answer (issue 25; db/postgres/listen.c listens,
-- api/invitations.c announces what it hears). A trigger, as 0002's and
-- 0009's, so a rolled-back answer raises none.
--
-- The payload is "<game id> <seat> <invitee> <how> <node>", <how> being
-- "declined" or "cancelled" and <node> the writer's cairn.node (0002). It
-- names the invitee, which the row itself holds for anyone who can read
-- the table: the node that hears it uses the id only to choose the
-- invitee's player streams, and tells clients of a decline the seat
-- alone, as for its own (api/notify.c). An invitation ended by its
-- invitee's join (the seat row is in by then: db/postgres/seats.c) raises
-- nothing here: the seat taken is announced by 0002's trigger.

CREATE FUNCTION cairn_invitation_ended() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  how TEXT;
BEGIN
  IF EXISTS (SELECT 1 FROM seats WHERE game_id = OLD.game_id AND player_id = OLD.player_id) THEN
    RETURN NULL;
  END IF;
  -- A cancel sets the status before it deletes the invitations
  -- (db/postgres/lobby.c); a decline leaves the game open.
  SELECT CASE WHEN status = 'cancelled' THEN 'cancelled' ELSE 'declined' END INTO how
    FROM games WHERE id = OLD.game_id;
  PERFORM pg_notify('cairn_invitations', OLD.game_id || ' ' || OLD.seat || ' ' || OLD.player_id ||
                    ' ' || how || ' ' || coalesce(current_setting('cairn.node', true), ''));
  RETURN NULL;
END;
$$;

CREATE TRIGGER invitation_ended AFTER DELETE ON invitations
  FOR EACH ROW EXECUTE FUNCTION cairn_invitation_ended();
