-- Games and their guesses. One running game per channel, enforced by a partial unique index.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,                         -- NULL outside a server
    channel_id    INTEGER NOT NULL,
    kind          TEXT    NOT NULL DEFAULT 'breaker' CHECK (kind IN ('breaker', 'challenge')),
    pegs          INTEGER NOT NULL CHECK (pegs BETWEEN 2 AND 8),
    colors        INTEGER NOT NULL CHECK (colors BETWEEN 2 AND 9),
    max_guesses   INTEGER NOT NULL CHECK (max_guesses BETWEEN 1 AND 20),
    repeats       INTEGER NOT NULL CHECK (repeats IN (0, 1)),
    secret        TEXT,                            -- digits; a challenge's is NULL until revealed
    status        TEXT    NOT NULL DEFAULT 'active'
                  CHECK (status IN ('active', 'won', 'lost', 'quit', 'abandoned')),
    started_by    INTEGER NOT NULL,
    winner_id     INTEGER,
    created_at    REAL    NOT NULL,                -- unix seconds, UTC
    updated_at    REAL    NOT NULL,
    ended_at      REAL
);

CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_guild_status ON games (guild_id, status, ended_at);

CREATE TABLE guesses (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL CHECK (turn >= 1),
    player_id  INTEGER NOT NULL,
    code       TEXT    NOT NULL,
    black      INTEGER NOT NULL CHECK (black >= 0),
    white      INTEGER NOT NULL CHECK (white >= 0),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, turn)
);

CREATE INDEX guesses_by_player ON guesses (player_id, game_id);
