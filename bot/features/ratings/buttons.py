"""The rating board's paging buttons: persistent, their custom_ids carry the server, the
season, the page and the row the page turns from (the last row shown, or the first: a deep
page is found from it, not counted); they parse it and hand over to the RatingsCog.
Buttons from before the row was carried turn by the page's number."""

from __future__ import annotations

import re

import discord

from i18n import tr

from ...core.errors import MalformedButton
from ...ui.buttons import MAX_ID, ReportingButton, cog_of
from .service import PageTurn

#: A season as stored: ``2026-11``, ``2026-Q4``, or ``all`` (seasons off).
SEASON_PATTERN = r"all|\d{4}-(?:0[1-9]|1[0-2])|\d{4}-Q[1-4]"
#: A shown rating as ``repr`` writes it (``1234.5678``, ``1e-05``): read back to the same
#: float.
_RATING = r"-?\d{1,17}(?:\.\d{1,17})?(?:e[+-]\d{2,3})?"
_PAGE = re.compile(rf"(?P<guild>\d{{1,20}}):(?P<season>{SEASON_PATTERN})"
                   rf":(?P<page>\d{{1,6}}):(?P<way>prev|next)"
                   rf"(?::(?P<rating>{_RATING}):(?P<user>\d{{1,20}}))?")


class RatingPageButton(ReportingButton, prefix="mmo"):
    """Prev/next on a rating board."""

    def __init__(self, guild_id: int, season: str, page: int, way: str,
                 row: tuple[float, int] | None = None, *, disabled: bool = False,
                 readable: bool = True):
        self.guild_id, self.season, self.page, self.readable = guild_id, season, page, readable
        self.turn = None if row is None else PageTurn(row[0], row[1], way == "next")
        beside = "" if row is None else f":{float(row[0])!r}:{int(row[1])}"
        super().__init__(discord.ui.Button(
            label=tr("◀ Prev") if way == "prev" else tr("Next ▶"),
            style=discord.ButtonStyle.secondary,
            custom_id=f"mmo:{guild_id}:{season}:{page}:{way}{beside}", disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> RatingPageButton:
        found = _PAGE.fullmatch(match["body"])
        if found is None or int(found["guild"]) > MAX_ID or (
                found["user"] is not None and int(found["user"]) > MAX_ID):
            return cls(0, "all", 0, "next", readable=False)
        row = None if found["user"] is None else (float(found["rating"]), int(found["user"]))
        return cls(int(found["guild"]), found["season"], int(found["page"]), found["way"], row)

    async def run(self, interaction: discord.Interaction) -> None:
        if not self.readable:
            raise MalformedButton()
        from .cog import RatingsCog  # the cog builds these buttons: import it when clicked

        await cog_of(interaction, RatingsCog).on_page(interaction, self.guild_id, self.season,
                                                      self.page, self.turn)
