-- Ratings (issue 35): OpenSkill (Plackett-Luce) per server, season by season.

-- A player's rating in a server: one row, in the season of their last rated game. The shown
-- rating (the library's ordinal, scaled: bot/features/ratings/model.py) is kept beside mu and
-- sigma so the leaderboard reads one index in order.
CREATE TABLE ratings (
    guild_id    BIGINT           NOT NULL,
    user_id     BIGINT           NOT NULL,
    season      TEXT             NOT NULL,   -- '2026-11', '2026-Q4', or 'all' (seasons off)
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    games       BIGINT          NOT NULL,   -- rated games in this season
    total_games BIGINT          NOT NULL,   -- rated games in this server (provisional while few)
    best        DOUBLE PRECISION NOT NULL,   -- the best shown rating in this season
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
-- Covering: a page, a count and a rank read the index alone (index-only scans).
CREATE INDEX ratings_rank ON ratings (guild_id, season, rating DESC, user_id)
    INCLUDE (games, total_games);

-- A season's final standings: a player's row as it was at the season's end, kept when they
-- carry their rating into a later season (at their first rated game there). A past season's
-- board is these rows and the ratings rows still in that season.
CREATE TABLE season_standings (
    guild_id    BIGINT           NOT NULL,
    season      TEXT             NOT NULL,
    user_id     BIGINT           NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    games       BIGINT          NOT NULL,
    total_games BIGINT          NOT NULL,
    best        DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
);
CREATE INDEX season_standings_rank ON season_standings (guild_id, season, rating DESC, user_id)
    INCLUDE (games, total_games);

-- Players on each season's board (those who played a rated game in it): kept as they enter,
-- so a board's size is one row, not a count of the board.
CREATE TABLE rating_seasons (
    guild_id BIGINT NOT NULL,
    season   TEXT   NOT NULL,
    players  BIGINT NOT NULL,
    PRIMARY KEY (guild_id, season)
);

-- Players per whole rating point (the shown rating, rounded down) of each season: a rank is
-- the players of the points above (a few hundred rows) and those above within its own point
-- (a short range of the rank index), never a count of the board.
CREATE TABLE rating_buckets (
    guild_id BIGINT NOT NULL,
    season   TEXT   NOT NULL,
    bucket   BIGINT NOT NULL,
    players  BIGINT NOT NULL,
    PRIMARY KEY (guild_id, season, bucket)
);

-- Every game that moved ratings (or was looked at and not rated), once: a second ending of
-- the same race or match finds its row and moves nothing.
CREATE TABLE rated_games (
    kind      TEXT             NOT NULL CHECK (kind IN ('race', 'match')),
    source_id BIGINT           NOT NULL,
    guild_id  BIGINT           NOT NULL,
    season    TEXT             NOT NULL,
    rated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, source_id)
);

-- Each player's part in a rated game: the change shown with the result, the history chart,
-- the last change on /stats; or why the game didn't count for them (why_not).
CREATE TABLE rating_changes (
    kind        TEXT             NOT NULL,
    source_id   BIGINT           NOT NULL,
    user_id     BIGINT           NOT NULL,
    guild_id    BIGINT           NOT NULL,
    place       BIGINT          NOT NULL,
    before      DOUBLE PRECISION,           -- NULL: no rating before
    after       DOUBLE PRECISION,           -- NULL: not rated and no rating yet
    provisional BIGINT          NOT NULL CHECK (provisional IN (0, 1)),
    why_not     TEXT,                       -- NULL: rated
    changed_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (kind, source_id, user_id),
    FOREIGN KEY (kind, source_id) REFERENCES rated_games (kind, source_id) ON DELETE CASCADE
);
CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, user_id, changed_at);

-- Rated games of two players on a UTC day in a server (the daily cap per pair); user_a is the
-- lower id.
CREATE TABLE rating_pairs (
    guild_id BIGINT NOT NULL,
    day      TEXT   NOT NULL,
    user_a   BIGINT NOT NULL,
    user_b   BIGINT NOT NULL,
    games    BIGINT NOT NULL,
    PRIMARY KEY (guild_id, day, user_a, user_b)
);

-- The three settings of races and ratings (NULL = the default: monthly, 3, 10 minutes).
ALTER TABLE server_settings ADD COLUMN seasons TEXT
    CHECK (seasons IN ('off', 'monthly', 'quarterly'));
ALTER TABLE server_settings ADD COLUMN pair_cap BIGINT CHECK (pair_cap BETWEEN 1 AND 20);
ALTER TABLE server_settings ADD COLUMN race_minutes BIGINT CHECK (race_minutes BETWEEN 2 AND 60);
