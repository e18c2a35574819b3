"""The one place domain errors and notes become words: mentions, code formatting, links."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from engine import format_code

from ..core.enums import GameKind
from ..core.errors import (
    AlreadyDone,
    AlreadyGuessed,
    BadCode,
    BadRules,
    BadSize,
    GameAlreadyRunning,
    GameOver,
    ImpossibleReply,
    MalformedButton,
    NoGameRunning,
    NoPrivateGame,
    NothingToTakeBack,
    NotYourChallenge,
    NotYourGame,
    NotYourPrompt,
    OutOfDate,
    PrivateGameRunning,
    RepliesContradict,
    StorageUnavailable,
    TooLate,
    UnknownStrategy,
    UserError,
    WrongKindOfGame,
)
from ..core.records import GameRecord
from .pegs import code_line


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def guesses(n: int) -> str:
    return f"{n} {'guess' if n == 1 else 'guesses'}"


def player_name(name: str, limit: int = 40) -> str:
    """A player's name for markdown text: cut first (to ``limit`` characters, with …), then
    escaped, so a cut never leaves half an escape; markdown and mentions (``@everyone``,
    ``<@id>``) show as typed."""
    name = " ".join(name.split()) or "?"
    if len(name) > limit:
        name = name[: limit - 1].rstrip() + "\N{HORIZONTAL ELLIPSIS}"
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(name))
    return escaped.replace("<", "\\<")


def hours(seconds: float) -> str:
    value = seconds / 3600
    return "1 hour" if value == 1 else f"{value:g} hours"


def board_link(game: GameRecord) -> str:
    if not game.board_message_id:
        return ""
    return (f"https://discord.com/channels/{game.guild_id or '@me'}/{game.channel_id}/"
            f"{game.board_message_id}")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _kind(game: GameRecord) -> str:
    return "game" if game.kind is GameKind.BREAKER else "challenge"


def _its_code(game: GameRecord) -> str:
    """How an abandoned game's code is revealed: the bot's own, shown; a challenger's, never
    told to the bot, said to be unrevealed (not left out, as if forgotten)."""
    if game.secret:
        return f"its code was {code_line(game.secret)}"
    return f"its code was never revealed (only {mention(game.started_by)} knew it)"


def abandoned_note(game: GameRecord) -> str:
    """Said when a new game replaces one that had gone idle."""
    whose = (f"Your previous private {_kind(game)}" if game.private
             else f"The previous {_kind(game)} here")
    return (f"{whose} (#{game.id}) had no move for too long and was abandoned; "
            f"{_its_code(game)}.")


def _no_game(error: NoGameRunning) -> str:
    start = "Start one with `/mastermind new`."
    game = error.abandoned
    if game is None:
        return f"No game is running in this channel. {start}"
    again = "`/challenge`" if game.kind is GameKind.CHALLENGE else "`/mastermind new`"
    return (f"The last {_kind(game)} here went {hours(error.idle_timeout)} without a move and "
            f"was abandoned; {_its_code(game)}. Start a new one with {again}.")


def _no_private_game(error: NoPrivateGame) -> str:
    start = "Start one with `/mastermind new private:True` (or `/challenge private:True`)."
    game = error.abandoned
    if game is None:
        return f"You have no private game running. {start}"
    code = f" (the code was {code_line(game.secret)})" if game.secret else ""
    return (f"Your private game went {hours(error.idle_timeout)} without a move and was "
            f"abandoned{code}. {start}")


def _private_running(game: GameRecord) -> str:
    what = "game" if game.kind is GameKind.BREAKER else "challenge"
    how = ("`/guess` plays it" if game.kind is GameKind.BREAKER
           else "answer its guesses with the buttons or `/feedback`")
    where = f"<#{game.channel_id}>" if game.guild_id else "a DM"
    return (f"Your private {what} #{game.id} is still running ({guesses(game.turns_used)} in, "
            f"started in {where}): {how}, `/mastermind board` shows it, "
            f"`/mastermind quit game:private` ends it. One private game at a time.")


def _already_running(game: GameRecord) -> str:
    what = "A Mastermind game" if game.kind is GameKind.BREAKER else "A `/challenge`"
    link = board_link(game)
    where = f" (board: {link})" if link else ""
    how = (
        "`/mastermind board` shows it, `/guess` plays it, `/mastermind quit` ends it"
        if game.kind is GameKind.BREAKER
        else "answer its guesses, or end it with `/mastermind quit`"
    )
    return (f"{what} started by {mention(game.started_by)} is already running in this "
            f"channel, {guesses(game.turns_used)} in{where}: {how}. One game per channel.")


def _out_of_date(error: OutOfDate) -> str:
    """Why an action was refused, in the words of what the player did: a button or a typed
    ``/feedback``; a board that had moved on, or another action stored a moment before."""
    current = len(error.game.replies) + 1  # the guess on the board as the action read it
    link = board_link(error.game)
    latest = f"the latest board ({link})" if link else "the latest board"
    if error.action == "reveal":
        return ("The challenge moved on while you typed your code (another reply or "
                f"take-back came first), so it was not revealed. Nothing was stored: use "
                f"{latest} and reveal again.")
    if error.action == "take back":
        if error.raced:
            return (f"Your reply to guess {error.given_turn} changed a moment before this "
                    f"click (taken back, or answered by another click), so nothing was taken "
                    f"back: use {latest}.")
        return (f"That button takes back your reply to guess {error.given_turn}, but your "
                f"last reply is to guess {current - 1} now: use {latest}. Nothing was stored.")
    if error.given_turn is None and error.raced:
        return (f"Another reply to guess {current} was stored a moment before yours. Nothing "
                f"was stored from yours: the latest board in this channel shows my next "
                f"guess.")
    if error.given_turn is None:
        return (f"My guess {current} went up after you typed that, so your reply would answer "
                f"a guess you hadn't seen. Nothing was stored: look at {latest} and answer "
                f"again.")
    if error.raced:
        return (f"Guess {error.given_turn} was answered a moment before this click (a double "
                f"click?). Nothing was stored from this one: use {latest}.")
    return (f"That button belongs to guess {error.given_turn}, but I'm on guess {current} "
            f"now: use {latest}. Nothing was stored.")


def _not_your_game(game: GameRecord) -> str:
    keep = ("You can keep guessing with `/guess`!" if game.kind is GameKind.BREAKER
            else "It ends by itself when the code is broken.")
    return (f"Only {mention(game.started_by)}, who started this game, or someone with the "
            f"Manage Messages permission can end it. {keep}")


def _wrong_kind(error: WrongKindOfGame) -> tuple[str, str]:
    if error.game is not None and error.game.private:
        return "Your private game is a challenge", (
            "In your private game I break *your* code: answer my guesses with its buttons or "
            "`/feedback`. `/mastermind board game:private` shows it.")
    if error.game is not None:
        return "A challenge is running here", (
            "The bot is breaking someone's code in this channel right now, so there is no "
            "code to guess. Answer its guesses with the buttons or `/feedback`.")
    return "No challenge here", (
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
    """(title, message) for a player's mistake."""
    for kind in type(error).__mro__:
        words = _WORDS.get(kind)
        if words is not None:
            return words(error)
    return "That didn't work", str(error)


