-- A version kept for a change made beside race rooms' state (0017), which
-- brings its own 0016; this one changes nothing.
CREATE TABLE reserved_0016 (id INTEGER PRIMARY KEY);
DROP TABLE reserved_0016;
