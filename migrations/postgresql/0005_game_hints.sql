-- How many hints the player asked for in a game. A solution found with
-- hints is marked as helped wherever it is shown.
ALTER TABLE games ADD COLUMN hints BIGINT NOT NULL DEFAULT 0;