says(NoGameRunning)(lambda e: ("No game is running here", _no_game(e)))
says(NoPrivateGame)(lambda e: ("No private game", _no_private_game(e)))
says(GameAlreadyRunning)(lambda e: ("A game is already running here", _already_running(e.game)))
says(PrivateGameRunning)(lambda e: ("You have a private game", _private_running(e.game)))
says(NotYourGame)(lambda e: ("You can't end this game", _not_your_game(e.game)))
says(WrongKindOfGame)(_wrong_kind)
says(OutOfDate)(lambda e: ("That board is out of date", _out_of_date(e)))
says(NothingToTakeBack)(lambda e: ("Nothing to take back", "There is no reply to take back yet."))
says(BadRules)(lambda e: ("Those rules don't work", f"{_capital(e.reason)}."))
says(NotYourPrompt)(lambda e: ("That's not yours", "Only the person who asked can confirm this."))
says(UnknownStrategy)(lambda e: (
    "Unknown strategy", f"Unknown strategy {e.name!r}: choose one from the list."))


@says(TooLate)
def _too_late(error: TooLate) -> tuple[str, str]:
    game = error.game
    return "This game is over", (
        f"Too late: {mention(game.winner_id or 0)} already broke the code "
        f"{code_line(game.secret or ())} in {guesses(game.turns_used)}. "
        f"Start a new game with `/mastermind new`.")


