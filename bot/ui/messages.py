"""The one place domain errors and notes become words: mentions, code formatting, links."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from engine import example
from i18n import tr, trn

from ..core.durations import hours
from ..core.enums import CodeEntry, GameKind
from ..core.errors import (
    AlreadyDone,
    BadCode,
    BadRules,
    GameAlreadyRunning,
    GameOver,
    MalformedButton,
    NoGameRunning,
    NoPrivateGame,
    NotYourGame,
    PrivateGameRunning,
    StorageUnavailable,
    UnknownStrategy,
    UserError,
    WrongKindOfGame,
)
from ..core.records import GameRecord
from .pegs import code_line


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def guesses(n: int) -> str:
    """``1 guess``, ``3 guesses``: in the reader's language and plural form."""
    return trn("{count} guess", "{count} guesses", n)


def player_name(name: str, limit: int = 40) -> str:
    """A player's name for markdown text: cut first (to ``limit`` characters, with …), then
    escaped, so a cut never leaves half an escape; markdown and mentions (``@everyone``,
    ``<@id>``) show as typed."""
    name = " ".join(name.split()) or "?"
    if len(name) > limit:
        name = name[: limit - 1].rstrip() + "\N{HORIZONTAL ELLIPSIS}"
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(name))
    return escaped.replace("<", "\\<")


def message_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    """A link to a message (empty before it exists): a game's board, a race's standings."""
    if not message_id:
        return ""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def board_link(game: GameRecord) -> str:
    return message_link(game.guild_id, game.channel_id, game.board_message_id)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _is_game(game: GameRecord) -> bool:
    """A breaker game (people guess the bot's code), not a challenge (the bot guesses)."""
    return game.kind is GameKind.BREAKER


def _its_code(game: GameRecord) -> str:
    """How an abandoned game's code is revealed: the bot's own, shown; a challenger's, never
    told to the bot, said to be unrevealed (not left out, as if forgotten)."""
    if game.secret:
        return tr("its code was {code}", code=code_line(game.secret))
    return tr("its code was never revealed (only {player} knew it)",
              player=mention(game.started_by))


def abandoned_note(game: GameRecord) -> str:
    """Said when a new game replaces one that had gone idle."""
    values = {"id": game.id, "code": _its_code(game)}
    if game.private and _is_game(game):
        return tr("Your previous private game (#{id}) had no move for too long and was "
                  "abandoned; {code}.", **values)
    if game.private:
        return tr("Your previous private challenge (#{id}) had no move for too long and was "
                  "abandoned; {code}.", **values)
    if _is_game(game):
        return tr("The previous game here (#{id}) had no move for too long and was "
                  "abandoned; {code}.", **values)
    return tr("The previous challenge here (#{id}) had no move for too long and was "
              "abandoned; {code}.", **values)


def _no_game(error: NoGameRunning) -> str:
    game = error.abandoned
    if game is None:
        return tr("No game is running in this channel. Start one with `/mastermind new`.")
    values = {"hours": hours(error.idle_timeout), "code": _its_code(game)}
    if game.kind is GameKind.CHALLENGE:
        return tr("The last challenge here went {hours} without a move and was abandoned; "
                  "{code}. Start a new one with `/challenge`.", **values)
    return tr("The last game here went {hours} without a move and was abandoned; {code}. "
              "Start a new one with `/mastermind new`.", **values)


def _no_private_game(error: NoPrivateGame) -> str:
    start = tr("Start one with `/mastermind new private:True` (or `/challenge private:True`).")
    game = error.abandoned
    if game is None:
        none = tr("You have no private game running.")
        return f"{none} {start}"
    idle = hours(error.idle_timeout)
    if game.secret:
        gone = tr("Your private game went {hours} without a move and was abandoned (the code "
                  "was {code}).", hours=idle, code=code_line(game.secret))
    else:
        gone = tr("Your private game went {hours} without a move and was abandoned.",
                  hours=idle)
    return f"{gone} {start}"


def _private_running(game: GameRecord) -> str:
    where = f"<#{game.channel_id}>" if game.guild_id else tr("a DM")
    values = {"id": game.id, "where": where}
    if _is_game(game):
        return trn(
            "Your private game #{id} is still running ({count} guess in, started in "
            "{where}): `/guess` plays it, `/mastermind board` shows it, `/mastermind quit "
            "game:private` ends it. One private game at a time.",
            "Your private game #{id} is still running ({count} guesses in, started in "
            "{where}): `/guess` plays it, `/mastermind board` shows it, `/mastermind quit "
            "game:private` ends it. One private game at a time.", game.turns_used, **values)
    return trn(
        "Your private challenge #{id} is still running ({count} guess in, started in "
        "{where}): answer its guesses with the buttons or `/feedback`, `/mastermind board` "
        "shows it, `/mastermind quit game:private` ends it. One private game at a time.",
        "Your private challenge #{id} is still running ({count} guesses in, started in "
        "{where}): answer its guesses with the buttons or `/feedback`, `/mastermind board` "
        "shows it, `/mastermind quit game:private` ends it. One private game at a time.",
        game.turns_used, **values)


def _already_running(game: GameRecord) -> str:
    link = board_link(game)
    values = {"player": mention(game.started_by),
              "board": " " + tr("(board: {link})", link=link) if link else ""}
    if _is_game(game):
        return trn(
            "A Mastermind game started by {player} is already running in this channel, "
            "{count} guess in{board}: `/mastermind board` shows it, `/guess` plays it, "
            "`/mastermind quit` ends it. One game per channel.",
            "A Mastermind game started by {player} is already running in this channel, "
            "{count} guesses in{board}: `/mastermind board` shows it, `/guess` plays it, "
            "`/mastermind quit` ends it. One game per channel.", game.turns_used, **values)
    return trn(
        "A `/challenge` started by {player} is already running in this channel, {count} "
        "guess in{board}: answer its guesses, or end it with `/mastermind quit`. One game "
        "per channel.",
        "A `/challenge` started by {player} is already running in this channel, {count} "
        "guesses in{board}: answer its guesses, or end it with `/mastermind quit`. One game "
        "per channel.", game.turns_used, **values)


