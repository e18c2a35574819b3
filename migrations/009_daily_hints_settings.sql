-- Hints, the daily code, and per-server settings.

-- Hints: how many a game used (its crack then stays off the leaderboards), and each one
-- as shown to the channel. One row per level; a repeated delivery is refused by its
-- interaction id.
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
CREATE TABLE hints (
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    level          INTEGER NOT NULL CHECK (level >= 1),
    user_id        INTEGER NOT NULL,
    text           TEXT    NOT NULL,
    created_at     REAL    NOT NULL,
    interaction_id INTEGER,
    PRIMARY KEY (game_id, level)
);
CREATE UNIQUE INDEX hints_once ON hints (interaction_id) WHERE interaction_id IS NOT NULL;
-- A result of a game played with hints: counted in /stats as hinted, never on a leaderboard.
ALTER TABLE results ADD COLUMN hinted INTEGER NOT NULL DEFAULT 0;

-- Settings of the bot itself (name -> value): the daily code's secret seed, drawn at the
-- first start and kept, so the codes can't be predicted from the source or earlier days.
CREATE TABLE bot_settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The daily code: one play per player per UTC day, across servers, private until finished.
CREATE TABLE daily_plays (
    day        TEXT    NOT NULL,                  -- UTC date, 2026-11-24
    user_id    INTEGER NOT NULL,
    guild_id   INTEGER,                           -- the server it was played from
    status     TEXT    NOT NULL CHECK (status IN ('active', 'won', 'lost')),
    solved     INTEGER NOT NULL DEFAULT 0 CHECK (solved IN (0, 1)),
    guesses    INTEGER NOT NULL DEFAULT 0,
    started_at REAL    NOT NULL,
    ended_at   REAL,
    PRIMARY KEY (day, user_id)
);
-- The daily leaderboards: solved first, then fewest guesses, then earliest; finished only.
CREATE INDEX daily_rank ON daily_plays (day, solved DESC, guesses, ended_at, user_id)
    WHERE status != 'active';
CREATE INDEX daily_rank_by_guild
    ON daily_plays (day, guild_id, solved DESC, guesses, ended_at, user_id)
    WHERE status != 'active';
CREATE INDEX daily_by_user ON daily_plays (user_id, day);

CREATE TABLE daily_guesses (
    day            TEXT    NOT NULL,
    user_id        INTEGER NOT NULL,
    turn           INTEGER NOT NULL CHECK (turn >= 1),
    code           TEXT    NOT NULL,
    black          INTEGER NOT NULL,
    white          INTEGER NOT NULL,
    created_at     REAL    NOT NULL,
    interaction_id INTEGER,
    PRIMARY KEY (day, user_id, turn),
    FOREIGN KEY (day, user_id) REFERENCES daily_plays (day, user_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX daily_guesses_once ON daily_guesses (interaction_id)
    WHERE interaction_id IS NOT NULL;

-- Per-server settings (a missing row or NULL = the default), and who changed what.
CREATE TABLE server_settings (
    guild_id     INTEGER PRIMARY KEY,
    hints        INTEGER CHECK (hints IN (0, 1)),
    pegs         INTEGER CHECK (pegs BETWEEN 2 AND 8),
    colors       INTEGER CHECK (colors BETWEEN 2 AND 9),
    max_guesses  INTEGER CHECK (max_guesses BETWEEN 1 AND 20),
    repeats      INTEGER CHECK (repeats IN (0, 1)),
    idle_hours   REAL    CHECK (idle_hours > 0),
    channels     TEXT,                            -- channel ids allowing games, ',' separated; NULL = all
    daily_posts  INTEGER CHECK (daily_posts IN (0, 1)),
    updated_at   REAL    NOT NULL,
    updated_by   INTEGER NOT NULL
);
CREATE TABLE settings_log (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    old_value      TEXT,
    new_value      TEXT,
    changed_at     REAL    NOT NULL,
    interaction_id INTEGER
);
CREATE INDEX settings_log_by_guild ON settings_log (guild_id, id);
CREATE UNIQUE INDEX settings_once ON settings_log (interaction_id, name)
    WHERE interaction_id IS NOT NULL;
