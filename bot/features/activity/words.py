"""Every word the Activity shows, client and server alike, in the catalogs' area ``activity``:
the client gets them in its reader's language with ``/api/state`` (``words``, by key), and
the server's refusals carry theirs (``error.message``, by the refusal's code).

``{name}`` placeholders are filled in by whoever shows the words (the client, for its own).
"""

from __future__ import annotations

from i18n import catalog_locale, mark
from i18n.catalogs import lookup

#: What the client shows, by key (the client reads only these keys).
CLIENT: dict[str, str] = {
    "title": mark("Mastermind"),
    "modes": mark("Games"),
    "mode_channel": mark("This channel's game"),
    "mode_daily": mark("Daily code"),
    "mode_puzzle": mark("Puzzle of the day"),
    "mode_private": mark("Your private game"),
    "mode_challenge": mark("Challenge"),
    "connecting": mark("Connecting…"),
    "live": mark("Live"),
    "offline": mark("Connection lost: reconnecting…"),
    "signin_failed": mark("Signing in did not work: {reason}"),
    "server_error": mark("Something went wrong (error {status}). Try again."),
    "players": mark("Playing here"),
    "you": mark("you"),
    "by": mark("by {name}"),
    "by_you": mark("by you"),
    "moved": mark("{name} guessed {code}"),
    "replied": mark("{name} answered {black} black, {white} white"),
    "no_game": mark("No game yet: start one."),
    "busy": mark("Another kind of game is running in this channel: play it in the chat."),
    "new_game": mark("New game"),
    "give_up": mark("Give up"),
    "give_up_sure": mark("Give up? Tap again to end the game"),
    "start": mark("Start the game"),
    "pegs": mark("Pegs"),
    "colors": mark("Colours"),
    "max_guesses": mark("Guesses allowed"),
    "repeats": mark("Colours may repeat"),
    "turn": mark("Guess {n} of {max}"),
    "row": mark("Guess {n}"),
    "place": mark("Place {n}"),
    "empty": mark("empty"),
    "colour_key": mark("Colours"),
    "key": mark("Black key peg: right colour, right place. White key peg: right colour, "
                "wrong place."),
    "black": mark("{count} black"),
    "white": mark("{count} white"),
    "guess": mark("Guess"),
    "delete": mark("Take back a peg"),
    "clear": mark("Clear"),
    "sending": mark("Sending…"),
    "need_pegs": mark("Place {count} more pegs first."),
    "keys_help": mark("Keys: digits or colour letters, Backspace to take back a peg, Enter "
                      "to guess."),
    "secret": mark("The code:"),
    "won": mark("Cracked!"),
    "won_by": mark("{name} cracked the code."),
    "lost": mark("Out of guesses."),
    "ended": mark("Game over."),
    "streak": mark("Streak: {current} (best {longest})"),
    "daily_done": mark("You have played today's code. A new one comes at midnight UTC."),
    "clues": mark("Clues"),
    "puzzle_prompt": mark("Name the one code that fits every clue. You have one try."),
    "answer": mark("Answer"),
    "solved": mark("Solved!"),
    "missed": mark("Missed."),
    "challenge_intro": mark("Think of a code and keep it to yourself. The bot guesses; "
                            "answer with its key pegs: how many are black, how many white."),
    "bot_guesses": mark("The bot's guess"),
    "reply": mark("Answer"),
    "reply_black": mark("Black key pegs"),
    "reply_white": mark("White key pegs"),
    "codes_left": mark("Codes that still fit: {count}"),
    "bot_won": mark("The bot cracked your code."),
    "bot_lost": mark("The bot ran out of guesses: you win."),
    "contradiction": mark("No code fits all your answers: one of them is wrong."),
}

#: What a refusal says, by its code (:class:`~.errors.ActivityError`).
ERRORS: dict[str, str] = {
    "bad_request": mark("That request could not be read. Reload the Activity and try again."),
    "too_big": mark("That request is too large."),
    "bad_code": mark("Discord did not accept the sign-in. Close the Activity and open it "
                     "again."),
    "bad_token": mark("Your sign-in has expired or is not valid. Close the Activity and open "
                      "it again."),
    "no_instance": mark("This Activity has ended. Open it again from the channel."),
    "not_in_instance": mark("You are not in this Activity. Join it from the channel first."),
    "not_here": mark("That can't be played here. Choose another game from the menu."),
    "not_your_game": mark("That game is not yours, or not this channel's."),
    "stale": mark("Someone moved first: the board shows it now. Have a look, then play "
                  "again."),
    "too_many": mark("Too many requests. Wait a moment and try again."),
    "discord_unreachable": mark("Discord is not answering right now. Try again in a moment."),
    "not_found": mark("There is nothing at that address."),
    "server_error": mark("Something went wrong on our side, and nothing was changed. Try "
                         "again."),
    "closing": mark("The bot is restarting. Try again in a moment."),
}


def reader_locale(discord_locale: str | None) -> str | None:
    """The catalog a Discord locale reads (None: English)."""
    return catalog_locale(discord_locale)


def _said(text: str, locale: str | None) -> str:
    """One of the words marked above, in ``locale`` (English where it has none): looked up
    as ``tr`` does, by its English source, for a whole table at once."""
    return (lookup(locale, None, text) if locale else None) or text


def client_words(locale: str | None) -> dict[str, str]:
    """Every client word in ``locale`` (a catalog locale; None: English)."""
    return {key: _said(text, locale) for key, text in CLIENT.items()}


def error_words(code: str, locale: str | None) -> str:
    return _said(ERRORS.get(code, ERRORS["server_error"]), locale)
