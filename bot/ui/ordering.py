"""Where an interaction stands in time, for actions that carry no turn (``/feedback``).

Discord ids are snowflakes: they grow with the time an interaction was created. A turn
opened at snowflake ``m`` was not yet on the board for any interaction with an id up to
``m``; the mark is the later of "now" and the newest interaction already received, so two
commands sent together are told apart even within one millisecond.
"""

from __future__ import annotations

import discord


class InteractionOrder:
    def __init__(self) -> None:
        self.latest_seen = 0

    def seen(self, interaction_id: int) -> None:
        self.latest_seen = max(self.latest_seen, interaction_id)

    def mark(self) -> int:
        return max(discord.utils.time_snowflake(discord.utils.utcnow(), high=True),
                   self.latest_seen)
