-- 0008_chain_format_and_imports.sql - hiding commitments in the chain, and
-- imports this server cannot vouch for.
--
-- chain_format: the format of the game's hash chain (db/chain.c). Format 1
-- hashed each row's content in the clear, and row hashes are public while
-- a game runs, so anyone could test guesses at a secret move or a private
-- draw against them. Format 2 commits to the content under a key derived
-- from the secret seed. Every game stored before this migration keeps
-- format 1 (its stored hashes are format 1, and the log is append-only);
-- the server creates every new game in format 2.
--
-- imported: a game imported from a document not signed by this server's
-- own key. Nothing ties such a document's seats to this server's players
-- (anyone can edit the ids), so its seats are names only, kept in
-- imported_seats with the ids the document claimed as plain text (no
-- foreign key: no player is created or matched), never in seats, so it
-- shows up in nobody's games. signer and signature are the document's own,
-- kept so its export reproduces them and verification can judge them.
ALTER TABLE games ADD COLUMN chain_format INTEGER NOT NULL DEFAULT 1
  CHECK (chain_format IN (1, 2));
ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0 CHECK (imported IN (0, 1));
ALTER TABLE games ADD COLUMN signer BLOB CHECK (signer IS NULL OR length(signer) = 32);
ALTER TABLE games ADD COLUMN signature BLOB
  CHECK ((signature IS NULL) = (signer IS NULL) AND (signature IS NULL OR length(signature) = 64));

CREATE TABLE imported_seats (
  game_id    TEXT NOT NULL REFERENCES games (id),
  seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
  claimed_id TEXT NOT NULL CHECK (length(CAST(claimed_id AS BLOB)) <= 32),
  name       TEXT NOT NULL CHECK (length(CAST(name AS BLOB)) <= 64),
  PRIMARY KEY (game_id, seat)
) STRICT;

-- Like the creation fields (games_fixed in 0001): the chain's format and
-- what an import was vouched by never change.
CREATE TRIGGER games_fixed_8
BEFORE UPDATE OF chain_format, imported, signer, signature ON games
BEGIN
  SELECT RAISE(ABORT, 'games: creation fields are fixed');
END;
