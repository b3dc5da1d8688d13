-- 0009_notify_chat.sql - a chat message posted, or deleted, raises a
-- notification on channel cairn_chat in the transaction that stores it, so
-- the SSE streams of the game on another node hear of it as they do on the
-- node that took it (issue 25; db/postgres/listen.c listens, api/chat.c
-- announces what it hears). Triggers, as 0002_notify.sql's, so every
-- writer raises one and a rolled-back post raises none.
--
-- The payload is "<game id> <channel> <n> <deleted> <node>": which message
-- to fetch (channel 0 the players', 1 the spectators'), never its author or
-- its words. Anyone who can LISTEN on the database could read a payload, so
-- what a message says stays in the table, and GET /v1/games/{id}/chat
-- applies the channel rule; the node that hears it tells the players'
-- channel only to streams of seated players (api/notify.c), as it does for
-- its own posts. <node> is the writer's cairn.node, as in 0002.

CREATE FUNCTION cairn_chat_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cairn_chat', NEW.game_id || ' ' || NEW.channel || ' ' || NEW.n || ' ' ||
                    CASE WHEN NEW.deleted_ms <> 0 THEN '1' ELSE '0' END || ' ' ||
                    coalesce(current_setting('cairn.node', true), ''));
  RETURN NULL;
END;
$$;

CREATE TRIGGER chat_posted AFTER INSERT ON chat_messages
  FOR EACH ROW EXECUTE FUNCTION cairn_chat_changed();
CREATE TRIGGER chat_deleted AFTER UPDATE ON chat_messages
  FOR EACH ROW
  WHEN (OLD.deleted_ms = 0 AND NEW.deleted_ms <> 0)
  EXECUTE FUNCTION cairn_chat_changed();
