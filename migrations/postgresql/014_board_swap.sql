-- The board the live one replaced (its message and how many moves it shows): a board swap
-- is then one UPDATE that says which board to shrink (it reads the row it writes), so it
-- needs no transaction and no lock beyond the game's row.
ALTER TABLE games ADD COLUMN board_replaced_id BIGINT;
ALTER TABLE games ADD COLUMN board_replaced_turn BIGINT;
