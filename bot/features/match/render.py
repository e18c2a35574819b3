"""The match scoreboard, the invitation and the words for match mistakes: pure functions."""

from __future__ import annotations

import discord

from engine import example
from i18n import command as quoted_command
from i18n import tr, trc, trn

from ...core.enums import GameKind
from ...core.matches import DRAW, INVITATION_SECONDS, MatchRecord, MatchStatus, Side
from ...ui.messages import board_link, mention, says
from ..ratings.render import outcome_field
from .buttons import MatchAction, MatchButton
from .errors import (
    BadOpponent,
    MatchOver,
    MatchRunning,
    NotInMatch,
    NotYourCode,
    OnlyInvitee,
    StaleMatchButton,
)
from .service import MatchView


def rule() -> str:
    """How a match is scored, said on every scoreboard."""
    return tr("fewer moves wins; a code not broken scores the guess limit + 1")


def side_name(match: MatchRecord, side: Side) -> str:
    """A side as a scoreboard labels it: a mention, or the bot's own word for itself."""
    player = match.player(side)
    return trc("the bot, as a side of a match", "me") if player is None else mention(player)


def _rounds_table(match: MatchRecord) -> str:
    a, b = side_name(match, Side.A), side_name(match, Side.B)
    lines = []
    for round_ in range(match.rounds):
        scores = match.half_scores[2 * round_: 2 * round_ + 2]
        if not scores and round_ >= match.round:
            break
        shown = [f"**{s}**" for s in scores] + ["…"] * (2 - len(scores))
        label = tr("Round {round}", round=round_ + 1)
        lines.append(f"`{label}` {a} {shown[0]} · {b} {shown[1]}")
    totals = match.totals()
    total = tr("Total moves")
    lines.append(f"**{total}** {a} **{totals[Side.A]}** · {b} **{totals[Side.B]}**")
    return "\n".join(lines)


def _half_name(match: MatchRecord) -> str:
    if match.half % 2 == 0:
        return tr("Round {round} of {rounds}, first half", round=match.round,
                  rounds=match.rounds)
    return tr("Round {round} of {rounds}, second half", round=match.round, rounds=match.rounds)


def _now(view: MatchView) -> str:
    """Whose turn it is, and how to play it."""
    match, game = view.match, view.game
    breaker, setter = match.breaker(), match.setter()
    half = _half_name(match)
    if game is None:
        return tr("**{half}:** {setter} sets a secret code for {breaker} to break: press "
                  "**{button}** (only you see it).", half=half,
                  setter=side_name(match, setter), breaker=side_name(match, breaker),
                  button=set_code_label())
    link = board_link(game)
    board = " ([" + tr("board") + f"]({link}))" if link else ""
    setter_id = match.player(setter)
    if game.kind is GameKind.CHALLENGE:
        return tr("**{half}:** I break {player}'s code: think of one and answer my "
                  "guesses{board}.", half=half, player=mention(setter_id or 0), board=board)
    command = quoted_command(f"`/guess {example(match.rules)}`")
    if setter_id is None:
        return tr("**{half}:** {breaker} breaks my code{board}: {command}.", half=half,
                  breaker=side_name(match, breaker), board=board, command=command)
    return tr("**{half}:** {breaker} breaks {setter}'s code{board}: {command}.", half=half,
              breaker=side_name(match, breaker), setter=mention(setter_id), board=board,
              command=command)


