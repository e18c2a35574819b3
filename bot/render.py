"""Embeds for boards and help. Pure functions of stored games: easy to test against limits."""

from __future__ import annotations

import discord

from engine import PALETTE, Feedback, Rules, example, format_code, format_emoji

from .store import GameRecord, GuessRecord

BLACK_PEG = "\N{BLACK LARGE SQUARE}"
WHITE_PEG = "\N{WHITE LARGE SQUARE}"
NO_PEG = "\N{WHITE SMALL SQUARE}\ufe0f"

COLOURS = {
    "active": discord.Colour.blurple(),
    "won": discord.Colour.green(),
    "lost": discord.Colour.red(),
    "quit": discord.Colour.dark_grey(),
    "abandoned": discord.Colour.dark_grey(),
}


def pegs(feedback: Feedback, size: int) -> str:
    """``⬛⬛⬜▫️`` for 2 black, 1 white of 4."""
    empty = size - feedback.black - feedback.white
    return BLACK_PEG * feedback.black + WHITE_PEG * feedback.white + NO_PEG * empty


def code_line(code) -> str:
    """Colour emoji with the digits beside them (readable without telling colours apart)."""
    return f"{format_emoji(code)} `{format_code(code)}`"


def guess_row(guess: GuessRecord, rules: Rules) -> str:
    fb = guess.feedback
    return (
        f"`{guess.turn:>2}` {code_line(guess.code)} {pegs(fb, rules.pegs)} "
        f"**{fb.black}**B **{fb.white}**W · <@{guess.player_id}>"
    )


def legend(rules: Rules) -> str:
    return "  ".join(f"{c.digit}{c.emoji}{c.letter}" for c in PALETTE[: rules.colors])


def board_embed(game: GameRecord, *, note: str | None = None) -> discord.Embed:
    rules = game.rules
    title, description = _headline(game)
    rows = [guess_row(g, rules) for g in game.guesses]
    body = "\n".join(rows) if rows else "*No guesses yet.* Be the first: `/guess " + (
        example(rules) + "`"
    )
    if description:
        body = f"{description}\n\n{body}"
    if note:
        body = f"{note}\n\n{body}"
    embed = discord.Embed(title=title, description=body, colour=COLOURS[game.status])
    embed.add_field(
        name="Guesses left", value=f"{game.guesses_left} of {rules.max_guesses}", inline=True
    )
    embed.add_field(name="Rules", value=rules.describe(), inline=True)
    embed.add_field(name="Colours", value=legend(rules), inline=False)
    embed.set_footer(
        text=(
            f"Game #{game.id} · ⬛ right colour, right place · ⬜ right colour, wrong place"
            + (f" · guess with /guess {example(rules)}" if game.active else "")
        )
    )
    return embed


def _headline(game: GameRecord) -> tuple[str, str | None]:
    n = game.turns_used
    secret = code_line(game.secret) if game.secret else "?"
    if game.status == "active":
        return "Mastermind: break the code!", (
            f"I picked a secret code of {game.rules.pegs} pegs. Anyone here can guess."
        )
    if game.status == "won":
        plural = "guess" if n == 1 else "guesses"
        return f"Code broken in {n} {plural}!", (
            f"<@{game.winner_id}> found {secret} on turn {n}."
        )
    if game.status == "lost":
        return "Out of guesses: the code wins", f"The code was {secret}."
    if game.status == "quit":
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
