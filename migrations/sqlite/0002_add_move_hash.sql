-- 0002_add_move_hash.sql - the tamper-evident chain over the move log.
--
-- Each row's hash is BLAKE2b-256 over the previous row's hash and this
-- row's content (db/chain.c defines the exact bytes), so editing, removing
-- or reordering any row breaks every hash from that row on, and the last
-- hash (published as the game's log_head) pins the whole log. Rows written
-- before this migration keep NULL: verification reports them as unchained.
ALTER TABLE moves ADD COLUMN hash BLOB CHECK (hash IS NULL OR length(hash) = 32);
