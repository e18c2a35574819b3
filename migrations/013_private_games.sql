-- Private games (/mastermind new private:True, /challenge private:True, every game in a DM
-- with the bot): only their player sees them, in any channel, beside that channel's game.
-- One private game per player at a time (either kind); one shared game per channel, as before.
ALTER TABLE games ADD COLUMN private INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1));
DROP INDEX games_one_active_per_channel;
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
    WHERE status = 'active' AND private = 0;
CREATE UNIQUE INDEX games_one_private_per_player ON games (started_by)
    WHERE status = 'active' AND private = 1;
-- A player's latest private game (a guess arriving just after their win is "too late").
CREATE INDEX games_private_by_player ON games (started_by, id) WHERE private = 1;

-- A private breaker game counts on its own leaderboard mode, 'private': solo play never
-- shares a board with a channel's shared games. SQLite can't change a CHECK, so results is
-- rebuilt with the same columns and rows.
CREATE TABLE results_new (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    guild_id INTEGER,
    mode     TEXT    NOT NULL CHECK (mode IN ('breaker', 'challenge', 'private')),
    size     TEXT    NOT NULL,
    won      INTEGER NOT NULL CHECK (won IN (0, 1)),
    guesses  INTEGER NOT NULL,
    ended_at REAL    NOT NULL,
    day      TEXT    NOT NULL,
    hinted   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
INSERT INTO results_new (game_id, user_id, guild_id, mode, size, won, guesses, ended_at, day,
                         hinted)
    SELECT game_id, user_id, guild_id, mode, size, won, guesses, ended_at, day, hinted
    FROM results;
DROP TABLE results;
ALTER TABLE results_new RENAME TO results;
CREATE INDEX results_by_user ON results (user_id, mode, size, day);
-- Ranked like the breakers' board (012): codes cracked, then fewer guesses per crack.
CREATE INDEX standings_private_rank
    ON standings (size, scope, period, won DESC, average, user_id, played)
    WHERE mode = 'private' AND won > 0;
