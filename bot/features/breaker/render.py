"""Breaker boards and the help page. Pure functions of stored games: easy to test."""

from __future__ import annotations

import discord

from engine import Feedback, Rules, example

from ...core.enums import GameStatus
from ...core.records import GameRecord
from ...ui.messages import guesses, mention
from ...ui.pegs import BLACK_PEG, WHITE_PEG, code_line, feedback_row, legend, pegs

COLOURS = {
    GameStatus.ACTIVE: discord.Colour.blurple(),
    GameStatus.WON: discord.Colour.green(),
    GameStatus.LOST: discord.Colour.red(),
    GameStatus.QUIT: discord.Colour.dark_grey(),
    GameStatus.ABANDONED: discord.Colour.dark_grey(),
}


def board_embed(game: GameRecord, *, note: str | None = None) -> discord.Embed:
    rules = game.rules
    title, description = _headline(game)
    rows = [f"{feedback_row(g.turn, g.code, g.feedback, rules)} · {mention(g.player_id)}"
            for g in game.guesses]
    body = "\n".join(rows) if rows else (
        f"*No guesses yet.* Be the first: `/guess {example(rules)}`")
    body = "\n\n".join(part for part in (note, description, body) if part)
    embed = discord.Embed(title=title, description=body, colour=COLOURS[game.status])
    embed.add_field(
        name="Guesses left", value=f"{game.guesses_left} of {rules.max_guesses}", inline=True
    )
    embed.add_field(name="Rules", value=rules.describe(), inline=True)
    embed.add_field(name="Colours", value=legend(rules), inline=False)
    embed.set_footer(
        text=(
            f"Game #{game.id} · {BLACK_PEG} right colour, right place · {WHITE_PEG} right "
            f"colour, wrong place"
            + (f" · guess with /guess {example(rules)}" if game.active else "")
        )
    )
    return embed


def _headline(game: GameRecord) -> tuple[str, str]:
    n = game.turns_used
    secret = code_line(game.secret) if game.secret else "?"
    match game.status:
        case GameStatus.ACTIVE:
            return "Mastermind: break the code!", (
                f"I picked a secret code of {game.rules.pegs} pegs. Anyone here can guess.")
        case GameStatus.WON:
            return f"Code broken in {guesses(n)}!", (
                f"{mention(game.winner_id or 0)} found {secret} on turn {n}.")
        case GameStatus.LOST:
            return "Out of guesses: the code wins", f"The code was {secret}."
        case GameStatus.QUIT:
            return "Game ended", f"The code was {secret}."
    return "Game abandoned", f"Nobody moved for a long time. The code was {secret}."


def help_embed() -> discord.Embed:
    rules = Rules()
    embed = discord.Embed(
        title="How to play Mastermind",
        colour=discord.Colour.blurple(),
        description=(
            "I pick a secret code of coloured pegs; you find it by guessing. After each guess I "
            "answer with pegs:\n"
            f"{BLACK_PEG} **black**: a right colour in the right place\n"
            f"{WHITE_PEG} **white**: a right colour in the wrong place\n"
            "Each peg of the code is counted once."
        ),
    )
    embed.add_field(
        name="Example",
        value=(
            f"Code {code_line((2, 5, 3, 2))}, guess {code_line((3, 5, 2, 3))}\n"
            f"→ {pegs(Feedback(1, 2), 4)} 1 black (the 5), 2 white (a 3 and a 2)"
        ),
        inline=False,
    )
    embed.add_field(
        name="Commands",
        value=(
            "`/mastermind new` start a game here (choose pegs, colours, guesses, repeats)\n"
            "`/guess 1123` guess: anyone in the channel can play\n"
            "`/mastermind board` show the board · `/mastermind quit` give up\n"
            "`/challenge` the bot breaks *your* code, you answer with buttons or `/feedback`\n"
            "`/leaderboard` and `/stats` · `/mastermind forget-me` deletes your data"
        ),
        inline=False,
    )
    embed.add_field(
        name="Typing a code",
        value=(
            "Digits `1123`, with spaces or dashes `1 1 2 3`, letters `RROY` or the emoji.\n"
            + legend(Rules(colors=9))
        ),
        inline=False,
    )
    embed.set_footer(text=f"Classic game: {rules.describe()}")
    return embed
