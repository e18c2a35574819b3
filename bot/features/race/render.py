"""A race on screen: the lobby, the channel's standings board, the result, and the words for
a race's mistakes. Pure functions, in the language being spoken (the channel's, or the
reader's for a private answer)."""

from __future__ import annotations

import discord

from i18n import tr, trc, trn

from ...core.enums import RacerStatus, RaceStatus
from ...core.errors import InRace, RaceTimeUp
from ...core.races import MAX_RACERS, Racer, RaceRecord, ranked
from ...ui.messages import mention, says
from ...ui.pegs import code_line
from ..ratings.render import change_words
from ..ratings.service import RatingChange
from .buttons import RaceAction, RaceButton
from .errors import (
    AlreadyJoined,
    DoneRacing,
    NotInRace,
    NotStartedYet,
    NotTheStarter,
    RaceError,
    RaceFull,
    RaceGone,
    RaceOver,
    RaceRunning,
    RaceStarted,
)

#: Discord's colours for a lobby, a race under way, and a finished one.
LOBBY_COLOUR, RUNNING_COLOUR, OVER_COLOUR = 0x5865F2, 0xFEE75C, 0x57F287


def start_label() -> str:
    """The lobby's button that starts the race at once (a word of its own: not the help's
    "Start" page)."""
    return trc("a button: start the race now", "Start")


def race_link(race: RaceRecord) -> str:
    """Where the race's standings board is (empty before it is posted)."""
    if not race.board_message_id:
        return ""
    return (f"https://discord.com/channels/{race.guild_id or '@me'}/{race.channel_id}/"
            f"{race.board_message_id}")


def _title(race: RaceRecord) -> str:
    match race.status:
        case RaceStatus.LOBBY:
            return tr("Race #{id}: join now!", id=race.id)
        case RaceStatus.RUNNING:
            return tr("Race #{id}: under way", id=race.id)
        case RaceStatus.CANCELLED:
            return tr("Race #{id}: called off", id=race.id)
    return tr("Race #{id}: finished", id=race.id)


def _when(seconds: float) -> str:
    """``<t:…:R>``: Discord writes "in 45 seconds" in the reader's own language."""
    return f"<t:{int(seconds)}:R>"


