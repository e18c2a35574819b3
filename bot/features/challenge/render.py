"""The challenge board: its embed and its buttons, pure functions of a ChallengeState."""

from __future__ import annotations

import discord

from engine import DEFAULT_STRATEGY, Feedback, get_strategy, possible_feedbacks

from ...core.enums import GameStatus
from ...ui.messages import guesses, mention
from ...ui.pegs import BLACK_PEG, WHITE_PEG, code_line, feedback_row
from ..analysis.buttons import analyse_view
from .buttons import Action, ChallengeButton
from .service import ChallengeState

#: One button per possible reply when there are at most this many (4 rows of 5).
MAX_REPLY_BUTTONS = 20


def reply_label(fb: Feedback) -> str:
    return f"{fb.black}B {fb.white}W"


def challenge_view(state: ChallengeState, *, black: int | None = None) -> discord.ui.View | None:
    """The buttons for the board as it stands (None once the challenge is over)."""
    game = state.game
    if not game.active:
        return analyse_view(game)
    view = discord.ui.View(timeout=None)
    if state.pending is not None:
        options = sorted(possible_feedbacks(game.rules, state.pending))
        win = game.rules.pegs
        if len(options) <= MAX_REPLY_BUTTONS or black is not None:
            shown = options if black is None else [o for o in options if o.black == black]
            for i, fb in enumerate(shown):
                style = (discord.ButtonStyle.success if fb.black == win
                         else discord.ButtonStyle.secondary)
                view.add_item(ChallengeButton(Action.REPLY, game.id, state.turn, fb.black,
                                              fb.white, label=reply_label(fb), style=style,
                                              row=i // 5))
            if black is not None:
                view.add_item(ChallengeButton(Action.OTHER_BLACK, game.id, state.turn,
                                              label="← other black",
                                              row=min(len(shown) // 5 + 1, 3)))
        else:
            for i, b in enumerate(sorted({o.black for o in options})):
                view.add_item(ChallengeButton(Action.BLACK, game.id, state.turn, b,
                                              label=f"{b} black", row=i // 5))
    if game.replies:
        view.add_item(ChallengeButton(Action.UNDO, game.id, game.replies[-1].turn,
                                      label="Take back last reply",
                                      style=discord.ButtonStyle.danger, row=4))
    view.add_item(ChallengeButton(Action.REVEAL, game.id, label="Reveal my code",
                                  style=discord.ButtonStyle.primary, row=4))
    return view


def _headline(state: ChallengeState) -> tuple[str, discord.Colour, list[str]]:
    game = state.game
    player = mention(game.started_by)
    used = len(game.replies)
    if game.status is GameStatus.WON:
        return (f"I broke your code in {guesses(used)}!", discord.Colour.green(),
                [f"{player}'s code was {code_line(game.replies[-1].guess)}."])
    if game.status is GameStatus.LOST:
        return ("You win: I couldn't break your code", discord.Colour.gold(),
                [f"{player} kept me guessing for all {guesses(game.rules.max_guesses)}."])
    if state.mistakes is not None and game.secret:
        parts = [f"{player}'s code was {code_line(game.secret)}."]
        if state.mistakes:
            parts.append("These replies were wrong:")
            parts.extend(
                f"• guess {m.turn} {code_line(m.guess)}: you said **{m.given.black}**B "
                f"**{m.given.white}**W, the right reply was **{m.correct.black}**B "
                f"**{m.correct.white}**W"
                for m in state.mistakes
            )
        else:
            parts.append("Every reply was right.")
        return "Code revealed", discord.Colour.dark_grey(), parts
    if not game.active:
        return "Challenge ended", discord.Colour.dark_grey(), []
    if state.inconsistent:
        return ("Your replies contradict each other", discord.Colour.orange(), [
            "No code fits all of them, so one reply is wrong. **Take back** the last reply, "
            "or **reveal** your code and I'll show which one."])
    assert state.pending is not None
    return ("Challenge: I'm breaking your code", discord.Colour.blurple(), [
        f"{player} thought of a code.\n**My guess {state.turn}:** {code_line(state.pending)}\n"
        f"How many **black** (right colour, right place) and **white** (right colour, "
        f"wrong place)? Answer with the buttons or `/feedback black white`."])


def challenge_embed(state: ChallengeState) -> discord.Embed:
    game = state.game
    rules = game.rules
    title, colour, parts = _headline(state)
    rows = [feedback_row(r.turn, r.guess, r.feedback, rules) for r in game.replies]
    if game.active and not state.inconsistent and game.codes_left is not None:
        left = game.codes_left
        parts.append(f"{left:,} {'code fits' if left == 1 else 'codes fit'} your replies so "
                     f"far · thought for {state.think_seconds * 1000:.0f} ms")
    description = "\n\n".join(p for p in ("\n".join(rows), "\n".join(parts)) if p)
    embed = discord.Embed(title=title, description=description or None, colour=colour)
    strategy = get_strategy(game.strategy or DEFAULT_STRATEGY)
    embed.add_field(name="Strategy", value=f"`{strategy.name}`: {strategy.description}",
                    inline=False)
    embed.add_field(name="Rules", value=rules.describe(), inline=True)
    embed.add_field(name="Guesses left", value=f"{rules.max_guesses - len(game.replies)}",
                    inline=True)
    embed.set_footer(text=f"Challenge #{game.id} · {BLACK_PEG} black = right colour, right "
                          f"place · {WHITE_PEG} white = right colour, wrong place")
    return embed


def ended_embed(state: ChallengeState, ended_by: int) -> discord.Embed:
    """Said in the channel when someone ends a challenge with ``/mastermind quit``."""
    game = state.game
    who = ("ended their challenge" if ended_by == game.started_by
           else f"ended {mention(game.started_by)}'s challenge")
    return discord.Embed(title="Challenge ended", description=f"{mention(ended_by)} {who}.",
                         colour=discord.Colour.dark_grey())
