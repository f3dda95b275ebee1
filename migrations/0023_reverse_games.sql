-- Reverse games (rule 2): the player starts from the boxes on their goals
-- and pulls them back to the level's start. A reverse game keeps the
-- square its player starts on (a cell index, y * width + x; NULL for the
-- forward rules). A solution found in reverse is recorded as the forward
-- solution it stands for, under the standard rule, and marked so.
ALTER TABLE games ADD COLUMN start_cell INTEGER;
ALTER TABLE solutions ADD COLUMN reverse INTEGER NOT NULL DEFAULT 0
    CHECK (reverse = 0 OR reverse = 1);
