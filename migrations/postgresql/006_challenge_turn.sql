-- A challenge's turn as the board shows it, so a reply is checked in one read, without the
-- solver: the guess waiting for a reply, how many codes fit the standing replies, and the
-- interaction that put the guess on the board (a /feedback created before it is stale).
ALTER TABLE games ADD COLUMN pending_guess TEXT;
ALTER TABLE games ADD COLUMN codes_left BIGINT;
ALTER TABLE games ADD COLUMN turn_opened_by BIGINT;
