-- Levels players make and publish from the editor: each one is a level of
-- the community collection (made on the first publish, source
-- 'community'), so that games, solutions and boards work on it as on any
-- other, with a row here that names its author. The server checked it
-- before it was stored: a valid board within the size bounds, no level of
-- the library under any rotation or mirror image, and solvable by the
-- solver within its limits (the solution found is a reference solution of
-- the level, for admins and best known, never shown to players).
--
-- `canonical_hash` repeats the level's, unique among published levels: two
-- players who publish the same level at once on two nodes cannot both
-- pass the check for copies.
--
-- `bytes` is what the level stores for its author (board, title and
-- ROW_BYTES), counted against the author's storage quota as migration
-- 0020 counts the other rows. `likes` repeats the count of
-- community_likes, kept by triggers, for listings.
CREATE TABLE community_levels (
    level_id     INTEGER PRIMARY KEY REFERENCES levels (id) ON DELETE CASCADE,
    author_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    canonical_hash TEXT NOT NULL,
    bytes        INTEGER NOT NULL CHECK (bytes >= 0),
    likes        INTEGER NOT NULL DEFAULT 0,
    published_at INTEGER NOT NULL
);
CREATE INDEX community_levels_author ON community_levels (author_id, published_at);
CREATE UNIQUE INDEX community_levels_hash ON community_levels (canonical_hash);

-- One like per player and level.
CREATE TABLE community_likes (
    level_id   INTEGER NOT NULL REFERENCES community_levels (level_id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (level_id, user_id)
) WITHOUT ROWID;
CREATE INDEX community_likes_user ON community_likes (user_id, created_at);

-- What players report of a level, for the admins: one report per player
-- and level, and a bounded number a day per player.
CREATE TABLE community_reports (
    id         INTEGER PRIMARY KEY,
    level_id   INTEGER NOT NULL REFERENCES community_levels (level_id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (level_id, user_id)
);
CREATE INDEX community_reports_user ON community_reports (user_id, created_at);

-- Authors an admin blocked from publishing (their levels stay as they are).
CREATE TABLE community_blocks (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    reason     TEXT NOT NULL DEFAULT '',
    blocked_at INTEGER NOT NULL
);

CREATE TRIGGER community_like_added AFTER INSERT ON community_likes
BEGIN
    UPDATE community_levels SET likes = likes + 1 WHERE level_id = NEW.level_id;
END;
CREATE TRIGGER community_like_removed AFTER DELETE ON community_likes
BEGIN
    UPDATE community_levels SET likes = likes - 1 WHERE level_id = OLD.level_id;
END;

-- The author's quota, as for the rows of migration 0020.
CREATE TRIGGER storage_community_quota BEFORE INSERT ON community_levels
WHEN (SELECT l.used + NEW.bytes > l.allowed FROM storage_limits l
      WHERE l.user_id = NEW.author_id)
BEGIN
    SELECT RAISE(ABORT, 'quota_exceeded');
END;
CREATE TRIGGER storage_community_added AFTER INSERT ON community_levels
BEGIN
    UPDATE users SET storage_bytes = storage_bytes + NEW.bytes WHERE id = NEW.author_id;
END;
CREATE TRIGGER storage_community_removed AFTER DELETE ON community_levels
BEGIN
    UPDATE users SET storage_bytes = storage_bytes - OLD.bytes WHERE id = OLD.author_id;
END;