def _elapsed(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def racer_line(race: RaceRecord, racer: Racer) -> str:
    """Where a racer stands: never a code or a key peg that gives the secret away (an
    unsolved racer's best reply is shown only once the race is over)."""
    who = mention(racer.user_id)
    start = race.started_at or race.created_at
    match racer.status:
        case RacerStatus.RACING:
            return trn("{player}: racing, {count} guess made",
                       "{player}: racing, {count} guesses made", racer.guesses, player=who)
        case RacerStatus.SOLVED:
            return trn("{player}: solved in {count} guess ({time})",
                       "{player}: solved in {count} guesses ({time})", racer.guesses,
                       player=who, time=_elapsed((racer.finished_at or start) - start))
        case RacerStatus.LEFT:
            return tr("{player}: left the race", player=who)
    if race.status is RaceStatus.FINISHED:
        return tr("{player}: not solved; best guess {black} black, {white} white",
                  player=who, black=racer.best.black, white=racer.best.white)
    return trn("{player}: not solved in {count} guess", "{player}: not solved in {count} "
               "guesses", racer.guesses, player=who)


def _place(racer: Racer) -> str:
    return f"**{racer.place}.**" if racer.place else "·"


def standings_embed(race: RaceRecord) -> discord.Embed:
    """The channel's one board for the race: the lobby, then who is where, then the end."""
    colour = {RaceStatus.LOBBY: LOBBY_COLOUR, RaceStatus.RUNNING: RUNNING_COLOUR}.get(
        race.status, OVER_COLOUR)
    embed = discord.Embed(title=_title(race), colour=colour)
    lines = [race.rules.describe()]
    if race.status is RaceStatus.LOBBY:
        lines.append(tr("Everyone breaks the same code on a board of their own. Press "
                        "**{join}** to race; it starts {when}, or when {starter} presses "
                        "**{start}**.", join=tr("Join"), when=_when(race.lobby_until),
                        starter=mention(race.started_by), start=start_label()))
        joined = ", ".join(mention(r.user_id) for r in race.racers)
        lines.append(tr("**In the race** ({count} of {most}): {players}",
                        count=len(race.racers), most=MAX_RACERS, players=joined))
    elif race.status is RaceStatus.RUNNING:
        assert race.deadline is not None
        lines.append(tr("Press **{board}** for your board, or `/guess` your code. Time runs "
                        "out {when}.", board=tr("My board"), when=_when(race.deadline)))
        lines += [f"{_place(r)} {racer_line(race, r)}" for r in ranked(race)]
    elif race.status is RaceStatus.CANCELLED:
        lines.append(tr("The starter left the lobby, or nobody could race: no race this "
                        "time."))
    else:
        lines.append(tr("**The code** {code}", code=code_line(race.secret)))
        lines += [f"{_place(r)} {racer_line(race, r)}" for r in ranked(race)]
    embed.description = "\n".join(lines)[:4096]
    return embed


def standings_view(race: RaceRecord) -> discord.ui.View | None:
    """Join, Leave and Start in the lobby; My board and Leave while the race runs."""
    if not race.open:
        return None
    view = discord.ui.View(timeout=None)
    if race.status is RaceStatus.LOBBY:
        view.add_item(RaceButton(RaceAction.JOIN, race.id, label=tr("Join"),
                                 style=discord.ButtonStyle.success))
        view.add_item(RaceButton(RaceAction.START, race.id, label=start_label(),
                                 style=discord.ButtonStyle.primary))
    else:
        view.add_item(RaceButton(RaceAction.BOARD, race.id, label=tr("My board"),
                                 style=discord.ButtonStyle.primary))
    view.add_item(RaceButton(RaceAction.LEAVE, race.id, label=tr("Leave")))
    return view


def result_embed(race: RaceRecord) -> discord.Embed:
    """The race's end, posted once in the channel below the board (which keeps the whole
    ranking): the code, and each racer by place with their rating change, as stored."""
    if race.status is not RaceStatus.FINISHED:
        return standings_embed(race)
    embed = discord.Embed(title=_title(race), colour=OVER_COLOUR)
    lines = [tr("**The code** {code}", code=code_line(race.secret))]
    for racer in ranked(race):
        shown = racer.rating
        change = "" if shown is None else ": " + change_words(RatingChange(
            racer.user_id, shown.before, shown.after, shown.provisional, shown.rated,
            shown.why_not))
        lines.append(f"{_place(racer)} {mention(racer.user_id)}{change}")
    link = race_link(race)
    if link:
        lines.append(tr("The whole ranking: {link}", link=link))
    embed.description = "\n".join(lines)[:4096]
    return embed


def joined_words(race: RaceRecord) -> str:
    return tr("You are in race #{id}. It starts {when}, or when the starter presses "
              "**{start}**.", id=race.id, when=_when(race.lobby_until), start=start_label())


def left_words(race: RaceRecord) -> str:
    if race.status is RaceStatus.LOBBY:
        return tr("You left the lobby of race #{id}.", id=race.id)
    if race.status is RaceStatus.CANCELLED:
        return tr("You called race #{id} off.", id=race.id)
    return tr("You left race #{id}: you rank last in it.", id=race.id)


def dropped_words(dropped: tuple[int, ...]) -> str:
    """Said on the board when racers had started a private game since joining."""
    return tr("Left out (a private game of their own was running): {players}",
              players=", ".join(mention(u) for u in dropped))


# ---- mistakes ------------------------------------------------------------------------------
def _see(race: RaceRecord) -> str:
    link = race_link(race)
    return tr(" Its board: {link}", link=link) if link else ""


@says(RaceRunning)
def _race_running(error: RaceError) -> tuple[str, str]:
    return tr("A race is on here"), tr(
        "Race #{id} is open in this channel: one game, match or race per channel. Join it, or "
        "start yours when it ends.", id=error.race.id) + _see(error.race)


@says(RaceStarted)
def _race_started(error: RaceError) -> tuple[str, str]:
    return tr("The race has started"), tr(
        "Race #{id} started without you: nobody joins once the code is out. Watch the "
        "standings, and start the next one with `/race` when it ends.",
        id=error.race.id) + _see(error.race)


@says(NotStartedYet)
def _not_started(error: RaceError) -> tuple[str, str]:
    return tr("Not started yet"), tr(
        "Race #{id} starts {when}, or when its starter presses **{start}**: your board "
        "opens then.", id=error.race.id, when=_when(error.race.lobby_until), start=start_label())


@says(RaceOver)
def _race_over(error: RaceError) -> tuple[str, str]:
    return tr("The race is over"), tr(
        "Race #{id} has ended: its result is in the channel. Start a new one with `/race`.",
        id=error.race.id)


@says(AlreadyJoined)
def _already_joined(error: RaceError) -> tuple[str, str]:
    return tr("Already in"), tr(
        "You are in race #{id} already. **{leave}** takes you out.", id=error.race.id,
        leave=tr("Leave"))


@says(NotInRace)
def _not_in_race(error: RaceError) -> tuple[str, str]:
    if error.race.status is RaceStatus.LOBBY:
        said = tr("You are not in race #{id}: press **{join}** to race.", id=error.race.id,
                  join=tr("Join"))
    else:
        said = tr("You are not in race #{id}: it started without you. Start the next one "
                  "with `/race` when it ends.", id=error.race.id)
    return tr("Not in this race"), said


@says(RaceFull)
def _race_full(error: RaceError) -> tuple[str, str]:
    return tr("The race is full"), tr(
        "Race #{id} has {most} racers, the most a race takes. Start the next one with "
        "`/race` when it ends.", id=error.race.id, most=MAX_RACERS)


@says(NotTheStarter)
def _not_the_starter(error: RaceError) -> tuple[str, str]:
    return tr("Only the starter can start"), tr(
        "{starter} opened race #{id}: it starts when they press **{start}**, or {when}.",
        starter=mention(error.race.started_by), id=error.race.id, start=start_label(),
        when=_when(error.race.lobby_until))


@says(DoneRacing)
def _done_racing(error: RaceError) -> tuple[str, str]:
    return tr("You have finished"), tr(
        "Your board in race #{id} is over: the others race on, and the result comes when "
        "they finish or time runs out.", id=error.race.id)


@says(RaceGone)
def _race_gone(error: RaceGone) -> tuple[str, str]:
    return tr("Unknown race"), tr("That race doesn't exist. Start one with `/race`.")


@says(InRace)
def _in_race(error: InRace) -> tuple[str, str]:
    return tr("You are racing"), tr(
        "Your board in race #{id} is your private game until the race ends: finish it, or "
        "press **{leave}** on the race's board.", id=error.game.race_id, leave=tr("Leave"))


@says(RaceTimeUp)
def _race_time_up(error: RaceTimeUp) -> tuple[str, str]:
    race_id = error.abandoned.race_id if error.abandoned else None
    return tr("Time is up"), tr(
        "Race #{id} ran out of time: its result is in the channel.", id=race_id)
