-- Private games (/mastermind new private:True, /challenge private:True, every game in a DM
-- with the bot): only their player sees them, in any channel, beside that channel's game.
-- One private game per player at a time (either kind); one shared game per channel, as before.
ALTER TABLE games ADD COLUMN private BIGINT NOT NULL DEFAULT 0 CHECK (private IN (0, 1));
DROP INDEX games_one_active_per_channel;
CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
    WHERE status = 'active' AND private = 0;
CREATE UNIQUE INDEX games_one_private_per_player ON games (started_by)
    WHERE status = 'active' AND private = 1;
-- A player's latest private game (a guess arriving just after their win is "too late").
CREATE INDEX games_private_by_player ON games (started_by, id) WHERE private = 1;

-- A private breaker game counts on its own leaderboard mode, 'private': solo play never
-- shares a board with a channel's shared games.
ALTER TABLE results DROP CONSTRAINT results_mode_check;
ALTER TABLE results ADD CONSTRAINT results_mode_check
    CHECK (mode IN ('breaker', 'challenge', 'private'));
-- Ranked like the breakers' board (012): codes cracked, then fewer guesses per crack.
CREATE INDEX standings_private_rank
    ON standings (size, scope, period, won DESC, average, user_id) INCLUDE (played)
    WHERE mode = 'private' AND won > 0;
