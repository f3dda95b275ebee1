-- A player's options (theme, animation speed, sound, point mode ...), kept
-- on the server so that they follow the player to every device. The server
-- checks their shape, not their meaning: the client owns the keys.
-- user_id is the user's own id, never made here: a plain key, no identity.
CREATE TABLE user_settings (
    user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    settings   TEXT NOT NULL, -- a JSON object
    updated_at BIGINT NOT NULL
);
