"""Breaker boards and the help page. Pure functions of stored games: easy to test.

One live board per game: the board opens with the rules and the colour key once; after
that it is its rows, compact enough for a phone; the board a move replaced collapses to
that move's one line (:func:`collapsed_line`). A finished board leads with who cracked it,
and carries a spoiler-free grid to share and a "Play again" button.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from engine import Feedback, Rules, example

from ...core.enums import GameStatus
from ...core.records import GameRecord, GuessRecord
from ...ui.messages import guesses, mention, player_name
from ...ui.pegs import (
    BLACK_PEG,
    WHITE_PEG,
    code_line,
    feedback_row,
    key_pegs,
    legend,
    name_width,
    pegs,
    share_row,
)
from ..analysis.render import LUCK_HELP, SKILL_HELP

COLOURS = {
    GameStatus.ACTIVE: discord.Colour.blurple(),
    GameStatus.WON: discord.Colour.green(),
    GameStatus.LOST: discord.Colour.red(),
    GameStatus.QUIT: discord.Colour.dark_grey(),
    GameStatus.ABANDONED: discord.Colour.dark_grey(),
}
CELEBRATE = "\N{PARTY POPPER}"
HINT_MARK = "\N{ELECTRIC LIGHT BULB}"
KEY = f"`{BLACK_PEG}` right colour, right place · `{WHITE_PEG}` right colour, wrong place"


def hinted_note(hints: int) -> str:
    return f"{hints} used: this crack won't count on the leaderboards"


def _who(g: GuessRecord, rules: Rules, names: Mapping[int, str] | None) -> str:
    """A short escaped name (a mention when the caller has no names to hand)."""
    if names is None:
        return mention(g.player_id)
    name = names.get(g.player_id)
    return player_name(name, name_width(rules)) if name else "someone"


def rows(game: GameRecord, names: Mapping[int, str] | None) -> str:
    rules = game.rules
    return "\n".join(feedback_row(g.turn, g.code, g.feedback, rules, _who(g, rules, names))
                     for g in game.guesses)


def board_embed(game: GameRecord, *, note: str | None = None,
                names: Mapping[int, str] | None = None) -> discord.Embed:
    """The whole board as it stands; ``names`` are the players' display names by id."""
    rules = game.rules
    title, headline = _headline(game)
    if game.active and not game.guesses:
        parts = [note, headline, f"After each guess I answer with key pegs: {KEY}.",
                 f"**Colours** {legend(rules)}"]
    else:
        parts = [note, None if game.active else headline, rows(game, names)]
        if not game.active and game.guesses:
            parts.append(share_grid(game))
    embed = discord.Embed(title=title, description="\n\n".join(p for p in parts if p),
                          colour=COLOURS[game.status])
    if game.hints:
        embed.add_field(name="Hints", value=hinted_note(game.hints), inline=True)
    embed.set_footer(text=_footer(game))
    return embed


def game_label(game: GameRecord) -> str:
    """``Game #12``, or ``Private game #12``: the one only its player sees."""
    return f"{'Private game' if game.private else 'Game'} #{game.id}"


def _footer(game: GameRecord) -> str:
    rules = game.rules
    if not game.active:
        return f"{game_label(game)} · {rules.describe()}"
    if not game.guesses:
        return f"{game_label(game)} · {guesses(rules.max_guesses)} · /mastermind help"
    return (f"{game_label(game)} · {game.guesses_left} of {rules.max_guesses} guesses left · "
            f"{BLACK_PEG} right place · {WHITE_PEG} wrong place · /guess {example(rules)}")


def _setter(game: GameRecord) -> str:
    return "I picked" if game.setter_id is None else f"{mention(game.setter_id)} set"


def _guessers(game: GameRecord) -> str:
    """Who may guess: anyone here, but only the breaker of a match's half-round, and never
    the person who set the code."""
    if game.private:
        return "It's your private game, seen by you alone"
    if game.match_id is not None:
        return f"Only {mention(game.started_by)} guesses"
    return "Anyone here can guess" if game.setter_id is None else "Anyone but the setter can guess"