def _result(match: MatchRecord) -> tuple[str, str]:
    """(title, line) of an ended match."""
    totals = match.totals()
    a, b = totals[Side.A], totals[Side.B]
    if match.status is MatchStatus.FORFEIT and match.winner:
        winner = Side(match.winner)
        loser = side_name(match, winner.other)
        if match.player(winner) is None:
            line = tr("{loser} quit, so I win the match.", loser=loser)
        else:
            line = tr("{loser} quit, so {winner} wins the match.", loser=loser,
                      winner=side_name(match, winner))
        return tr("Match over: forfeit"), line
    if match.status is MatchStatus.FINISHED:
        if match.winner == DRAW:
            return tr("Match over: a draw"), trn("A draw: {count} move each.",
                                                 "A draw: {count} moves each.", a)
        winner = Side(match.winner or "a")
        best, worst = min(a, b), max(a, b)
        if match.vs_bot and winner is Side.B:
            return tr("Match over: I win"), trn("I win, {best} moves to {count}.",
                                                "I win, {best} moves to {count}.", worst,
                                                best=best)
        title = tr("Match over: you win") if match.vs_bot else tr(
            "Match over: we have a winner")
        return title, trn("{winner} wins, {best} moves to {count}.",
                          "{winner} wins, {best} moves to {count}.", worst,
                          winner=side_name(match, winner), best=best)
    if match.status is MatchStatus.ABANDONED:
        return tr("Match abandoned"), tr("No move for too long: the match was abandoned. The "
                                         "score so far stands below.")
    if match.status is MatchStatus.DECLINED:
        return tr("Match called off"), tr("The invitation was declined.")
    if match.status is MatchStatus.EXPIRED:
        return tr("Invitation expired"), tr("Nobody accepted the invitation in time.")
    if match.status is MatchStatus.ENDED:
        return tr("Match ended"), tr("{ender} ended the match: nobody wins it.",
                                     ender=mention(match.ended_by or 0))
    return tr("Match over"), ""


