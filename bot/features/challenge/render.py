"""The challenge board: its embed and its buttons, pure functions of a ChallengeState.

The guess to answer comes first and large, with the colour key under it; the replies so far
follow. Reply buttons sit one black count to a row (the winning reply green); when that
can't fit Discord's rows, the reply takes two steps (black count, then white), and the board
says which step it is on. Take-back is harmless (grey); revealing ends the game (red).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from engine import DEFAULT_STRATEGY, Feedback, Rules, get_strategy, possible_feedbacks

from ...core.enums import GameStatus
from ...core.records import GameRecord
from ...ui.messages import guesses, mention
from ...ui.pegs import BLACK_PEG, LARGE_ROW, WHITE_PEG, code_line, feedback_row, legend
from ..analysis.buttons import analyse_view
from ..breaker.buttons import AGAIN
from .buttons import Action, ChallengeButton
from .service import ChallengeState

#: Button rows a message may have, and buttons per row (Discord's limits).
ROWS, ROW_WIDTH = 5, 5


def reply_label(fb: Feedback) -> str:
    return f"{fb.black}B {fb.white}W"


def reply_rows(options: Sequence[Feedback]) -> list[list[Feedback]] | None:
    """The replies in rows, one black count to a row (two small counts may share one), or
    None when that needs more than the rows left beside the take-back/reveal row."""
    rows: list[list[Feedback]] = []
    for black in sorted({o.black for o in options}):
        group = [o for o in options if o.black == black]
        if len(group) > ROW_WIDTH:
            return None
        if rows and len(rows[-1]) + len(group) <= ROW_WIDTH and len(rows[-1]) < 3:
            rows[-1].extend(group)
        else:
            rows.append(group)
    return rows if len(rows) <= ROWS - 1 else None


def two_step(state: ChallengeState) -> bool:
    """Does answering the pending guess take two steps (black count, then white)?"""
    if state.pending is None:
        return False
    return reply_rows(sorted(possible_feedbacks(state.game.rules, state.pending))) is None


def challenge_view(state: ChallengeState, *, black: int | None = None) -> discord.ui.View | None:
    """The buttons for the board as it stands (once over: the finished game's buttons)."""
    game = state.game
    if not game.active:
        return play_again_view(game, analyse_view(game))
    view = discord.ui.View(timeout=None)
    if state.pending is not None:
        _reply_buttons(view, state, black)
    if game.replies:
        view.add_item(ChallengeButton(Action.UNDO, game.id, game.replies[-1].turn,
                                      label="Take back last reply",
                                      style=discord.ButtonStyle.secondary, row=ROWS - 1))
    view.add_item(ChallengeButton(Action.REVEAL, game.id, label="Reveal my code",
                                  style=discord.ButtonStyle.danger, row=ROWS - 1))
    return view


def play_again_view(game: GameRecord, view: discord.ui.View | None) -> discord.ui.View | None:
    """A finished challenge's "Play again" (the same rules and strategy), added to ``view``;
    none for a match's half-round, which its match continues."""
    if game.active or game.match_id is not None:
        return view
    view = view or discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(Action.AGAIN, game.id, label="Play again", emoji=AGAIN,
                                  style=discord.ButtonStyle.primary))
    return view