def _headline(game: GameRecord) -> tuple[str, str]:
    n = game.turns_used
    rules = game.rules
    secret = code_line(game.secret) if game.secret else "?"
    match game.status:
        case GameStatus.ACTIVE:
            repeats = "colours may repeat" if rules.repeats else "no colour twice"
            title = "Your private game: break the code!" if game.private else \
                "Mastermind: break the code!"
            return title, (
                f"{_setter(game)} a secret code of **{rules.pegs} pegs** from **{rules.colors} "
                f"colours** ({repeats}). {_guessers(game)}: `/guess {example(rules)}`, "
                f"{guesses(rules.max_guesses)} in all.")
        case GameStatus.WON:
            return f"Code broken in {guesses(n)}!", (
                f"{CELEBRATE} {mention(game.winner_id or 0)} cracked it on guess {n} of "
                f"{rules.max_guesses}. The code was {secret}.")
        case GameStatus.LOST:
            return "Out of guesses: the code wins", (
                f"Nobody cracked it in {guesses(rules.max_guesses)}. The code was {secret}.")
        case GameStatus.QUIT:
            return "Game ended", f"The code was {secret}."
    return "Game abandoned", f"Nobody moved for a long time. The code was {secret}."


def share_grid(game: GameRecord) -> str:
    """The result as plain characters anyone can paste anywhere: one row of key pegs per
    guess, no colours, so it gives nothing away."""
    rules = game.rules
    score = f"{game.turns_used}/{rules.max_guesses}" if game.status is GameStatus.WON \
        else f"X/{rules.max_guesses}"
    size = f"{rules.pegs}x{rules.colors}" + ("" if rules.repeats else " no-repeats")
    lines = [f"Mastermind {size} {score}"]
    lines += [share_row(g.feedback, rules.pegs) for g in game.guesses]
    return "```\n" + "\n".join(lines) + "\n```"


def collapsed_line(game: GameRecord, turn: int, names: Mapping[int, str] | None = None) -> str:
    """What a replaced board shrinks to: the move it answered, on one line (the board
    itself lives on in the newest message)."""
    if turn <= 0 or turn > len(game.guesses):
        return f"Game #{game.id} started: {game.rules.describe()}. The board is below."
    g = game.guesses[turn - 1]
    who = _who(g, game.rules, names)
    return f"`{g.turn:>2}` {code_line(g.code)} {key_pegs(g.feedback)} {who}"


def help_embed() -> discord.Embed:
    rules = Rules()
    embed = discord.Embed(
        title="How to play Mastermind",
        colour=discord.Colour.blurple(),
        description=(
            "I pick a secret code of coloured pegs; you find it by guessing. After each guess I "
            "answer with key pegs:\n"
            f"`{BLACK_PEG}` **black**: a right colour in the right place\n"
            f"`{WHITE_PEG}` **white**: a right colour in the wrong place\n"
            "Each peg of the code is counted once. A row reads: turn, your guess (with its "
            "digits), the key pegs, who guessed."
        ),
    )
    embed.add_field(
        name="Example",
        value=(
            f"Code {code_line((2, 5, 3, 2))}, guess {code_line((3, 5, 2, 3))}\n"
            f"→ `{pegs(Feedback(1, 2), 4)}` written `1{BLACK_PEG}2{WHITE_PEG}`: 1 black "
            f"(the 5), 2 white (a 3 and a 2)"
        ),
        inline=False,
    )
    embed.add_field(
        name="Commands",
        value=(
            "`/mastermind new` start a game here (choose pegs, colours, guesses, repeats)\n"
            "`/guess 1123` guess: anyone in the channel can play\n"
            "`/mastermind new private:True` a game only you see, here or in a DM with me\n"
            "`/mastermind board` show the board · `/mastermind quit` give up\n"
            "`/challenge` the bot breaks *your* code, you answer with buttons or `/feedback`\n"
            "`/leaderboard` and `/stats` · `/mastermind forget-me` deletes your data\n"
            "`/daily play` today's code, the same for everyone, once a day · `/daily share`\n"
            "`/mastermind hint` a hint for everyone here (the crack then won't rank)\n"
            "`/mastermind settings` this server's settings (Manage Server)"
        ),
        inline=False,
    )
    embed.add_field(
        name="Analyse: skill and luck",
        value=f"Every finished game has an **Analyse** button.\n{SKILL_HELP}\n{LUCK_HELP}",
        inline=False,
    )
    embed.add_field(
        name="Typing a code",
        value=(
            "Digits `1123`, with spaces or dashes `1 1 2 3`, letters `RROY`, or pegs copied "
            "from a board.\n"
            + legend(Rules(colors=9))
        ),
        inline=False,
    )
    embed.set_footer(text=f"Classic game: {rules.describe()}")
    return embed
