"""The challenge board, a pure function of a ChallengeState: one Components V2 message.

V2 so the reply buttons sit right under the guess they answer, inside the board: a turn is
the question (with the guess's number), the guess (large), the key pegs explained, the
buttons; the replies so far and a status line follow below them, so the buttons never move
down as the game grows. A turn of 4 pegs fits a 400 px phone screen (640 px) while it shows
up to four replies. A reply button is labelled with the key pegs it gives (``2●1○``, as the
board's rows show them); a line of at most four (four fit a phone inside the board) for each
count of right colours, black and white together, its black count growing along the line
(``3○ 1●2○ 2●1○ 3●``; the winning reply green). When that takes more than four lines (5 pegs
and up), the reply takes two steps, black count then white, and the board says which step
it is on. Take back is harmless (grey); revealing ends the game (red). Every path that edits
the board sends V2 (a message keeps the flag): :func:`challenge_board`, or
:func:`~bot.ui.boards.line_layout`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

import discord

from engine import DEFAULT_STRATEGY, Feedback, Mistake, Rules, get_strategy, possible_feedbacks
from i18n import tr, trc, trn
from i18n.numbers import number

from ...core.enums import GameStatus
from ...core.records import GameRecord
from ...ui import launch
from ...ui.messages import board_link, mention, says
from ...ui.pegs import (
    BLACK_PEG,
    LARGE_ROW,
    V2_TEXT_MAX,
    WHITE_PEG,
    code_line,
    feedback_row,
    key_pegs,
    legend,
    rows_within,
)
from ..analysis.buttons import AnalyseButton
from ..breaker.buttons import AGAIN
from .buttons import Action, ChallengeButton
from .errors import (
    ImpossibleReply,
    NothingToTakeBack,
    NotYourChallenge,
    OutOfDate,
    RepliesContradict,
)
from .service import ChallengeState

#: Buttons on one line of the board: four fit a 400 px phone inside a container.
LINE_WIDTH = 4
#: Lines of reply buttons a one-step reply may take (4 pegs take four: a turn then fits a
#: phone screen; 5 pegs would take seven, so they reply in two steps).
REPLY_LINES = 4
T = TypeVar("T")
COLOURS = {
    GameStatus.WON: discord.Colour.green(),
    GameStatus.LOST: discord.Colour.gold(),
}


def reply_label(fb: Feedback) -> str:
    """The key pegs a reply gives, as a row shows them: ``2●1○``, ``1●``, ``none``."""
    marks = (f"{fb.black}{BLACK_PEG}" if fb.black else "") + (
        f"{fb.white}{WHITE_PEG}" if fb.white else "")
    return marks or trc("a reply with no key pegs", "none")


def _split(group: Sequence[T]) -> list[list[T]]:
    """A black count's replies on as few lines as they need, the lines balanced (3 + 2)."""
    if not group:
        return []
    lines = -(-len(group) // LINE_WIDTH)
    size = -(-len(group) // lines)
    return [list(group[i:i + size]) for i in range(0, len(group), size)]


def reply_lines(options: Sequence[Feedback]) -> list[list[Feedback]] | None:
    """The replies in lines, one count of right colours (black + white) to a line, black
    growing along it (two small counts may share one: ``none 1○ 1●``), or None when that
    takes more than :data:`REPLY_LINES` lines. By count, not by black alone: the five
    replies without a black peg would take two lines of a phone, and 4 pegs five lines."""
    lines: list[list[Feedback]] = []
    for right in sorted({o.black + o.white for o in options}):
        group = sorted((o for o in options if o.black + o.white == right),
                       key=lambda o: o.black)
        if lines and len(lines[-1]) < 3 and len(lines[-1]) + len(group) <= LINE_WIDTH:
            lines[-1].extend(group)
        else:
            lines += _split(group)
    return lines if len(lines) <= REPLY_LINES else None


def two_step(state: ChallengeState) -> bool:
    """Does answering the pending guess take two steps (black count, then white)?"""
    if state.pending is None:
        return False
    return reply_lines(sorted(possible_feedbacks(state.game.rules, state.pending))) is None


def _row(buttons: Sequence[discord.ui.Item]) -> discord.ui.ActionRow:
    row: discord.ui.ActionRow = discord.ui.ActionRow()
    for button in buttons:
        row.add_item(button)
    return row


def _reply_rows(state: ChallengeState, black: int | None) -> list[discord.ui.ActionRow]:
    game = state.game
    assert state.pending is not None
    options = sorted(possible_feedbacks(game.rules, state.pending))
    lines = reply_lines(options)
    if lines is None and black is None:  # step 1: the black count
        counts = sorted({o.black for o in options})
        return [_row([_black_button(state, b, [o for o in options if o.black == b])
                      for b in line])
                for line in _split(counts)]
    rows = []
    if lines is None:  # step 2: the white count, for the black count picked
        lines = _split([o for o in options if o.black == black])
        rows.append(_row([ChallengeButton(Action.OTHER_BLACK, game.id, state.turn,
                                          label=tr("\N{LEFTWARDS ARROW} other black"))]))
    for line in lines:
        rows.append(_row([_reply_button(state, fb) for fb in line]))
    return rows


def _reply_button(state: ChallengeState, fb: Feedback) -> ChallengeButton:
    game = state.game
    return ChallengeButton(Action.REPLY, game.id, state.turn, fb.black, fb.white,
                           label=reply_label(fb),
                           style=(discord.ButtonStyle.success if fb.black == game.rules.pegs
                                  else discord.ButtonStyle.secondary))


def _black_button(state: ChallengeState, black: int, replies: Sequence[Feedback]
                  ) -> ChallengeButton:
    """Step 1's button for a black count: the reply itself when it is the only one with
    that count (7 black of 8 can only be 7●), so it takes one tap, not two."""
    if len(replies) == 1:
        return _reply_button(state, replies[0])
    return ChallengeButton(Action.BLACK, state.game.id, state.turn, black,
                           label=f"{black}{BLACK_PEG}")


def _controls(game: GameRecord) -> discord.ui.ActionRow:
    buttons = []
    if game.replies:
        buttons.append(ChallengeButton(Action.UNDO, game.id, game.replies[-1].turn,
                                       label=tr("Take back"), style=discord.ButtonStyle.secondary))
    buttons.append(ChallengeButton(Action.REVEAL, game.id, label=tr("Reveal my code"),
                                   style=discord.ButtonStyle.danger))
    row = _row(buttons)
    return launch.add_to(row) if game.private else row  # the Activity's challenges


def _finished_row(game: GameRecord) -> discord.ui.ActionRow:
    """Analyse, and "Play again" (the same rules and strategy) unless a match continues."""
    buttons: list[discord.ui.Item] = [AnalyseButton(game_id=game.id)]
    if game.match_id is None:
        buttons.append(ChallengeButton(Action.AGAIN, game.id, label=tr("Play again"), emoji=AGAIN,
                                       style=discord.ButtonStyle.primary))
    return _row(buttons)


def strategy_line(name: str | None, rules: Rules) -> str:
    """The strategy and its idea; a figure quoted for another size is left out (Knuth's
    "at most 5 guesses at 4x6" says nothing about 8x9). Any language quotes it the same
    way: a size like ``4x6`` in brackets."""
    strategy = get_strategy(name or DEFAULT_STRATEGY)
    size = f"{rules.pegs}x{rules.colors}"
    description = tr(strategy.description)
    for claim in _SIZE_CLAIM.finditer(description):
        if claim["size"] != size or not rules.repeats:
            description = description.replace(claim[0], "")
    return f"`{strategy.name}`: {description}"


#: A figure quoted for one size, in brackets: ``(at most 5 guesses at 4x6)``.
_SIZE_CLAIM = re.compile(r"\s*\([^()]*?(?P<size>\d+x\d+)[^()]*\)")


def _big(code_text: str, rules: Rules) -> str:
    return f"{'##' if rules.pegs <= LARGE_ROW else '###'} {code_text}"


def _mistake(mistake: Mistake) -> str:
    return tr("• guess {turn} {code}: you said {given}, the right reply was {right}",
              turn=mistake.turn, code=code_line(mistake.guess), given=key_pegs(mistake.given),
              right=key_pegs(mistake.correct))


def _ended(state: ChallengeState) -> tuple[str, discord.Colour, list[str]]:
    """A finished challenge's title, colour and what it says."""
    game = state.game
    player = mention(game.started_by)
    if game.status is GameStatus.WON:
        return (trn("I broke your code in {count} guess!", "I broke your code in {count} guesses!",
                    len(game.replies)), COLOURS[game.status],
                [tr("{player}'s code was {code}.", player=player,
                    code=code_line(game.replies[-1].guess))])
    if game.status is GameStatus.LOST:
        return (tr("You win: I couldn't break your code"), COLOURS[game.status],
                [trn("{player} kept me guessing for all {count} guess.",
                     "{player} kept me guessing for all {count} guesses.",
                     game.rules.max_guesses, player=player)])
    if state.mistakes is not None and game.secret:
        parts = [tr("{player}'s code was {code}.", player=player, code=code_line(game.secret))]
        if state.mistakes:
            parts.append(tr("These replies were wrong:") + "\n" + rows_within(
                state.mistakes, _mistake, V2_TEXT_MAX // 2))
        else:
            parts.append(tr("Every reply was right."))
        return tr("Code revealed"), discord.Colour.dark_grey(), parts
    return tr("Challenge ended"), discord.Colour.dark_grey(), []


def _question(state: ChallengeState, black: int | None) -> str:
    """What the turn asks, the guess's number in bold before it (no heading line of its
    own: a turn fits a phone screen)."""
    game = state.game
    player = mention(game.started_by)
    if not two_step(state):
        ask = tr("{player}, how does it score against your code?", player=player)
    elif black is None:
        ask = tr("{player}, **step 1 of 2**: how many `{black_peg}` black?", player=player,
                 black_peg=BLACK_PEG)
    else:
        ask = tr("{player}, **step 2 of 2**: you picked **{black} black**; now how many "
                 "`{white_peg}` white?", player=player, black=black, white_peg=WHITE_PEG)
    turn = tr("My guess {turn} of {most}", turn=state.turn, most=game.rules.max_guesses)
    return f"**{turn}** · {ask}"


def _key_pegs(game: GameRecord) -> str:
    """The key pegs explained, in small text: in full with ``/feedback`` on the first
    board, in short once replies show them (as a breaker board's footer)."""
    if not game.replies:
        return "-# " + tr("`{black_peg}` right colour, right place · `{white_peg}` right "
                          "colour, wrong place · or type `/feedback`",
                          black_peg=BLACK_PEG, white_peg=WHITE_PEG)
    return "-# " + tr("{black} right place · {white} wrong place", black=f"`{BLACK_PEG}`",
                      white=f"`{WHITE_PEG}`")


def _codes_left(game: GameRecord, left: int) -> str:
    shown = number(left)
    if not game.replies:
        return trn("{shown} possible code", "{shown} possible codes", left, shown=shown)
    return trn("{shown} code fits your replies", "{shown} codes fit your replies", left,
               shown=shown)


def _history(state: ChallengeState, budget: int) -> list[str]:
    """Below the buttons: the replies so far, the colour key, the strategy and the rules
    (the colour key, the rules and the strategy's idea on the first board only, the rules
    again on the finished one: a turn's board fits a 400 px phone screen, and help has
    them all)."""
    game = state.game
    rules = game.rules
    parts = []
    label = (tr("Private challenge #{id}", id=game.id) if game.private
             else tr("Challenge #{id}", id=game.id))
    status = [label]
    if game.active and not game.replies:
        status += [rules.describe(),
                   tr("I play {strategy}", strategy=strategy_line(game.strategy, rules))]
    else:
        if not game.active:
            status.append(rules.describe())
        status.append(f"`{get_strategy(game.strategy or DEFAULT_STRATEGY).name}`")
    if game.active and not state.inconsistent and game.codes_left is not None:
        status.insert(0, _codes_left(game, game.codes_left))
    key = legend(rules).splitlines() if game.active and not game.replies else []
    lines = [tr("Colours {key}", key=key[0]), *key[1:]] if key else []
    parts.append("\n".join(f"-# {line}" for line in [*lines, " · ".join(status)]))
    if game.replies:  # the replies so far in what is left of the message's text
        rows = rows_within(game.replies, lambda r: feedback_row(r.turn, r.guess, r.feedback,
                                                                rules),
                           budget - len("\n\n".join(parts)) - 2)
        parts.insert(0, rows)
    return parts


def challenge_board(state: ChallengeState, *, black: int | None = None,
                    note: str | None = None) -> discord.ui.LayoutView:
    """The whole board as it stands, buttons included; ``black``: the black count picked in
    a two-step reply; ``note``: a line above the board (a match's half, an abandoned game)."""
    game = state.game
    view = discord.ui.LayoutView(timeout=None)
    if note:
        view.add_item(discord.ui.TextDisplay(note))
    if not game.active:
        title, colour, parts = _ended(state)
        board: discord.ui.Container = discord.ui.Container(accent_colour=colour)
        head = f"### {title}\n" + "\n\n".join(parts)
        history = _history(state, V2_TEXT_MAX - len(note or "") - len(head) - 2)
        board.add_item(discord.ui.TextDisplay("\n\n".join([head, *history])))
        board.add_item(_finished_row(game))
        view.add_item(board)
        return view
    board = discord.ui.Container(accent_colour=discord.Colour.blurple())
    if state.inconsistent:
        board.accent_colour = discord.Colour.orange()
        board.add_item(discord.ui.TextDisplay(
            "### " + tr("Your replies contradict each other") + "\n" + tr(
                "No code fits all of them, so one reply is wrong. **Take back** the last "
                "reply, or **reveal** your code and I'll show which one.")))
    else:
        assert state.pending is not None
        board.add_item(discord.ui.TextDisplay(
            f"{_question(state, black)}\n{_big(code_line(state.pending), game.rules)}\n"
            f"{_key_pegs(game)}"))
        for row in _reply_rows(state, black):
            board.add_item(row)
    board.add_item(_controls(game))
    board.add_item(discord.ui.Separator(spacing=discord.SeparatorSpacing.small))
    written = sum(len(item.content) for item in board.walk_children()
                  if isinstance(item, discord.ui.TextDisplay))
    board.add_item(discord.ui.TextDisplay("\n".join(
        _history(state, V2_TEXT_MAX - len(note or "") - written))))
    view.add_item(board)
    return view


def collapsed_line(state: ChallengeState, turn: int) -> str:
    """What a replaced challenge board shrinks to: the reply it was waiting for, or the
    last reply given, on one line (no prompt, no buttons)."""
    game = state.game
    if 0 < turn <= len(game.replies):
        r = game.replies[turn - 1]
        return feedback_row(r.turn, r.guess, r.feedback, game.rules)
    return tr("Challenge #{id}: an older board. The live one is below.", id=game.id)


def ended_embed(state: ChallengeState, ended_by: int) -> discord.Embed:
    """Said in the channel when someone ends a challenge with ``/mastermind quit``."""
    game = state.game
    said = (tr("{ender} ended their challenge.", ender=mention(ended_by))
            if ended_by == game.started_by
            else tr("{ender} ended {player}'s challenge.", ender=mention(ended_by),
                    player=mention(game.started_by)))
    return discord.Embed(title=tr("Challenge ended"), description=said,
                         colour=discord.Colour.dark_grey())


# ---- the words for challenge mistakes ----------------------------------------------------
def _out_of_date(error: OutOfDate) -> str:
    """Why an action was refused, in the words of what the player did: a button or a typed
    ``/feedback``; a board that had moved on, or another action stored a moment before."""
    current = len(error.game.replies) + 1  # the guess on the board as the action read it
    link = board_link(error.game)
    latest = tr("the latest board ({link})", link=link) if link else tr("the latest board")
    turn = error.given_turn
    if error.action == "reveal":
        return tr("The challenge moved on while you typed your code (another reply or "
                  "take-back came first), so it was not revealed. Nothing was stored: use "
                  "{latest} and reveal again.", latest=latest)
    if error.action == "take back":
        if error.raced:
            return tr("Your reply to guess {turn} changed a moment before this click (taken "
                      "back, or answered by another click), so nothing was taken back: use "
                      "{latest}.", turn=turn, latest=latest)
        return tr("That button takes back your reply to guess {turn}, but your last reply is "
                  "to guess {last} now: use {latest}. Nothing was stored.", turn=turn,
                  last=current - 1, latest=latest)
    if turn is None and error.raced:
        return tr("Another reply to guess {current} was stored a moment before yours. Nothing "
                  "was stored from yours: the latest board in this channel shows my next "
                  "guess.", current=error.turn_seen or current)
    if turn is None:
        return tr("My guess {current} went up after you typed that, so your reply would "
                  "answer a guess you hadn't seen. Nothing was stored: look at {latest} and "
                  "answer again.", current=current, latest=latest)
    if error.raced:
        return tr("Guess {turn} was answered a moment before this click (a double click?). "
                  "Nothing was stored from this one: use {latest}.", turn=turn, latest=latest)
    return tr("That button belongs to guess {turn}, but I'm on guess {current} now: use "
              "{latest}. Nothing was stored.", turn=turn, current=current, latest=latest)


says(OutOfDate)(lambda e: (tr("That board is out of date"), _out_of_date(e)))
says(NothingToTakeBack)(lambda e: (tr("Nothing to take back"),
                                   tr("There is no reply to take back yet.")))


@says(NotYourChallenge)
def _not_your_challenge(error: NotYourChallenge) -> tuple[str, str]:
    return tr("This is not your challenge"), tr(
        "This is not your challenge: only {player} knows the code. Start your own with "
        "`/challenge` in another channel, or when this one ends.",
        player=mention(error.game.started_by))


@says(ImpossibleReply)
def _impossible_reply(error: ImpossibleReply) -> tuple[str, str]:
    return tr("That reply is impossible"), tr(
        "{reason}. Count again: black = right colour in the right place, white = right "
        "colour in the wrong place.", reason=error.reason)


@says(RepliesContradict)
def _replies_contradict(error: RepliesContradict) -> tuple[str, str]:
    return tr("Replies contradict each other"), tr(
        "Your replies already contradict each other: take back the last reply or "
        "reveal your code first.")
