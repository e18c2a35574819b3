-- The pegs' application emoji each running version shows: its name (colour and drawing
-- hash, as bot/ui/app_emoji.py names it) and when a version last said it shows it (at each
-- start and daily while it runs; unix seconds). An older drawing is deleted from Discord
-- only when no version has shown it for 7 days, so a rolling deploy or a rollback never
-- blanks the boards an older version still posts.
CREATE TABLE emoji_use (
    name      TEXT PRIMARY KEY,
    last_used DOUBLE PRECISION NOT NULL
);
