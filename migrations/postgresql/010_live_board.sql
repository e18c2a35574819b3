-- One live board per game: how many moves the board message shows, so a board for an
-- earlier move never replaces a later one (two /guess answered out of order).
ALTER TABLE games ADD COLUMN board_turn BIGINT;
