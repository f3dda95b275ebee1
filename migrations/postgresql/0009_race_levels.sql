-- Race rooms on a freshly generated level: which level the generator made
-- for a difficulty and a seed, so that the same pair gives the same level
-- (made once, then shared by every room that asks for it). The levels live
-- in a hidden collection of their own, like the daily puzzles.
CREATE TABLE race_levels (
    difficulty TEXT NOT NULL,
    seed       BIGINT NOT NULL,
    level_id   BIGINT NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (difficulty, seed)
);
