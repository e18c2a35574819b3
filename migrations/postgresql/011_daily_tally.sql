-- The daily leaderboards' counts, kept as plays finish: finished plays per (day, scope,
-- solved, guesses), scope = the server or 0 for all servers. A day's totals and a
-- player's rank then read a few dozen rows instead of counting every play of the day.
CREATE TABLE daily_tally (
    day     TEXT    NOT NULL,
    scope   BIGINT NOT NULL,
    solved  BIGINT NOT NULL,
    guesses BIGINT NOT NULL,
    plays   BIGINT NOT NULL,
    PRIMARY KEY (day, scope, solved, guesses)
);
INSERT INTO daily_tally (day, scope, solved, guesses, plays)
    SELECT day, 0, solved, guesses, COUNT(*) FROM daily_plays WHERE status != 'active'
    GROUP BY day, solved, guesses;
INSERT INTO daily_tally (day, scope, solved, guesses, plays)
    SELECT day, guild_id, solved, guesses, COUNT(*) FROM daily_plays
    WHERE status != 'active' AND guild_id IS NOT NULL
    GROUP BY day, guild_id, solved, guesses;
