-- The daily cap per pair is read from rating_changes (each player's rated games, by player
-- and time: rating_changes_by_player): two players' rated games together today are the
-- games where both have a rated change. rating_pairs held the same counts a second time,
-- written at every rated game (a row per pair: 300 for a race of 25).
DROP TABLE rating_pairs;
