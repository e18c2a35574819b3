-- /challenge: the bot breaks a code the player keeps to themself. The bot's guesses and the
-- player's replies are kept in order; a take-back marks a reply, never deletes it.
ALTER TABLE games ADD COLUMN strategy TEXT;
ALTER TABLE games ADD COLUMN seed INTEGER NOT NULL DEFAULT 0;

CREATE TABLE challenge_replies (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL CHECK (turn >= 1),
    guess        TEXT    NOT NULL,
    black        INTEGER NOT NULL CHECK (black >= 0),
    white        INTEGER NOT NULL CHECK (white >= 0),
    player_id    INTEGER NOT NULL,
    created_at   REAL    NOT NULL,
    taken_back_at REAL
);

-- At most one standing reply per turn: a taken-back reply makes room for the new one.
CREATE UNIQUE INDEX challenge_replies_one_per_turn
    ON challenge_replies (game_id, turn) WHERE taken_back_at IS NULL;
