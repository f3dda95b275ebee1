-- State the nodes share rather than each keeping its own. Uploads staged
-- for import, in the database so that any node may take an
-- upload's next part, check it, show it or import it: an admin's upload
-- reaches the nodes behind a load balancer in turn. An upload's bytes
-- arrive as parts (one row each, at their offset) and stay until the
-- upload is imported, discarded or left unused for three hours; its check
-- report, as the API shows it, is kept as JSON once checked. Ids are never
-- given twice, so a page holding an old upload's id never reaches a new
-- one.
CREATE TABLE staged_uploads (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    filename      TEXT NOT NULL,
    format        TEXT NOT NULL CHECK (format IN ('auto', 'text', 'slc', 'pack')),
    size          INTEGER NOT NULL CHECK (size > 0),
    received      INTEGER NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= size),
    state         TEXT NOT NULL CHECK (state IN ('receiving', 'complete', 'checking', 'checked',
                                                 'imported')),
    report        TEXT,
    collection_id INTEGER,
    solver_total  INTEGER NOT NULL DEFAULT 0,
    solver_done   INTEGER NOT NULL DEFAULT 0,
    solver_ms     INTEGER NOT NULL DEFAULT 0, -- the solver's time on its levels
    created_at    INTEGER NOT NULL,
    used_at       INTEGER NOT NULL
);
CREATE INDEX staged_uploads_used ON staged_uploads (used_at);

CREATE TABLE staged_upload_parts (
    upload_id INTEGER NOT NULL REFERENCES staged_uploads (id) ON DELETE CASCADE,
    at        INTEGER NOT NULL,
    bytes     BLOB NOT NULL,
    PRIMARY KEY (upload_id, at)
) WITHOUT ROWID;

-- The rest of the solution a game's last hint came from, for the position
-- that hint leads to (its Zobrist hash, as a signed 64-bit integer): the
-- next hint, asked of any node, goes on with the same solution.
CREATE TABLE hint_plans (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    hash    INTEGER NOT NULL,
    rest    TEXT NOT NULL
);