def _reply_buttons(view: discord.ui.View, state: ChallengeState, black: int | None) -> None:
    game = state.game
    assert state.pending is not None
    options = sorted(possible_feedbacks(game.rules, state.pending))
    rows = reply_rows(options)
    if rows is None and black is None:  # step 1: the black count
        for i, b in enumerate(sorted({o.black for o in options})):
            view.add_item(ChallengeButton(Action.BLACK, game.id, state.turn, b,
                                          label=f"{b} black", row=i // ROW_WIDTH))
        return
    if rows is None:  # step 2: the white count, for the black count picked
        shown = [o for o in options if o.black == black]
        rows = [shown[i:i + ROW_WIDTH - 1] for i in range(0, len(shown), ROW_WIDTH - 1)]
        view.add_item(ChallengeButton(Action.OTHER_BLACK, game.id, state.turn,
                                      label="\N{LEFTWARDS ARROW} other black", row=0))
    for r, row in enumerate(rows):
        for fb in row:
            style = (discord.ButtonStyle.success if fb.black == game.rules.pegs
                     else discord.ButtonStyle.secondary)
            view.add_item(ChallengeButton(Action.REPLY, game.id, state.turn, fb.black,
                                          fb.white, label=reply_label(fb), style=style,
                                          row=r))


def strategy_line(name: str | None, rules: Rules) -> str:
    """The strategy and its idea; a figure quoted for another size is left out (Knuth's
    "at most 5 guesses at 4x6" says nothing about 8x9)."""
    strategy = get_strategy(name or DEFAULT_STRATEGY)
    size = f"{rules.pegs}x{rules.colors}"
    description = strategy.description
    for claim in re.findall(r"\s*\([^)]*\bat (\d+x\d+)\)", description):
        if claim != size or not rules.repeats:
            description = re.sub(rf"\s*\([^)]*\bat {claim}\)", "", description)
    return f"`{strategy.name}`: {description}"


def _big(code_text: str, rules: Rules) -> str:
    return f"{'##' if rules.pegs <= LARGE_ROW else '###'} {code_text}"


def _headline(state: ChallengeState, black: int | None
              ) -> tuple[str, discord.Colour, list[str]]:
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
            parts.append("These replies were wrong:\n" + "\n".join(
                f"• guess {m.turn} {code_line(m.guess)}: you said **{m.given.black}**B "
                f"**{m.given.white}**W, the right reply was **{m.correct.black}**B "
                f"**{m.correct.white}**W"
                for m in state.mistakes))
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
    rules = game.rules
    ask = (f"{player}, how many `{BLACK_PEG}` **black** (right colour, right place) and "
           f"`{WHITE_PEG}` **white** (right colour, wrong place)? Press your answer, or "
           f"type `/feedback black white`.")
    if two_step(state):
        ask += ("\n**Step 1 of 2:** press the number of black pegs." if black is None else
                f"\n**Step 2 of 2:** you picked **{black} black**; now press the whites.")
    return (f"My guess {state.turn} of {rules.max_guesses}", discord.Colour.blurple(),
            [_big(code_line(state.pending), rules), ask, f"**Colours** {legend(rules)}"])


def challenge_embed(state: ChallengeState, *, black: int | None = None) -> discord.Embed:
    """The board; ``black``: the black count picked in a two-step reply."""
    game = state.game
    rules = game.rules
    title, colour, parts = _headline(state, black)
    if game.replies:
        rows = "\n".join(feedback_row(r.turn, r.guess, r.feedback, rules)
                         for r in game.replies)
        parts.append(f"**Your replies**\n{rows}" if game.active else rows)
    status = strategy_line(game.strategy, rules)
    if game.active and not state.inconsistent and game.codes_left is not None:
        left = game.codes_left
        status = (f"{left:,} {'code fits' if left == 1 else 'codes fit'} your replies · "
                  + status)
    parts.append(f"-# {status}")
    embed = discord.Embed(title=title, description="\n\n".join(parts), colour=colour)
    left = rules.max_guesses - len(game.replies)
    label = "Private challenge" if game.private else "Challenge"
    embed.set_footer(text=f"{label} #{game.id} · {rules.describe()}"
                          + (f" · {left} of {rules.max_guesses} guesses left"
                             if game.active else ""))
    return embed


def collapsed_line(state: ChallengeState, turn: int) -> str:
    """What a replaced challenge board shrinks to: the reply it was waiting for, or the
    last reply given, on one line (no prompt, no buttons)."""
    game = state.game
    if 0 < turn <= len(game.replies):
        r = game.replies[turn - 1]
        return feedback_row(r.turn, r.guess, r.feedback, game.rules)
    return f"Challenge #{game.id}: an older board. The live one is below."


def ended_embed(state: ChallengeState, ended_by: int) -> discord.Embed:
    """Said in the channel when someone ends a challenge with ``/mastermind quit``."""
    game = state.game
    who = ("ended their challenge" if ended_by == game.started_by
           else f"ended {mention(game.started_by)}'s challenge")
    return discord.Embed(title="Challenge ended", description=f"{mention(ended_by)} {who}.",
                         colour=discord.Colour.dark_grey())
