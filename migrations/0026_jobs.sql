-- Background work that any node may finish: an upload's check
-- ('upload_check') and the solver's verdict on one of its levels
-- ('level_solver', level_index in its report). A node takes a job by
-- leasing it (node, lease_until) and renews the lease while it runs; a job
-- whose lease ran out (its node stopped) is taken again by any node. A
-- waiting job's lease_until is the time before which nobody takes it (a
-- retry's pause). Done jobs are deleted; a job tried `attempts` times in
-- vain ends 'failed' with its reason, and goes with its upload.
CREATE TABLE jobs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT NOT NULL CHECK (kind IN ('upload_check', 'level_solver')),
    upload_id   INTEGER NOT NULL REFERENCES staged_uploads (id) ON DELETE CASCADE,
    level_index INTEGER NOT NULL DEFAULT 0,
    state       TEXT NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'running', 'failed')),
    node        TEXT,
    lease_until INTEGER NOT NULL DEFAULT 0, -- ms since the epoch
    attempts    INTEGER NOT NULL DEFAULT 0,
    error       TEXT,
    created_at  INTEGER NOT NULL
);
CREATE INDEX jobs_due ON jobs (state, lease_until);
CREATE INDEX jobs_upload ON jobs (upload_id);
