"""Breaker boards. Pure functions of stored games: easy to test.

One live board per game: the board opens with the rules and the colour key once; after
that it is its rows, compact enough for a phone; the board a move replaced collapses to
that move's one line (:func:`collapsed_line`). A finished board leads with who cracked it,
and carries a spoiler-free grid to share and a "Play again" button. Every word is looked up
when drawn: a channel's board is drawn inside ``publicly`` (the server's language), a
private game's in its player's.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from engine import Rules, example, format_code
from i18n import command, tr, trn

from ...core.enums import CodeEntry, GameStatus
from ...core.records import GameRecord, GuessRecord
from ...ui.messages import guesses, mention, player_name, says, typed_as
from ...ui.pegs import (
    BLACK_PEG,
    EMBED_DESCRIPTION_MAX,
    WHITE_PEG,
    code_line,
    feedback_row,
    key_pegs,
    legend,
    name_width,
    rows_within,
    share_rows,
)
from .errors import AlreadyGuessed, GameMovedOn, NotYourTurn, TooLate

COLOURS = {
    GameStatus.ACTIVE: discord.Colour.blurple(),
    GameStatus.WON: discord.Colour.green(),
    GameStatus.LOST: discord.Colour.red(),
    GameStatus.QUIT: discord.Colour.dark_grey(),
    GameStatus.ABANDONED: discord.Colour.dark_grey(),
}
CELEBRATE = "\N{PARTY POPPER}"
HINT_MARK = "\N{ELECTRIC LIGHT BULB}"


def key_text() -> str:
    """What the key pegs mean, in the reader's language."""
    return tr("`{black}` right colour, right place · `{white}` right colour, wrong place",
              black=BLACK_PEG, white=WHITE_PEG)


def hinted_note(hints: int) -> str:
    return trn("{count} used: this crack won't count on the leaderboards",
               "{count} used: this crack won't count on the leaderboards", hints)


def _who(g: GuessRecord, rules: Rules, names: Mapping[int, str] | None) -> str:
    """A short escaped name (a mention when the caller has no names to hand)."""
    if names is None:
        return mention(g.player_id)
    name = names.get(g.player_id)
    return player_name(name, name_width(rules)) if name else tr("someone")


def rows(game: GameRecord, names: Mapping[int, str] | None,
         budget: int = EMBED_DESCRIPTION_MAX) -> str:
    rules = game.rules
    return rows_within(game.guesses, lambda g: feedback_row(
        g.turn, g.code, g.feedback, rules, _who(g, rules, names)), budget)


def board_embed(game: GameRecord, *, note: str | None = None,
                names: Mapping[int, str] | None = None) -> discord.Embed:
    """The whole board as it stands, in the language being spoken (a channel's board:
    render it inside ``publicly``); ``names`` are the players' display names by id."""
    rules = game.rules
    title, headline = _headline(game)
    if game.active and not game.guesses:
        parts = [note, headline,
                 tr("After each guess I answer with key pegs: {key}.", key=key_text()),
                 tr("**Colours** {legend}", legend=legend(rules))]
    else:
        parts = [note, None if game.active else headline]
        if not game.active and game.guesses:
            parts.append(share_grid(game))
        around = len("\n\n".join(p for p in parts if p)) + 4  # the rows' two separators
        parts.insert(2, rows(game, names, EMBED_DESCRIPTION_MAX - around))
    embed = discord.Embed(title=title, description="\n\n".join(p for p in parts if p),
                          colour=COLOURS[game.status])
    if game.hints:
        embed.add_field(name=tr("Hints"), value=hinted_note(game.hints), inline=True)
    embed.set_footer(text=_footer(game))
    return embed


def game_label(game: GameRecord) -> str:
    """``Game #12``, or ``Private game #12``: the one only its player sees."""
    if game.race_id is not None:
        return tr("Race #{id}", id=game.race_id)
    if game.private:
        return tr("Private game #{id}", id=game.id)
    return tr("Game #{id}", id=game.id)


def _footer(game: GameRecord) -> str:
    rules = game.rules
    if not game.active:
        return f"{game_label(game)} · {rules.describe()}"
    if not game.guesses:
        return f"{game_label(game)} · {guesses(rules.max_guesses)} · {command('/mastermind help')}"
    left = trn("{left} of {count} guess left", "{left} of {count} guesses left",
               rules.max_guesses, left=game.guesses_left)
    pegs = tr("{black} right place · {white} wrong place", black=BLACK_PEG, white=WHITE_PEG)
    return f"{game_label(game)} · {left} · {pegs} · {command('/guess ' + example(rules))}"


def _guessers(game: GameRecord) -> str:
    """Who may guess: anyone here, but only the breaker of a match's half-round, and never
    the person who set the code."""
    if game.race_id is not None:
        return tr("It's your own board in the race, seen by you alone")
    if game.private:
        return tr("It's your private game, seen by you alone")
    if game.match_id is not None:
        return tr("Only {player} guesses", player=mention(game.started_by))
    if game.setter_id is None:
        return tr("Anyone here can guess")
    return tr("Anyone but the setter can guess")


