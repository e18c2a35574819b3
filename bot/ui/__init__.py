"""Discord-facing pieces every feature shares: replies and error reporting, the words for
domain errors, slash-command options and the pegs."""
