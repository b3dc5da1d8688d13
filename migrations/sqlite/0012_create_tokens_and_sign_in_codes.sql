-- 0012_create_tokens_and_sign_in_codes.sql - one player on several devices
-- (issue 24): a player's first token stays in players.token_hash; every
-- further one (a device signed in with a code) is a row here. Rotating a
-- player's token replaces players.token_hash and deletes these rows, so
-- every device but the rotating one must sign in again.
CREATE TABLE tokens (
  token_hash BLOB PRIMARY KEY NOT NULL CHECK (length(token_hash) = 32),
  player_id  TEXT NOT NULL REFERENCES players (id),
  created_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX tokens_by_player ON tokens (player_id);

-- A sign-in code: shown once to the player who asked for it, kept as a
-- hash (like a token), good once until expires_ms. One per player at a
-- time: asking again replaces it.
CREATE TABLE sign_in_codes (
  code_hash  BLOB PRIMARY KEY NOT NULL CHECK (length(code_hash) = 32),
  player_id  TEXT NOT NULL UNIQUE REFERENCES players (id),
  expires_ms INTEGER NOT NULL
) STRICT;
