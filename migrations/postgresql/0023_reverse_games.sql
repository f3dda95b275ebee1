-- Reverse games (see the SQLite migration of the same number).
ALTER TABLE games ADD COLUMN start_cell BIGINT;
ALTER TABLE solutions ADD COLUMN reverse BIGINT NOT NULL DEFAULT 0
    CHECK (reverse = 0 OR reverse = 1);
