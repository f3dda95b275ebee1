-- Ids that are never given twice, and the indexes the sweep of old guests
-- needs. Guests who never played, and long-idle ones, are now deleted by
-- the server. These ids key what the server holds in memory (the game
-- cache, the live topics "game:ID" and "room:ID", the watch topics of
-- users) and what browsers hold in their pages, so a reused id could show
-- one player another's game. SQLite rebuilds users, games and rooms with
-- AUTOINCREMENT here; on PostgreSQL every id has been an identity since it
-- was created, and an identity's sequence never gives a value twice, even
-- after the newest row is deleted or its insert rolled back. So only the
-- indexes are left to make.

-- What the sweep reads and what its deletes cascade to, by index rather
-- than by scanning a table per deleted row: guests by age, expired
-- sessions, a user's games and rooms, and the solutions of a game (set to
-- NULL when the game goes).
CREATE INDEX users_guests ON users (created_at) WHERE guest = 1;
CREATE INDEX sessions_expiry ON sessions (expires_at);
CREATE INDEX games_user ON games (user_id);
CREATE INDEX rooms_host ON rooms (host_id);
CREATE INDEX solutions_game ON solutions (game_id);