def _not_your_game(game: GameRecord) -> str:
    starter = mention(game.started_by)
    if _is_game(game):
        return tr("Only {player}, who started this game, or someone with the Manage Messages "
                  "permission can end it. You can keep guessing with `/guess`!",
                  player=starter)
    return tr("Only {player}, who started this game, or someone with the Manage Messages "
              "permission can end it. It ends by itself when the code is broken.",
              player=starter)


def _wrong_kind(error: WrongKindOfGame) -> tuple[str, str]:
    if error.game is not None and error.game.private:
        return tr("Your private game is a challenge"), tr(
            "In your private game I break *your* code: answer my guesses with its buttons or "
            "`/feedback`. `/mastermind board game:private` shows it.")
    if error.game is not None:
        return tr("A challenge is running here"), tr(
            "The bot is breaking someone's code in this channel right now, so there is no "
            "code to guess. Answer its guesses with the buttons or `/feedback`.")
    return tr("No challenge here"), tr(
        "No challenge is running in this channel. Start one with `/challenge`: think of a "
        "code and I will try to break it.")


Words = Callable[[Any], tuple[str, str]]
_WORDS: dict[type[UserError], Words] = {}


def says(*kinds: type[UserError]) -> Callable[[Words], Words]:
    """Register the (title, message) a player reads for these errors.

    A feature registers the words for its own errors beside its rendering; the lookup
    follows the class hierarchy, so a subclass can have words of its own."""
    def register(words: Words) -> Words:
        for kind in kinds:
            _WORDS[kind] = words
        return words
    return register


def describe_user_error(error: UserError) -> tuple[str, str]:
    """(title, message) for a player's mistake, in the language being spoken."""
    for kind in type(error).__mro__:
        words = _WORDS.get(kind)
        if words is not None:
            return words(error)
    return tr("That didn't work"), str(error)


says(NoGameRunning)(lambda e: (tr("No game is running here"), _no_game(e)))
says(NoPrivateGame)(lambda e: (tr("No private game"), _no_private_game(e)))
says(GameAlreadyRunning)(lambda e: (tr("A game is already running here"),
                                    _already_running(e.game)))
says(PrivateGameRunning)(lambda e: (tr("You have a private game"), _private_running(e.game)))
says(NotYourGame)(lambda e: (tr("You can't end this game"), _not_your_game(e.game)))
says(WrongKindOfGame)(_wrong_kind)
says(BadRules)(lambda e: (tr("Those rules don't work"), f"{_capital(e.reason)}."))
says(UnknownStrategy)(lambda e: (tr("Unknown strategy"), tr(
    "Unknown strategy {name}: choose one from the list.", name=repr(e.name))))


@says(AlreadyDone)
def _already_done(error: AlreadyDone) -> tuple[str, str]:
    return tr("Already done"), tr(
        "That action arrived twice; it was applied once, the first time. Nothing more "
        "was stored.")


@says(MalformedButton)
def _malformed_button(error: MalformedButton) -> tuple[str, str]:
    return tr("That button is out of date"), tr(
        "I can't read that button: it comes from an older version of the bot. Nothing "
        "was changed. Use the latest board, or `/mastermind board` to show it.")


def _storage_reason(reason: str) -> str:
    """Why the database refused a write, in the reader's words (an unknown reason as is)."""
    if reason == "busy":
        return tr("the database is busy")
    if reason == "disk full":
        return tr("the server's disk is full")
    if reason == "read-only":
        return tr("the database file is read-only")
    if reason == "disk error":
        return tr("the disk reported an error")
    return reason


@says(StorageUnavailable)
def _storage_unavailable(error: StorageUnavailable) -> tuple[str, str]:
    if error.reason == "unreachable":  # a read or a write: neither could reach the server
        return tr("The database is out of reach"), tr(
            "I couldn't reach the database server, so nothing changed: try again in a "
            "minute. If it keeps happening, tell the server's admins.")
    return tr("Nothing was stored"), tr(
        "I couldn't save that because {reason}, so nothing changed: try again in a "
        "minute. If it keeps happening, tell the server's admins.",
        reason=_storage_reason(error.reason))


@says(GameOver)
def _game_over(error: GameOver) -> tuple[str, str]:
    if error.game is None:
        return tr("Unknown challenge"), tr("That challenge no longer exists.")
    return tr("This challenge is over"), tr(
        "This challenge is over. Start a new one with `/challenge`.")


#: How to type a code where it was typed, from an example code: each feature registers its
#: command's syntax (:func:`typed_as`); a form or an option takes the code alone.
_SYNTAX: dict[CodeEntry, Callable[[str], str]] = {}


def typed_as(entry: CodeEntry) -> Callable[[Callable[[str], str]], Callable[[str], str]]:
    """Register how a code is typed at ``entry``, under the reader's command names
    (``lambda code: command(f"/guess {code}")``)."""
    def register(syntax: Callable[[str], str]) -> Callable[[str], str]:
        _SYNTAX[entry] = syntax
        return syntax
    return register


@says(BadCode)
def _bad_code(error: BadCode) -> tuple[str, str]:
    shown = _SYNTAX.get(error.entry, str)(example(error.rules))
    return tr("That is not a valid code"), tr(
        "{reason}.\nThis game: {rules}. Example: `{example}`.", reason=_capital(error.reason),
        rules=error.rules.describe(), example=shown)