def _invitation(match: MatchRecord) -> list[str]:
    invitee = mention(match.player_b or 0)
    return [trn("{inviter} invites {invitee} to a match of {count} round. In each round you "
                "break each other's code: {rule}.",
                "{inviter} invites {invitee} to a match of {count} rounds. In each round you "
                "break each other's code: {rule}.", match.rounds,
                inviter=mention(match.player_a), invitee=invitee, rule=rule()),
            trn("{invitee}, accept or decline within {count} minute.",
                "{invitee}, accept or decline within {count} minutes.",
                INVITATION_SECONDS // 60, invitee=invitee)]


def scoreboard_embed(view: MatchView, *, note: str | None = None) -> discord.Embed:
    match = view.match
    if match.status is MatchStatus.INVITED:  # only a person is invited: the bot just plays
        title = tr("A match invitation")
        parts = _invitation(match)
    elif match.running:
        title = tr("Match: round {round} of {rounds}", round=match.round, rounds=match.rounds)
        players = (tr("{player} against me", player=mention(match.player_a)) if match.vs_bot
                   else tr("{player} against {opponent}", player=mention(match.player_a),
                           opponent=mention(match.player_b or 0)))
        parts = [players, _rounds_table(match), _now(view)]
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
    if view.rating is not None and (field := outcome_field(view.rating)) is not None:
        embed.add_field(name=field[0], value=field[1], inline=False)
    embed.set_footer(text=" · ".join((tr("Match #{id}", id=match.id), match.rules.describe(),
                                      rule())))
    return embed


def set_code_label() -> str:
    return tr("Set my code")


def scoreboard_view(view: MatchView) -> discord.ui.View | None:
    match = view.match
    buttons: list[MatchButton] = []
    if match.status is MatchStatus.INVITED:
        buttons = [MatchButton(MatchAction.ACCEPT, match.id, label=tr("Accept"),
                               style=discord.ButtonStyle.success),
                   MatchButton(MatchAction.DECLINE, match.id, label=tr("Decline"),
                               style=discord.ButtonStyle.danger)]
    elif match.status is MatchStatus.ACTIVE and view.game is None:
        buttons = [MatchButton(MatchAction.CODE, match.id, match.half, label=set_code_label(),
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
    if match.half % 2 == 0:
        return tr("Match #{id} · round {round} of {rounds}, first half", id=match.id,
                  round=match.round, rounds=match.rounds)
    return tr("Match #{id} · round {round} of {rounds}, second half", id=match.id,
              round=match.round, rounds=match.rounds)


def setter_note(user_id: int) -> str:
    return tr("Nobody but {player} has seen this code.", player=mention(user_id))


def replay_note() -> str:
    """A reveal showed the challenger's replies contradicted each other: the half starts over
    (the 1978 computer's words)."""
    return tr("Your replies contradicted each other. Try again, and this time please be more "
              "careful: think of a code, and I start this half-round over.")


def expired_note(match_id: int) -> str:
    return tr("The previous match here (#{id}) had no move for too long.", id=match_id)


# ---- the words for match mistakes ---------------------------------------------------------
@says(MatchRunning)
def _match_running(error: MatchRunning) -> tuple[str, str]:
    match = error.match
    if match.status is MatchStatus.INVITED:
        said = tr("{player} started an invitation to a match in this channel (#{id}): one game "
                  "or match per channel. `/mastermind board` shows it, `/mastermind quit` ends "
                  "it.", player=mention(match.player_a), id=match.id)
    else:
        said = tr("{player} started a match in this channel (#{id}): one game or match per "
                  "channel. `/mastermind board` shows it, `/mastermind quit` ends it.",
                  player=mention(match.player_a), id=match.id)
    return tr("A match is running here"), said


@says(NotInMatch)
def _not_in_match(error: NotInMatch) -> tuple[str, str]:
    match = error.match
    if match.vs_bot:
        said = tr("Only {player} and I play in this match. Start your own with `/match` in "
                  "another channel, or when this one ends.", player=mention(match.player_a))
    else:
        said = tr("Only {a} and {b} play in this match. Start your own with `/match` in "
                  "another channel, or when this one ends.", a=mention(match.player_a),
                  b=mention(match.player_b or 0))
    return tr("This is not your match"), said


@says(NotYourCode)
def _not_your_code(error: NotYourCode) -> tuple[str, str]:
    match = error.match
    return tr("Not your code to set"), tr(
        "This half-round's code is set by {setter}: you break it once it is set.",
        setter=side_name(match, match.setter()))


@says(MatchOver)
def _match_over(error: MatchOver) -> tuple[str, str]:
    match = error.match
    if match is None:
        return tr("Unknown match"), tr("That match no longer exists.")
    if match.status is MatchStatus.ABANDONED:
        totals = match.totals()
        return tr("This match expired"), tr(
            "Match #{id} had no move for too long and was abandoned: the score stood at {a} "
            "{a_moves}, {b} {b_moves} moves. Start a new one with `/match`.", id=match.id,
            a=side_name(match, Side.A), a_moves=totals[Side.A], b=side_name(match, Side.B),
            b_moves=totals[Side.B])
    if match.status is MatchStatus.EXPIRED:
        return tr("This invitation expired"), tr(
            "Nobody accepted it in time. Start a new match with `/match`.")
    return tr("This match is over"), tr("That match is over. Start a new one with `/match`.")


@says(OnlyInvitee)
def _only_invitee(error: OnlyInvitee) -> tuple[str, str]:
    return tr("Waiting for your opponent"), tr(
        "Only {invitee} can accept your invitation. **{decline}** withdraws it.",
        invitee=side_name(error.match, Side.B), decline=tr("Decline"))


@says(StaleMatchButton)
def _stale(error: StaleMatchButton) -> tuple[str, str]:
    if error.accepted:
        return tr("That button is out of date"), tr(
            "This invitation was accepted already: the match is on. Nothing more was "
            "stored: `/mastermind board` shows where the match stands.")
    return tr("That button is out of date"), tr(
        "That code was already set (or the match moved on). Nothing was stored: "
        "`/mastermind board` shows where the match stands.")


@says(BadOpponent)
def _bad_opponent(error: BadOpponent) -> tuple[str, str]:
    return tr("Pick another opponent"), tr(
        "{reason} Leave `opponent` empty to play against me.", reason=tr(error.reason))
