-- Puzzles (/puzzle): clues from which exactly one code follows, one try each. A play keeps
-- its clues and answer as shown, so a later generator never changes a stored puzzle.
-- kind 'daily' is the day's puzzle (the same for everyone, one play per player per day);
-- 'random' a puzzle of a level the player asked for.
CREATE TABLE puzzle_plays (
    id                    INTEGER PRIMARY KEY,
    user_id               INTEGER NOT NULL,
    guild_id              INTEGER,                   -- where it was opened; NULL in a DM
    kind                  TEXT    NOT NULL CHECK (kind IN ('daily', 'random')),
    day                   TEXT,                      -- UTC date of a daily puzzle
    level                 TEXT    NOT NULL,
    pegs                  INTEGER NOT NULL,
    colors                INTEGER NOT NULL,
    repeats               INTEGER NOT NULL CHECK (repeats IN (0, 1)),
    clues                 TEXT    NOT NULL,          -- JSON [[guess, black, white], ...]
    answer                TEXT    NOT NULL,
    spread                INTEGER NOT NULL,
    status                TEXT    NOT NULL DEFAULT 'open'
                          CHECK (status IN ('open', 'solved', 'missed')),
    named                 TEXT,                      -- the code the player named
    created_at            REAL    NOT NULL,
    answered_at           REAL,
    open_interaction_id   INTEGER,
    answer_interaction_id INTEGER,
    CHECK ((kind = 'daily') = (day IS NOT NULL))
);
CREATE UNIQUE INDEX puzzle_daily_once ON puzzle_plays (user_id, day) WHERE kind = 'daily';
CREATE UNIQUE INDEX puzzle_opens_once ON puzzle_plays (open_interaction_id)
    WHERE open_interaction_id IS NOT NULL;
CREATE UNIQUE INDEX puzzle_answers_once ON puzzle_plays (answer_interaction_id)
    WHERE answer_interaction_id IS NOT NULL;
-- A player's newest open puzzle; a day's answered daily plays.
CREATE INDEX puzzle_by_user ON puzzle_plays (user_id, status, id);
CREATE INDEX puzzle_by_day ON puzzle_plays (day, status) WHERE kind = 'daily';
