"""The match scoreboard, the invitation and the words for match mistakes: pure functions."""

from __future__ import annotations

import discord

from engine import example

from ...core.enums import GameKind
from ...core.errors import MatchRunning, NotYourTurn
from ...core.matches import DRAW, INVITATION_SECONDS, MatchRecord, MatchStatus, Side
from ...ui.messages import board_link, mention, says
from .buttons import MatchAction, MatchButton
from .service import (
    BadOpponent,
    MatchOver,
    MatchView,
    NotInMatch,
    NotYourCode,
    OnlyInvitee,
    StaleMatchButton,
)

RULE = "fewer moves wins; a code not broken scores the guess limit + 1"


def side_name(match: MatchRecord, side: Side) -> str:
    player = match.player(side)
    return "me" if player is None else mention(player)


def _owner(match: MatchRecord, side: Side) -> str:
    """``my`` or ``<@bob>'s``."""
    player = match.player(side)
    return "my" if player is None else f"{mention(player)}'s"


def _rounds_table(match: MatchRecord) -> str:
    a, b = side_name(match, Side.A), side_name(match, Side.B)
    lines = []
    for round_ in range(match.rounds):
        scores = match.half_scores[2 * round_: 2 * round_ + 2]
        if not scores and round_ >= match.round:
            break
        shown = [f"**{s}**" for s in scores] + ["…"] * (2 - len(scores))
        lines.append(f"`Round {round_ + 1}` {a} {shown[0]} · {b} {shown[1]}")
    totals = match.totals()
    lines.append(f"**Total moves** {a} **{totals[Side.A]}** · {b} **{totals[Side.B]}**")
    return "\n".join(lines)


def _half_name(match: MatchRecord) -> str:
    which = "first" if match.half % 2 == 0 else "second"
    return f"Round {match.round} of {match.rounds}, {which} half"


def _now(view: MatchView) -> str:
    """Whose turn it is, and how to play it."""
    match, game = view.match, view.game
    breaker, setter = match.breaker(), match.setter()
    if game is None:
        return (f"**{_half_name(match)}:** {side_name(match, setter)} sets a secret code for "
                f"{side_name(match, breaker)} to break: press **Set my code** (only you see "
                f"it).")
    link = board_link(game)
    board = f" ([board]({link}))" if link else ""
    if game.kind is GameKind.CHALLENGE:
        return (f"**{_half_name(match)}:** I break {_owner(match, setter)} code: think of one "
                f"and answer my guesses{board}.")
    return (f"**{_half_name(match)}:** {side_name(match, breaker)} breaks "
            f"{_owner(match, setter)} code{board}: `/guess {example(match.rules)}`.")


def _result(match: MatchRecord) -> tuple[str, str]:
    """(title, line) of an ended match."""
    totals = match.totals()
    a, b = totals[Side.A], totals[Side.B]
    if match.status is MatchStatus.FORFEIT and match.winner:
        winner = Side(match.winner)
        bot_wins = match.player(winner) is None
        champion = "I win" if bot_wins else f"{side_name(match, winner)} wins"
        return ("Match over: forfeit",
                f"{side_name(match, winner.other)} quit, so {champion} the match.")
    if match.status is MatchStatus.FINISHED:
        if match.winner == DRAW:
            return "Match over: a draw", f"A draw: {a} moves each."
        winner = Side(match.winner or "a")
        best, worst = min(a, b), max(a, b)
        if match.vs_bot and winner is Side.B:
            return "Match over: I win", f"I win, {best} moves to {worst}."
        return (f"Match over: {'you win' if match.vs_bot else 'we have a winner'}",
                f"{side_name(match, winner)} wins, {best} moves to {worst}.")
    words = {
        MatchStatus.ABANDONED: ("Match abandoned", "No move for too long: the match was "
                                                   "abandoned. The score so far stands below."),
        MatchStatus.DECLINED: ("Match called off", "The invitation was declined."),
        MatchStatus.EXPIRED: ("Invitation expired", "Nobody accepted the invitation in time."),
        MatchStatus.ENDED: ("Match ended", f"{mention(match.ended_by or 0)} ended the match: "
                                           f"nobody wins it."),
    }
    return words.get(match.status, ("Match over", ""))


def scoreboard_embed(view: MatchView, *, note: str | None = None) -> discord.Embed:
    match = view.match
    vs = "me" if match.vs_bot else mention(match.player_b or 0)
    if match.status is MatchStatus.INVITED:
        minutes = INVITATION_SECONDS // 60
        title = "A match invitation"
        parts = [f"{mention(match.player_a)} invites {vs} to a match of {match.rounds} "
                 f"{'round' if match.rounds == 1 else 'rounds'}. In each round you break each "
                 f"other's code: {RULE}.",
                 f"{vs}, accept or decline within {minutes} minutes."]
    elif match.running:
        title = f"Match: round {match.round} of {match.rounds}"
        parts = [f"{mention(match.player_a)} against {vs}", _rounds_table(match), _now(view)]
    else:
        title, line = _result(match)
        parts = [line, _rounds_table(match)]
    if note:
        parts.insert(0, note)
    colour = (discord.Colour.blurple() if match.running else discord.Colour.gold()
              if match.status in (MatchStatus.FINISHED, MatchStatus.FORFEIT)
              else discord.Colour.dark_grey())
    embed = discord.Embed(title=title, description="\n\n".join(p for p in parts if p),
                          colour=colour)
    embed.set_footer(text=f"Match #{match.id} · {match.rules.describe()} · {RULE}")
    return embed


