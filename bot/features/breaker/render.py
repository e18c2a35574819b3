"""Breaker boards. Pure functions of stored games: easy to test.

One live board per game: the board opens with the rules and the colour key once; after
that it is its rows, compact enough for a phone; the board a move replaced collapses to
that move's one line (:func:`collapsed_line`). A finished board leads with who cracked it,
and carries a spoiler-free grid to share and a "Play again" button.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from engine import Rules, example

from ...core.enums import GameStatus
from ...core.records import GameRecord, GuessRecord
from ...ui.messages import guesses, mention, player_name
from ...ui.pegs import (
    BLACK_PEG,
    EMBED_DESCRIPTION_MAX,
    WHITE_PEG,
    code_line,
    feedback_row,
    key_pegs,
    legend,
    name_width,
    rows_within,
    share_rows,
)

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


def rows(game: GameRecord, names: Mapping[int, str] | None,
         budget: int = EMBED_DESCRIPTION_MAX) -> str:
    rules = game.rules
    return rows_within(game.guesses, lambda g: feedback_row(
        g.turn, g.code, g.feedback, rules, _who(g, rules, names)), budget)


def board_embed(game: GameRecord, *, note: str | None = None,
                names: Mapping[int, str] | None = None) -> discord.Embed:
    """The whole board as it stands; ``names`` are the players' display names by id."""
    rules = game.rules
    title, headline = _headline(game)
    if game.active and not game.guesses:
        parts = [note, headline, f"After each guess I answer with key pegs: {KEY}.",
                 f"**Colours** {legend(rules)}"]
    else:
        parts = [note, None if game.active else headline]
        if not game.active and game.guesses:
            parts.append(share_grid(game))
        around = len("\n\n".join(p for p in parts if p)) + 4  # the rows' two separators
        parts.insert(2, rows(game, names, EMBED_DESCRIPTION_MAX - around))
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
    """The result as emoji anyone can paste anywhere: a header, then a line of key pegs per
    guess (folded past :data:`~bot.ui.pegs.SHARE_ROWS`); no colours, so it gives nothing
    away."""
    rules = game.rules
    score = f"{game.turns_used}/{rules.max_guesses}" if game.status is GameStatus.WON \
        else f"X/{rules.max_guesses}"
    size = f"{rules.pegs}x{rules.colors}" + ("" if rules.repeats else " no-repeats")
    rows = share_rows([g.feedback for g in game.guesses], rules.pegs)
    return "\n".join([f"Mastermind {size} {score}", *rows])


def collapsed_line(game: GameRecord, turn: int, names: Mapping[int, str] | None = None) -> str:
    """What a replaced board shrinks to: the move it answered, on one line (the board
    itself lives on in the newest message)."""
    if turn <= 0 or turn > len(game.guesses):
        return f"Game #{game.id} started: {game.rules.describe()}. The board is below."
    g = game.guesses[turn - 1]
    who = _who(g, game.rules, names)
    return f"`{g.turn:>2}` {code_line(g.code)} {key_pegs(g.feedback)} {who}"
