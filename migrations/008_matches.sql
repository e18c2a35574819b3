-- Matches: the 1978 game of rounds. Each round has two half-rounds; in the first, side A
-- (who started) breaks side B's code, in the second B breaks A's. Side B is the bot
-- (player_b NULL) or an invited player. Each half-round is an ordinary game linked here by
-- (match_id, match_half); a half replayed after a reveal leaves its old game as 'quit'.
CREATE TABLE matches (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    pegs          INTEGER NOT NULL CHECK (pegs BETWEEN 2 AND 8),
    colors        INTEGER NOT NULL CHECK (colors BETWEEN 2 AND 9),
    max_guesses   INTEGER NOT NULL CHECK (max_guesses BETWEEN 1 AND 20),
    repeats       INTEGER NOT NULL CHECK (repeats IN (0, 1)),
    strategy      TEXT,                            -- the bot's, when it plays
    rounds        INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 10),
    player_a      INTEGER NOT NULL,                -- who started the match
    player_b      INTEGER,                         -- NULL: the bot
    status        TEXT    NOT NULL CHECK (status IN ('invited', 'active', 'finished', 'forfeit',
                                                     'declined', 'expired', 'abandoned', 'ended')),
    half          INTEGER NOT NULL DEFAULT 0,      -- the half-round being played, 0-based
    half_scores   TEXT    NOT NULL DEFAULT '',     -- moves the breaker needed, per finished half: '5,4,11'
    winner        TEXT    CHECK (winner IN ('a', 'b', 'draw')),
    ended_by      INTEGER,                         -- who quit (a forfeit) or ended it
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    ended_at      REAL,
    board_message_id INTEGER,
    opened_by_interaction INTEGER,
    accepted_by_interaction INTEGER,
    ended_by_interaction INTEGER
);

-- One running (or invited) match per channel; a running game is checked by the code.
CREATE UNIQUE INDEX matches_one_running_per_channel ON matches (channel_id)
    WHERE status IN ('invited', 'active');
CREATE INDEX matches_by_channel ON matches (channel_id, id);
CREATE UNIQUE INDEX matches_opened_once ON matches (opened_by_interaction)
    WHERE opened_by_interaction IS NOT NULL;
CREATE UNIQUE INDEX matches_accepted_once ON matches (accepted_by_interaction)
    WHERE accepted_by_interaction IS NOT NULL;
CREATE UNIQUE INDEX matches_ended_once ON matches (ended_by_interaction)
    WHERE ended_by_interaction IS NOT NULL;

-- A game that is a half-round of a match, and a breaker game whose secret a person set
-- (a match against a person, or /mastermind new setter:me): the setter may not guess.
ALTER TABLE games ADD COLUMN match_id INTEGER REFERENCES matches (id);
ALTER TABLE games ADD COLUMN match_half INTEGER;
ALTER TABLE games ADD COLUMN setter_id INTEGER;
CREATE UNIQUE INDEX games_one_per_half ON games (match_id, match_half)
    WHERE match_id IS NOT NULL AND status != 'quit';

-- Per-player results of finished matches (the games table's results hold games only).
--   won = this player's side won; guesses = points: 2 a win, 1 a draw, 0 a loss, so the
--   standings' average is points per match and draws = guesses - 2 * won.
CREATE TABLE match_results (
    match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    guild_id INTEGER,
    mode     TEXT    NOT NULL CHECK (mode IN ('match-bot', 'match-people')),
    size     TEXT    NOT NULL,
    won      INTEGER NOT NULL CHECK (won IN (0, 1)),
    guesses  INTEGER NOT NULL CHECK (guesses IN (0, 1, 2)),
    ended_at REAL    NOT NULL,
    day      TEXT    NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX match_results_by_user ON match_results (user_id, size);
CREATE INDEX standings_match_rank
    ON standings (mode, size, scope, period, won DESC, average DESC, user_id)
    WHERE mode IN ('match-bot', 'match-people');
