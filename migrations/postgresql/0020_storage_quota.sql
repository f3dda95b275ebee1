-- One storage quota per account, counted in the same transaction as every
-- write that stores a player's bytes (see the SQLite migration of the same
-- number for the whole design). A row that would take a player past its
-- limit fails with SQLSTATE SKQ01, "quota_exceeded".
ALTER TABLE games ADD COLUMN bytes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN storage_bytes BIGINT NOT NULL DEFAULT 0;

CREATE TABLE storage_quota (
    id          BIGINT PRIMARY KEY CHECK (id = 1),
    user_bytes  BIGINT NOT NULL,
    guest_bytes BIGINT NOT NULL
);
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

CREATE VIEW storage_limits AS
SELECT u.id AS user_id, u.storage_bytes AS used,
       CASE WHEN u.guest = 1 THEN q.guest_bytes ELSE q.user_bytes END AS allowed
FROM users u CROSS JOIN storage_quota q WHERE q.id = 1;

-- The bytes a row stores, by its table.
CREATE FUNCTION storage_row_bytes(tbl TEXT, r RECORD) RETURNS BIGINT LANGUAGE plpgsql AS $$
BEGIN
    IF tbl = 'game_log' THEN
        RETURN length(r.steps) + length(r.request) + 32;
    ELSIF tbl = 'snapshots' THEN
        RETURN length(r.lurd) + length(r.name) + 32;
    ELSIF tbl = 'solutions' THEN
        RETURN length(r.lurd) + 32;
    END IF;
    RETURN length(r.settings) + 32;
END;
$$;

-- The limit, checked before each row that adds bytes.
CREATE FUNCTION storage_quota_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    player BIGINT;
    add BIGINT := storage_row_bytes(TG_TABLE_NAME, NEW);
BEGIN
    IF TG_TABLE_NAME IN ('game_log', 'snapshots') THEN
        SELECT user_id INTO player FROM games WHERE id = NEW.game_id;
    ELSE
        player := NEW.user_id;
    END IF;
    IF TG_OP = 'UPDATE' THEN
        add := add - storage_row_bytes(TG_TABLE_NAME, OLD);
    END IF;
    IF add > 0 AND EXISTS (SELECT 1 FROM storage_limits l
                           WHERE l.user_id = player AND l.used + add > l.allowed) THEN
        RAISE EXCEPTION 'quota_exceeded' USING ERRCODE = 'SKQ01';
    END IF;
    RETURN NEW;
END;
$$;
CREATE TRIGGER storage_log_quota BEFORE INSERT ON game_log
    FOR EACH ROW EXECUTE FUNCTION storage_quota_row();
CREATE TRIGGER storage_snapshot_quota BEFORE INSERT ON snapshots
    FOR EACH ROW EXECUTE FUNCTION storage_quota_row();
CREATE TRIGGER storage_solution_quota BEFORE INSERT ON solutions
    FOR EACH ROW EXECUTE FUNCTION storage_quota_row();
CREATE TRIGGER storage_settings_quota BEFORE INSERT ON user_settings
    FOR EACH ROW EXECUTE FUNCTION storage_quota_row();
CREATE TRIGGER storage_settings_quota_grown BEFORE UPDATE OF settings ON user_settings
    FOR EACH ROW EXECUTE FUNCTION storage_quota_row();

-- The counts: a game's bytes from its log and saved positions, a player's
-- from its solutions and settings.
CREATE FUNCTION storage_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    n BIGINT := 0;
BEGIN
    IF TG_OP <> 'DELETE' THEN
        n := storage_row_bytes(TG_TABLE_NAME, NEW);
    END IF;
    IF TG_OP <> 'INSERT' THEN
        n := n - storage_row_bytes(TG_TABLE_NAME, OLD);
    END IF;
    IF TG_TABLE_NAME IN ('game_log', 'snapshots') THEN
        UPDATE games SET bytes = bytes + n
        WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.game_id ELSE NEW.game_id END;
    ELSIF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'solutions' THEN
        UPDATE users SET storage_bytes = storage_bytes - storage_row_bytes(TG_TABLE_NAME, OLD)
        WHERE id = OLD.user_id;
        UPDATE users SET storage_bytes = storage_bytes + storage_row_bytes(TG_TABLE_NAME, NEW)
        WHERE id = NEW.user_id;
    ELSE
        UPDATE users SET storage_bytes = storage_bytes + n
        WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER storage_log_added AFTER INSERT ON game_log
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_log_removed AFTER DELETE ON game_log
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_snapshot_added AFTER INSERT ON snapshots
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_snapshot_removed AFTER DELETE ON snapshots
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_solution_added AFTER INSERT ON solutions
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_solution_removed AFTER DELETE ON solutions
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_solution_moved AFTER UPDATE OF user_id ON solutions
    FOR EACH ROW WHEN (NEW.user_id <> OLD.user_id) EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_settings_added AFTER INSERT ON user_settings
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_settings_changed AFTER UPDATE OF settings ON user_settings
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();
CREATE TRIGGER storage_settings_removed AFTER DELETE ON user_settings
    FOR EACH ROW EXECUTE FUNCTION storage_count_row();

-- A player's bytes, from its games.
CREATE FUNCTION storage_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE users SET storage_bytes = storage_bytes - OLD.bytes WHERE id = OLD.user_id;
    ELSIF NEW.user_id <> OLD.user_id THEN
        UPDATE users SET storage_bytes = storage_bytes - OLD.bytes WHERE id = OLD.user_id;
        UPDATE users SET storage_bytes = storage_bytes + NEW.bytes WHERE id = NEW.user_id;
    ELSE
        UPDATE users SET storage_bytes = storage_bytes + NEW.bytes - OLD.bytes
        WHERE id = NEW.user_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER storage_game_grown AFTER UPDATE OF bytes ON games
    FOR EACH ROW WHEN (NEW.bytes <> OLD.bytes AND NEW.user_id = OLD.user_id)
    EXECUTE FUNCTION storage_game_changed();
CREATE TRIGGER storage_game_moved AFTER UPDATE OF user_id ON games
    FOR EACH ROW WHEN (NEW.user_id <> OLD.user_id) EXECUTE FUNCTION storage_game_changed();
CREATE TRIGGER storage_game_removed AFTER DELETE ON games
    FOR EACH ROW EXECUTE FUNCTION storage_game_changed();
