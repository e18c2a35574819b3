-- The language of a server's public boards, set in /mastermind settings: a catalog locale
-- such as 'de' or 'ja' ('en' for English); NULL = the server's own locale, as Discord reports
-- it. Not checked against a list here: a locale shipped later needs no migration (the bot
-- reads an unknown value as NULL).
ALTER TABLE server_settings ADD COLUMN language TEXT;
