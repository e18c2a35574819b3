-- Races (/race): everyone who joined a channel's lobby breaks the same secret on a private
-- board of their own, against each other and the clock. A racer's board is an ordinary
-- private breaker game linked here by games.race_id; it ends at the race's deadline
-- (games.deadline) like an idle game ends, whoever moves or looks first (or the sweep).
CREATE TABLE races (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    pegs          INTEGER NOT NULL CHECK (pegs BETWEEN 2 AND 8),
    colors        INTEGER NOT NULL CHECK (colors BETWEEN 2 AND 9),
    max_guesses   INTEGER NOT NULL CHECK (max_guesses BETWEEN 1 AND 20),
    repeats       INTEGER NOT NULL CHECK (repeats IN (0, 1)),
    secret        TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished',
                                                     'cancelled')),
    started_by    INTEGER NOT NULL,
    created_at    REAL    NOT NULL,
    lobby_until   REAL    NOT NULL,                -- the lobby starts by itself then
    time_limit    REAL    NOT NULL,                -- seconds, from the start
    started_at    REAL,
    deadline      REAL,
    ended_at      REAL,
    board_message_id INTEGER,                      -- the channel's standings board
    announced     INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),
    opened_by_interaction INTEGER
);
-- One open race per channel; a running game or match there is checked by the code.
CREATE UNIQUE INDEX races_one_open_per_channel ON races (channel_id)
    WHERE status IN ('lobby', 'running');
CREATE UNIQUE INDEX races_opened_once ON races (opened_by_interaction)
    WHERE opened_by_interaction IS NOT NULL;
CREATE INDEX races_by_channel ON races (channel_id, id);
-- What the sweep looks at: lobbies and races whose time may be up, endings not yet shown.
CREATE INDEX races_due ON races (id) WHERE status IN ('lobby', 'running') OR announced = 0;

-- Who races: joined in the lobby (the primary key: joining twice is once), then racing,
-- then solved, unsolved (out of guesses or time) or left (a forfeit, ranked last).
CREATE TABLE racers (
    race_id       INTEGER NOT NULL REFERENCES races (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    joined_at     REAL    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('racing', 'solved', 'unsolved', 'left')),
    guesses       INTEGER NOT NULL DEFAULT 0,
    finished_at   REAL,
    best_black    INTEGER NOT NULL DEFAULT 0,
    best_white    INTEGER NOT NULL DEFAULT 0,
    place         INTEGER,
    -- the rating change the race's end made (the ratings service's answer), kept to show it
    rating_before REAL,
    rating_after  REAL,
    provisional   INTEGER CHECK (provisional IN (0, 1)),
    rated         INTEGER CHECK (rated IN (0, 1)),
    why_not       TEXT,
    PRIMARY KEY (race_id, user_id)
);

ALTER TABLE games ADD COLUMN race_id INTEGER REFERENCES races (id);
ALTER TABLE games ADD COLUMN deadline REAL;
CREATE INDEX games_by_race ON games (race_id) WHERE race_id IS NOT NULL;
