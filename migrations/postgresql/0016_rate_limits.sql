-- Rate limits that every node of one database shares: log-ins, sign-ups
-- and new guests, per client address and per account name. One row per
-- key holds its "theoretical arrival time" (tat, Unix milliseconds on the
-- database's clock) of the generic cell rate algorithm: the key is over its
-- limit while tat lies too far ahead of now. A row whose tat has passed
-- means nothing more and is swept; the index finds those, and the rows
-- nearest to expiry when the table is trimmed to its cap.
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY,
    tat BIGINT NOT NULL
);
CREATE INDEX rate_limits_tat ON rate_limits (tat);
