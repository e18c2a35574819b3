"""Ratings in words: each player's change on a rated result (a match's, a race's), the
reasons a game didn't count, and the season's name. Called where shown, so the words are
the reader's language."""

from __future__ import annotations

from collections.abc import Callable

import discord

from i18n import tr, trn
from i18n.numbers import number

from ...ui.messages import mention, player_name, says
from ..stats.render import MEDALS, NAME_WIDTH
from . import model
from .errors import RatingsPerServer, UnknownSeason
from .service import Board, PlayerCard, RatingChange, RatingOutcome, WhyNot

#: Why a game didn't move a player's rating, in words.
WHY_NOT: dict[str, Callable[[], str]] = {
    WhyNot.PAIR_CAP: lambda: tr("not rated: today's limit of rated games against the same "
                                "players is reached"),
    WhyNot.ALONE: lambda: tr("not rated: nobody to be rated against"),
    WhyNot.DM: lambda: tr("not rated: ratings are kept per server"),
}


def rating_number(value: float) -> str:
    """A shown rating, a whole number in the reader's digits (``1,234``)."""
    return number(round(value), 0)


def provisional_mark() -> str:
    # TRANSLATORS: marks a rating from a player's first few rated games (like chess's "?").
    return tr("provisional")


def signed(delta: float) -> str:
    """``+12``, ``−7``, ``±0`` (a true minus sign)."""
    whole = round(delta)
    if whole == 0:
        return "±0"
    return ("+" if whole > 0 else "\N{MINUS SIGN}") + number(abs(whole), 0)


def change_words(change: RatingChange) -> str:
    """One player's change: ``1,000 → 1,098 (+98, provisional)``, or why it didn't count."""
    if not change.rated:
        shown = rating_number(change.before) if change.before is not None else "—"
        return f"{shown} · {WHY_NOT.get(change.why_not or '', WHY_NOT[WhyNot.ALONE])()}"
    before = model.newcomer() if change.before is None else change.before
    after = change.after if change.after is not None else before
    note = signed(after - before)
    if change.provisional:
        note = f"{note}, {provisional_mark()}"
    return f"{rating_number(before)} → **{rating_number(after)}** ({note})"


def outcome_lines(outcome: RatingOutcome) -> list[str]:
    """Each player's change as a line for a result embed (``<@id>: 1,000 → 1,098 (+98)``),
    in the order given; empty when nobody has a rating to show (a DM)."""
    if all(c.why_not == WhyNot.DM for c in outcome.changes):
        return []
    return [f"{mention(c.user_id)}: {change_words(c)}" for c in outcome.changes]


def outcome_field(outcome: RatingOutcome) -> tuple[str, str] | None:
    """(name, value) of a result embed's field, or None when there is nothing to show."""
    lines = outcome_lines(outcome)
    if not lines:
        return None
    return tr("Rating"), "\n".join(lines)[:1024]


def season_name(season: str) -> str:
    """``2026-11``, ``2026 Q4`` or "all seasons" (seasons off)."""
    if season == model.NO_SEASONS:
        return tr("all time")
    return season.replace("-Q", " Q")


# ---- the rating board (/leaderboard mode:rating) ------------------------------------------


def _rank(rank: int) -> str:
    return MEDALS.get(rank) or f"`#{rank:>3}`"


def _rated(rating: float, total_games: int) -> str:
    """``**1,234**``, with the provisional mark for a player's first rated games."""
    shown = f"**{rating_number(rating)}**"
    if total_games < model.PROVISIONAL_GAMES:
        shown += f" *({provisional_mark()})*"
    return shown


def _games(count: int) -> str:
    return trn("{count} game", "{count} games", count)


def _name(board: Board, user_id: int) -> str:
    name = board.names.get(user_id)
    return player_name(name, NAME_WIDTH) if name else mention(user_id)


def _season_title(board: Board) -> str:
    if board.season == model.NO_SEASONS:
        return tr("all time")
    if board.current:
        return tr("season {season}", season=season_name(board.season))
    # TRANSLATORS: a rating season that has ended, its final standings.
    return tr("season {season} (final)", season=season_name(board.season))


def board_embed(board: Board, server: str, viewer_name: str) -> discord.Embed:
    """A page of a season's rating board, with the viewer's own place."""
    title = " · ".join((tr("Ratings"), server, _season_title(board)))
    lines = [f"{_rank(s.rank)} **{_name(board, s.user_id)}** · "
             f"{_rated(s.rating, s.total_games)} · {_games(s.games)}" for s in board.rows]
    empty = (tr("Nobody is rated this season yet: play someone with `/match opponent:`, or "
                "race each other!") if board.current else tr("Nobody was rated that season."))
    embed = discord.Embed(title=title[:256], description="\n".join(lines) or empty,
                          colour=discord.Colour.gold())
    rank_title = tr("{player}'s rating", player=player_name(viewer_name, NAME_WIDTH))
    if board.viewer is not None:
        mine = board.viewer
        embed.add_field(name=rank_title, value=tr(
            "{rank} {rating} · {games} (of {total})", rank=_rank(mine.rank),
            rating=_rated(mine.rating, mine.total_games), games=_games(mine.games),
            total=number(board.size)), inline=False)
    else:
        embed.add_field(name=rank_title, value=tr(
            "Not rated this season yet: rated games are matches between two players and "
            "races.") if board.current else tr("Not rated that season."), inline=False)
    embed.set_footer(text=tr(
        "Page {page}/{pages} · the conservative rating (OpenSkill) · provisional: the first "
        "{count} rated games · seasons are UTC", page=board.page + 1, pages=board.pages,
        count=model.PROVISIONAL_GAMES))
    return embed


# ---- /stats -------------------------------------------------------------------------------
def card_field(card: PlayerCard) -> tuple[str, str]:
    """(name, value) of ``/stats``'s rating field: rating, rank, last change, best."""
    player = card.rating
    lines = [_rated(player.rating, player.total_games)]
    if card.rank is not None:
        lines[0] += " · " + tr("#{rank} of {total} this season ({season})",
                               rank=number(card.rank), total=number(card.total),
                               season=season_name(card.season))
    else:
        lines[0] += " · " + tr("not rated this season yet")
    last = card.last
    if last is not None and last.after is not None:
        before = model.newcomer() if last.before is None else last.before
        lines.append(tr("Last change: {change} <t:{when}:R>",
                        change=signed(last.after - before), when=int(last.changed_at)))
    if card.current:
        lines.append(tr("Best this season: {rating} · {games} this season, {total} in all",
                        rating=rating_number(player.best), games=_games(player.games),
                        total=number(player.total_games)))
    return tr("Rating in this server"), "\n".join(lines)[:1024]


# ---- the words for rating mistakes ---------------------------------------------------------
@says(RatingsPerServer)
def _per_server(error: RatingsPerServer) -> tuple[str, str]:
    return tr("Ratings are kept per server"), tr(
        "Each server has its own ratings: ask `/leaderboard` for the rating mode in a "
        "server's channel.")


@says(UnknownSeason)
def _unknown_season(error: UnknownSeason) -> tuple[str, str]:
    known = ", ".join(f"`{s}`" for s in error.known[:12]) or tr("none yet")
    return tr("No such season"), tr(
        "This server has no rating season {season}. Seasons here: {seasons}. Leave "
        "`season:` out for the current one.", season=f"`{error.season[:20]}`", seasons=known)