def _opening(game: GameRecord) -> str:
    """The first board's headline: who set what code, who guesses, how."""
    rules = game.rules
    values = {
        "code": trn("a secret code of **{count} peg**", "a secret code of **{count} pegs**",
                    rules.pegs),
        "colours": trn("from **{count} colour**", "from **{count} colours**", rules.colors),
        "repeats": tr("colours may repeat") if rules.repeats else tr("no colour twice"),
    }
    if game.setter_id is None:
        picked = tr("I picked {code} {colours} ({repeats}).", **values)
    else:
        picked = tr("{player} set {code} {colours} ({repeats}).",
                    player=mention(game.setter_id), **values)
    how = trn("{who}: `/guess {example}`, {count} guess in all.",
              "{who}: `/guess {example}`, {count} guesses in all.", rules.max_guesses,
              who=_guessers(game), example=example(rules))
    return f"{picked} {how}"


def _headline(game: GameRecord) -> tuple[str, str]:
    n = game.turns_used
    rules = game.rules
    secret = code_line(game.secret) if game.secret else "?"
    if game.secret_withheld:
        secret = tr("shown in the channel when the race ends")
    match game.status:
        case GameStatus.ACTIVE:
            title = (tr("Race: break the code!") if game.race_id is not None
                     else tr("Your private game: break the code!") if game.private
                     else tr("Mastermind: break the code!"))
            return title, _opening(game)
        case GameStatus.WON:
            return trn("Code broken in {count} guess!", "Code broken in {count} guesses!", n), (
                CELEBRATE + " " + tr(
                    "{player} cracked it on guess {turn} of {max}. The code was {code}.",
                    player=mention(game.winner_id or 0), turn=n, max=rules.max_guesses,
                    code=secret))
        case GameStatus.LOST:
            return tr("Out of guesses: the code wins"), trn(
                "Nobody cracked it in {count} guess. The code was {code}.",
                "Nobody cracked it in {count} guesses. The code was {code}.",
                rules.max_guesses, code=secret)
        case GameStatus.QUIT:
            return tr("Game ended"), tr("The code was {code}.", code=secret)
    return tr("Game abandoned"), tr("Nobody moved for a long time. The code was {code}.",
                                    code=secret)


def share_grid(game: GameRecord) -> str:
    """The result as emoji anyone can paste anywhere: a header, then a line of key pegs per
    guess (folded past :data:`~bot.ui.pegs.SHARE_ROWS`); no colours, so it gives nothing
    away."""
    rules = game.rules
    score = f"{game.turns_used}/{rules.max_guesses}" if game.status is GameStatus.WON \
        else f"X/{rules.max_guesses}"
    size = f"{rules.pegs}x{rules.colors}" + ("" if rules.repeats else " no-repeats")
    rows = share_rows([g.feedback for g in game.guesses], rules.pegs)
    return "\n".join([f"Mastermind {size} {score}", *rows])


def collapsed_line(game: GameRecord, turn: int, names: Mapping[int, str] | None = None) -> str:
    """What a replaced board shrinks to: the move it answered, on one line (the board
    itself lives on in the newest message)."""
    if turn <= 0 or turn > len(game.guesses):
        return tr("Game #{id} started: {rules}. The board is below.", id=game.id,
                  rules=game.rules.describe())
    g = game.guesses[turn - 1]
    who = _who(g, game.rules, names)
    return f"`{g.turn:>2}` {code_line(g.code)} {key_pegs(g.feedback)} {who}"


# ---- the words for breaker mistakes ------------------------------------------------------
typed_as(CodeEntry.GUESS)(lambda code: command(f"/guess {code}"))


@says(TooLate)
def _too_late(error: TooLate) -> tuple[str, str]:
    game = error.game
    return tr("This game is over"), trn(
        "Too late: {player} already broke the code {code} in {count} guess. Start a new "
        "game with `/mastermind new`.",
        "Too late: {player} already broke the code {code} in {count} guesses. Start a new "
        "game with `/mastermind new`.", game.turns_used, player=mention(game.winner_id or 0),
        code=code_line(game.secret or ()))


@says(AlreadyGuessed)
def _already_guessed(error: AlreadyGuessed) -> tuple[str, str]:
    g = error.earlier
    return tr("Already on the board"), tr(
        "`{code}` was already guessed on turn {turn} ({reply}), so it costs no turn. Try a "
        "code that fits every row.", code=format_code(g.code), turn=g.turn, reply=g.feedback)


@says(NotYourTurn)
def _not_your_turn(error: NotYourTurn) -> tuple[str, str]:
    game = error.game
    if game.setter_id is not None and game.match_id is None:
        return tr("You set this code"), tr(
            "You set this code, so you can't guess it: watch the others try! "
            "`/mastermind quit` ends the game.")
    return tr("Not your code to break"), tr(
        "In this match only {player} guesses this code. Watch, or start your own game in "
        "another channel.", player=mention(game.started_by))


@says(GameMovedOn)
def _moved_on(error: GameMovedOn) -> tuple[str, str]:
    if error.running is None:
        return tr("That game is over"), tr(
            "Game #{id} has ended, so this picker can't play it any more. Nothing was "
            "stored. Start a new game with `/mastermind new`.", id=error.game_id)
    return tr("A new game runs here"), tr(
        "Game #{id} has ended and game #{running} runs here now: press **{guess}** on its "
        "board. Nothing was stored.", id=error.game_id, running=error.running.id,
        guess=tr("Guess"))
