-- Secret keys the server makes for itself on first need and keeps with its
-- data (so that a backup carries them): for now "device", the key of the
-- device cookies that let an account's own browsers log in while its name
-- is locked by wrong passwords from elsewhere.
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    key  BYTEA NOT NULL
);
