-- 0004_create_tokens_and_sign_in_codes.sql - one player on several devices
-- (issue 24), as SQLite's 0012: further tokens of a player, and the
-- one-use sign-in codes that mint them.
CREATE TABLE tokens (
  token_hash BYTEA PRIMARY KEY CHECK (octet_length(token_hash) = 32),
  player_id  TEXT COLLATE "C" NOT NULL REFERENCES players (id),
  created_ms BIGINT NOT NULL
);
CREATE INDEX tokens_by_player ON tokens (player_id);

CREATE TABLE sign_in_codes (
  code_hash  BYTEA PRIMARY KEY CHECK (octet_length(code_hash) = 32),
  player_id  TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES players (id),
  expires_ms BIGINT NOT NULL
);
