-- Each node's word that it still runs, for the rows it keeps for its
-- live streams (room_presence): a node writes its row every heartbeat
-- (--heartbeat) with the time past which it is to be taken for gone, and
-- every node deletes the room presence of the nodes whose time has passed
-- (a node of another machine that never came back), with their rows. A
-- node that has no row here (one that wrote none yet) keeps its presence.
CREATE TABLE node_heartbeats (
    node       TEXT NOT NULL PRIMARY KEY,
    expires_at BIGINT NOT NULL -- ms since the epoch
);