def scoreboard_view(view: MatchView) -> discord.ui.View | None:
    match = view.match
    buttons: list[MatchButton] = []
    if match.status is MatchStatus.INVITED:
        buttons = [MatchButton(MatchAction.ACCEPT, match.id, label="Accept",
                               style=discord.ButtonStyle.success),
                   MatchButton(MatchAction.DECLINE, match.id, label="Decline",
                               style=discord.ButtonStyle.danger)]
    elif match.status is MatchStatus.ACTIVE and view.game is None:
        buttons = [MatchButton(MatchAction.CODE, match.id, match.half, label="Set my code",
                               style=discord.ButtonStyle.primary)]
    if not buttons:
        return None
    shown = discord.ui.View(timeout=None)
    for button in buttons:
        shown.add_item(button)
    return shown


def half_note(view: MatchView) -> str:
    """Above a half-round's board: which match and half-round it belongs to."""
    match = view.match
    return f"Match #{match.id} · {_half_name(match).lower()}"


def setter_note(user_id: int) -> str:
    return f"Nobody but {mention(user_id)} has seen this code."


# ---- the words for match mistakes ---------------------------------------------------------
@says(MatchRunning)
def _match_running(error: MatchRunning) -> tuple[str, str]:
    match = error.match
    assert isinstance(match, MatchRecord)
    what = "an invitation to a match" if match.status is MatchStatus.INVITED else "a match"
    return "A match is running here", (
        f"{mention(match.player_a)} started {what} in this channel (#{match.id}): one game or "
        f"match per channel. `/mastermind board` shows it, `/mastermind quit` ends it.")


@says(NotYourTurn)
def _not_your_turn(error: NotYourTurn) -> tuple[str, str]:
    game = error.game
    if game.setter_id is not None and game.match_id is None:
        return "You set this code", (
            "You set this code, so you can't guess it: watch the others try! "
            "`/mastermind quit` ends the game.")
    return "Not your code to break", (
        f"In this match only {mention(game.started_by)} guesses this code. Watch, or start "
        f"your own game in another channel.")


@says(NotInMatch)
def _not_in_match(error: NotInMatch) -> tuple[str, str]:
    match = error.match
    players = " and ".join(side_name(match, s) for s in Side)
    return "This is not your match", (
        f"Only {players} play in this match. Start your own with `/match` in another "
        f"channel, or when this one ends.")


@says(NotYourCode)
def _not_your_code(error: NotYourCode) -> tuple[str, str]:
    match = error.match
    return "Not your code to set", (
        f"This half-round's code is set by {side_name(match, match.setter())}: you break it "
        f"once it is set.")


@says(MatchOver)
def _match_over(error: MatchOver) -> tuple[str, str]:
    match = error.match
    if match is None:
        return "Unknown match", "That match no longer exists."
    if match.status is MatchStatus.ABANDONED:
        totals = match.totals()
        return "This match expired", (
            f"Match #{match.id} had no move for too long and was abandoned: the score stood "
            f"at {side_name(match, Side.A)} {totals[Side.A]}, {side_name(match, Side.B)} "
            f"{totals[Side.B]} moves. Start a new one with `/match`.")
    if match.status is MatchStatus.EXPIRED:
        return "This invitation expired", (
            "Nobody accepted it in time. Start a new match with `/match`.")
    return "This match is over", "That match is over. Start a new one with `/match`."


@says(OnlyInvitee)
def _only_invitee(error: OnlyInvitee) -> tuple[str, str]:
    return "Waiting for your opponent", (
        f"Only {side_name(error.match, Side.B)} can accept your invitation. **Decline** "
        f"withdraws it.")


@says(StaleMatchButton)
def _stale(error: StaleMatchButton) -> tuple[str, str]:
    if error.accepted:
        return "That button is out of date", (
            "This invitation was accepted already: the match is on. Nothing more was "
            "stored: `/mastermind board` shows where the match stands.")
    return "That button is out of date", (
        "That code was already set (or the match moved on). Nothing was stored: "
        "`/mastermind board` shows where the match stands.")


@says(BadOpponent)
def _bad_opponent(error: BadOpponent) -> tuple[str, str]:
    return "Pick another opponent", (
        f"{error.reason[:1].upper()}{error.reason[1:]}. Leave `opponent` empty to play "
        f"against me.")
