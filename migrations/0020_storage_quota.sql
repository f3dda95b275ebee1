-- One storage quota per account, counted by the database in the same
-- transaction as every write that stores a player's bytes, whatever route
-- made it: game logs, saved positions, solutions and settings.
--
-- games.bytes is what a game holds (its log entries and saved positions);
-- users.storage_bytes is the sum of its games', solutions' and settings'
-- bytes. A row counts the text it stores and ROW_BYTES (32) for the rest of
-- it. Triggers keep both, on each insert and delete (and on a game or a
-- solution changing hands, as a guest's join an account at log-in); a game
-- deleted takes its bytes from its player at once, whether its log rows go
-- before it (the sweeper's batches) or with it (a cascade, which finds the
-- game gone and changes nothing more).
--
-- storage_quota holds the limits (--user-storage-mb, --guest-storage-mb),
-- written by each server as it starts. A row that would take a player
-- past its limit fails with the error "quota_exceeded", which undoes the
-- statement; nothing already stored is touched, and a player over the
-- limit (an older database, a smaller limit) may still delete.
ALTER TABLE games ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN storage_bytes INTEGER NOT NULL DEFAULT 0;

CREATE TABLE storage_quota (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    user_bytes  INTEGER NOT NULL,
    guest_bytes INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO storage_quota (id, user_bytes, guest_bytes) VALUES (1, 268435456, 16777216);

UPDATE games SET bytes =
    coalesce((SELECT sum(length(l.steps) + length(l.request) + 32) FROM game_log l
              WHERE l.game_id = games.id), 0) +
    coalesce((SELECT sum(length(s.lurd) + length(s.name) + 32) FROM snapshots s
              WHERE s.game_id = games.id), 0);
UPDATE users SET storage_bytes =
    coalesce((SELECT sum(g.bytes) FROM games g WHERE g.user_id = users.id), 0) +
    coalesce((SELECT sum(length(s.lurd) + 32) FROM solutions s WHERE s.user_id = users.id), 0) +
    coalesce((SELECT length(t.settings) + 32 FROM user_settings t WHERE t.user_id = users.id), 0);

-- The limit, checked before each row that adds bytes: what the player
-- holds and the row's bytes may not pass it. A game or a solution that
-- changes hands (a guest's, joining an account at log-in) is not checked:
-- a log-in never fails for it, and the account may then be over its limit.
CREATE VIEW storage_limits AS
SELECT u.id AS user_id, u.storage_bytes AS used,
       CASE WHEN u.guest = 1 THEN q.guest_bytes ELSE q.user_bytes END AS allowed
FROM users u CROSS JOIN storage_quota q WHERE q.id = 1;

CREATE TRIGGER storage_log_quota BEFORE INSERT ON game_log
WHEN (SELECT l.used + length(NEW.steps) + length(NEW.request) + 32 > l.allowed
      FROM storage_limits l JOIN games g ON g.user_id = l.user_id WHERE g.id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'quota_exceeded');
END;
CREATE TRIGGER storage_snapshot_quota BEFORE INSERT ON snapshots
WHEN (SELECT l.used + length(NEW.lurd) + length(NEW.name) + 32 > l.allowed
      FROM storage_limits l JOIN games g ON g.user_id = l.user_id WHERE g.id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'quota_exceeded');
END;
CREATE TRIGGER storage_solution_quota BEFORE INSERT ON solutions
WHEN (SELECT l.used + length(NEW.lurd) + 32 > l.allowed FROM storage_limits l
      WHERE l.user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'quota_exceeded');
END;
CREATE TRIGGER storage_settings_quota BEFORE INSERT ON user_settings
WHEN (SELECT l.used + length(NEW.settings) + 32 > l.allowed FROM storage_limits l
      WHERE l.user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'quota_exceeded');
END;
CREATE TRIGGER storage_settings_quota_grown BEFORE UPDATE OF settings ON user_settings
WHEN length(NEW.settings) > length(OLD.settings)
 AND (SELECT l.used + length(NEW.settings) - length(OLD.settings) > l.allowed
      FROM storage_limits l WHERE l.user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'quota_exceeded');
END;

-- A game's bytes, from its log and its saved positions.
CREATE TRIGGER storage_log_added AFTER INSERT ON game_log
BEGIN
    UPDATE games SET bytes = bytes + length(NEW.steps) + length(NEW.request) + 32
    WHERE id = NEW.game_id;
END;
CREATE TRIGGER storage_log_removed AFTER DELETE ON game_log
BEGIN
    UPDATE games SET bytes = bytes - (length(OLD.steps) + length(OLD.request) + 32)
    WHERE id = OLD.game_id;
END;
CREATE TRIGGER storage_snapshot_added AFTER INSERT ON snapshots
BEGIN
    UPDATE games SET bytes = bytes + length(NEW.lurd) + length(NEW.name) + 32
    WHERE id = NEW.game_id;
END;
CREATE TRIGGER storage_snapshot_removed AFTER DELETE ON snapshots
BEGIN
    UPDATE games SET bytes = bytes - (length(OLD.lurd) + length(OLD.name) + 32)
    WHERE id = OLD.game_id;
END;

-- A player's bytes, from its games.
CREATE TRIGGER storage_game_grown AFTER UPDATE OF bytes ON games
WHEN NEW.bytes <> OLD.bytes AND NEW.user_id = OLD.user_id
BEGIN
    UPDATE users SET storage_bytes = storage_bytes + NEW.bytes - OLD.bytes WHERE id = NEW.user_id;
END;
CREATE TRIGGER storage_game_moved AFTER UPDATE OF user_id ON games
WHEN NEW.user_id <> OLD.user_id
BEGIN
    UPDATE users SET storage_bytes = storage_bytes - OLD.bytes WHERE id = OLD.user_id;
    UPDATE users SET storage_bytes = storage_bytes + NEW.bytes WHERE id = NEW.user_id;
END;
CREATE TRIGGER storage_game_removed AFTER DELETE ON games
BEGIN
    UPDATE users SET storage_bytes = storage_bytes - OLD.bytes WHERE id = OLD.user_id;
END;

-- And from its solutions and settings.
CREATE TRIGGER storage_solution_added AFTER INSERT ON solutions
BEGIN
    UPDATE users SET storage_bytes = storage_bytes + length(NEW.lurd) + 32 WHERE id = NEW.user_id;
END;
CREATE TRIGGER storage_solution_removed AFTER DELETE ON solutions
BEGIN
    UPDATE users SET storage_bytes = storage_bytes - (length(OLD.lurd) + 32)
    WHERE id = OLD.user_id;
END;
CREATE TRIGGER storage_solution_moved AFTER UPDATE OF user_id ON solutions
WHEN NEW.user_id <> OLD.user_id
BEGIN
    UPDATE users SET storage_bytes = storage_bytes - (length(OLD.lurd) + 32)
    WHERE id = OLD.user_id;
    UPDATE users SET storage_bytes = storage_bytes + length(NEW.lurd) + 32 WHERE id = NEW.user_id;
END;
CREATE TRIGGER storage_settings_added AFTER INSERT ON user_settings
BEGIN
    UPDATE users SET storage_bytes = storage_bytes + length(NEW.settings) + 32
    WHERE id = NEW.user_id;
END;
CREATE TRIGGER storage_settings_changed AFTER UPDATE OF settings ON user_settings
BEGIN
    UPDATE users SET storage_bytes = storage_bytes + length(NEW.settings) - length(OLD.settings)
    WHERE id = NEW.user_id;
END;
CREATE TRIGGER storage_settings_removed AFTER DELETE ON user_settings
BEGIN
    UPDATE users SET storage_bytes = storage_bytes - (length(OLD.settings) + 32)
    WHERE id = OLD.user_id;
END;
