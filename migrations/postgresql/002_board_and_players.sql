-- Which message shows a game's board (so later commands can link to it), and the last
-- display name seen for each player (leaderboards across servers can't rely on mentions).
ALTER TABLE games ADD COLUMN board_message_id BIGINT;

CREATE TABLE players (
    user_id      BIGINT PRIMARY KEY,
    display_name TEXT NOT NULL,
    updated_at   DOUBLE PRECISION NOT NULL
);
