-- Exactly once: every stored action records the interaction that caused it, and a unique
-- key refuses a second one (the same interaction delivered twice, a replay).
ALTER TABLE games ADD COLUMN opened_by_interaction BIGINT;
ALTER TABLE games ADD COLUMN ended_by_interaction BIGINT;
ALTER TABLE guesses ADD COLUMN interaction_id BIGINT;
ALTER TABLE challenge_replies ADD COLUMN interaction_id BIGINT;
ALTER TABLE challenge_replies ADD COLUMN taken_back_by BIGINT;

CREATE UNIQUE INDEX games_opened_once ON games (opened_by_interaction)
    WHERE opened_by_interaction IS NOT NULL;
CREATE UNIQUE INDEX games_ended_once ON games (ended_by_interaction)
    WHERE ended_by_interaction IS NOT NULL;
CREATE UNIQUE INDEX guesses_once ON guesses (interaction_id) WHERE interaction_id IS NOT NULL;
CREATE UNIQUE INDEX replies_once ON challenge_replies (interaction_id)
    WHERE interaction_id IS NOT NULL;
CREATE UNIQUE INDEX take_backs_once ON challenge_replies (taken_back_by)
    WHERE taken_back_by IS NOT NULL;
