-- "The latest game in this channel" (a guess arriving just after a win) without scanning
-- every game: the one-active-game index only covers running games.
CREATE INDEX games_by_channel ON games (channel_id, id);