@says(NotYourChallenge)
def _not_your_challenge(error: NotYourChallenge) -> tuple[str, str]:
    return "This is not your challenge", (
        f"This is not your challenge: only {mention(error.game.started_by)} knows the "
        f"code. Start your own with `/challenge` in another channel, or when this one "
        f"ends.")


@says(AlreadyGuessed)
def _already_guessed(error: AlreadyGuessed) -> tuple[str, str]:
    g = error.earlier
    return "Already on the board", (
        f"`{format_code(g.code)}` was already guessed on turn {g.turn} "
        f"({g.feedback.black} black, {g.feedback.white} white), so it costs no turn. "
        f"Try a code that fits every row.")


@says(AlreadyDone)
def _already_done(error: AlreadyDone) -> tuple[str, str]:
    return "Already done", (
        "That action arrived twice; it was applied once, the first time. Nothing more "
        "was stored.")


@says(MalformedButton)
def _malformed_button(error: MalformedButton) -> tuple[str, str]:
    return "That button is out of date", (
        "I can't read that button: it comes from an older version of the bot. Nothing "
        "was changed. Use the latest board, or `/mastermind board` to show it.")


_STORAGE_REASONS = {"busy": "the database is busy", "disk full": "the server's disk is full",
                    "read-only": "the database file is read-only",
                    "disk error": "the disk reported an error"}


@says(StorageUnavailable)
def _storage_unavailable(error: StorageUnavailable) -> tuple[str, str]:
    if error.reason == "unreachable":  # a read or a write: neither could reach the server
        return "The database is out of reach", (
            "I couldn't reach the database server, so nothing changed: try again in a "
            "minute. If it keeps happening, tell the server's admins.")
    why = _STORAGE_REASONS.get(error.reason, error.reason)
    return "Nothing was stored", (
        f"I couldn't save that because {why}, so nothing changed: try again in a "
        f"minute. If it keeps happening, tell the server's admins.")


@says(GameOver)
def _game_over(error: GameOver) -> tuple[str, str]:
    if error.game is None:
        return "Unknown challenge", "That challenge no longer exists."
    return "This challenge is over", "This challenge is over. Start a new one with `/challenge`."


@says(BadCode)
def _bad_code(error: BadCode) -> tuple[str, str]:
    return "That is not a valid code", (
        f"{_capital(error.reason)}.\nThis game: {error.rules.describe()}. "
        f"Example: `{error.example_command}`.")


@says(ImpossibleReply)
def _impossible_reply(error: ImpossibleReply) -> tuple[str, str]:
    return "That reply is impossible", (
        f"{error.reason}. Count again: black = right colour in the right place, "
        f"white = right colour in the wrong place.")


@says(RepliesContradict)
def _replies_contradict(error: RepliesContradict) -> tuple[str, str]:
    return "Replies contradict each other", (
        "Your replies already contradict each other: take back the last reply or "
        "reveal your code first.")


@says(BadSize)
def _bad_size(error: BadSize) -> tuple[str, str]:
    return "Unknown size", (
        f"{error.text!r} is not a rule size: write pegs x colours like `4x6`, or "
        f"`5x8 no-repeats`.")
