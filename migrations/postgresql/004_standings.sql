-- Leaderboards and stats. Both are written in the transaction that ends a game, from its
-- stored guesses (bot/store/stats.py, from bot/core/results.py), and can be rebuilt from them at any time.

-- One row per player of each finished game.
--   breaker:   won = this player broke the code; guesses = the game's guesses at its end
--   challenge: won = the bot broke the player's code; guesses = the bot's guesses
--              (max_guesses + 1 when it failed). Only challenges the bot won or lost count.
CREATE TABLE results (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL,
    guild_id BIGINT,
    mode     TEXT    NOT NULL CHECK (mode IN ('breaker', 'challenge')),
    size     TEXT    NOT NULL,                 -- '4x6', '5x8', '4x6 no-repeats', ...
    won      BIGINT NOT NULL CHECK (won IN (0, 1)),
    guesses  BIGINT NOT NULL,
    ended_at DOUBLE PRECISION    NOT NULL,
    day      TEXT    NOT NULL,                 -- UTC date of ended_at, for daily streaks
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX results_by_user ON results (user_id, mode, size, day);

-- Running totals per leaderboard: scope is a server id, or 0 for all servers; period is
-- 'all', 'M2026-11' (calendar month, UTC) or 'W2026-47' (ISO week, UTC).
--   breaker:   ranked by won DESC, then average = guesses / won ASC (guesses of wins only)
--   challenge: ranked by average = guesses / played DESC (harder codes rank higher)
CREATE TABLE standings (
    mode     TEXT    NOT NULL,
    size     TEXT    NOT NULL,
    scope    BIGINT NOT NULL,
    period   TEXT    NOT NULL,
    user_id  BIGINT NOT NULL,
    played   BIGINT NOT NULL,
    won      BIGINT NOT NULL,
    guesses  BIGINT NOT NULL,
    average  DOUBLE PRECISION,
    PRIMARY KEY (mode, size, scope, period, user_id)
);
CREATE INDEX standings_breaker_rank
    ON standings (size, scope, period, won DESC, average, user_id)
    WHERE mode = 'breaker' AND won > 0;
CREATE INDEX standings_challenge_rank
    ON standings (size, scope, period, average DESC, user_id)
    WHERE mode = 'challenge';
