-- The leaderboards' indexes hold every column a board reads (bench/stats_bench.py, at
-- 1,000,000 finished games and 50,000 players):
-- * the challenge boards count, page and rank only players with at least 3 challenges
--   (MIN_CHALLENGES in bot/core/results.py; the queries say `played >= 3`): the index now
--   holds exactly those rows, so a count or a rank reads the index alone instead of
--   visiting every standing of the board for its `played`;
-- * both carry `played`, so a page can skip its OFFSET rows in the index alone.
DROP INDEX standings_breaker_rank;
CREATE INDEX standings_breaker_rank
    ON standings (size, scope, period, won DESC, average, user_id) INCLUDE (played)
    WHERE mode = 'breaker' AND won > 0;
DROP INDEX standings_challenge_rank;
CREATE INDEX standings_challenge_rank
    ON standings (size, scope, period, average DESC, user_id) INCLUDE (played)
    WHERE mode = 'challenge' AND played >= 3;
