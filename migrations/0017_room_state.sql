-- Race rooms in the database: what a room's operations decide (its phase,
-- the countdown's end, the places given, its seats and their results) is
-- kept with the room, so that any node holding its players decides it
-- once, the room's row locked. Each node records the live streams it has
-- on a room (room_presence), so that every node shows who is connected;
-- room_events keeps a room's last events, numbered per room, for the
-- nodes that did not make them to publish them too.
ALTER TABLE rooms ADD COLUMN phase INTEGER NOT NULL DEFAULT 0;      -- 0 lobby, 1 started, 2 finished
ALTER TABLE rooms ADD COLUMN starts_at INTEGER NOT NULL DEFAULT 0;  -- the race's start, ms
ALTER TABLE rooms ADD COLUMN places INTEGER NOT NULL DEFAULT 0;     -- seats finished this round
ALTER TABLE rooms ADD COLUMN event_seq INTEGER NOT NULL DEFAULT 0;  -- the room's last event
ALTER TABLE rooms ADD COLUMN touched_at INTEGER NOT NULL DEFAULT 0; -- the last change, ms
CREATE INDEX rooms_touched ON rooms (touched_at);

CREATE TABLE room_seats (
    room_id       INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seat_no       INTEGER NOT NULL, -- the seats' order
    game_id       INTEGER NOT NULL DEFAULT 0, -- this round's race game, 0 before the start
    gone          INTEGER NOT NULL DEFAULT 0, -- left during the race
    seq           INTEGER NOT NULL DEFAULT 0,
    moves         INTEGER NOT NULL DEFAULT 0,
    pushes        INTEGER NOT NULL DEFAULT 0,
    boxes_on_goal INTEGER NOT NULL DEFAULT 0,
    finished      INTEGER NOT NULL DEFAULT 0,
    time_ms       INTEGER NOT NULL DEFAULT 0,
    place         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (room_id, user_id)
);

CREATE TABLE room_presence (
    room_id INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    node    TEXT NOT NULL,
    user_id INTEGER NOT NULL, -- 0: nobody signed in
    streams INTEGER NOT NULL,
    PRIMARY KEY (room_id, node, user_id)
);

CREATE TABLE room_events (
    room_id INTEGER NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    type    TEXT NOT NULL,
    data    TEXT NOT NULL,
    PRIMARY KEY (room_id, seq)
);
