"""The challenge board: an embed, and persistent buttons whose custom_id carries the game.

Every button is one :class:`ChallengeButton` (a ``DynamicItem``): ``mmc:<action>:<game>...``.
After a restart discord.py rebuilds it from the custom_id alone, so old boards keep working.
"""

from __future__ import annotations

import contextlib
import re

import discord

from engine import Feedback, Rules, example, get_strategy, possible_feedbacks

from ..breaker import read_code
from ..challenge import ChallengeState
from ..render import code_line, pegs
from ..replies import report_error

#: One button per possible reply when there are at most this many (4 rows of 5).
MAX_REPLY_BUTTONS = 20
PREFIX = "mmc"


def custom_id(action: str, game: int, *parts: int) -> str:
    return ":".join([PREFIX, action, str(game), *map(str, parts)])


def reply_label(fb: Feedback) -> str:
    return f"{fb.black}B {fb.white}W"


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mmc:(?P<action>r|b|back|undo|reveal):(?P<game>\d+)(?P<rest>(?::\d+){0,3})",
):
    """Any button of a challenge board; ``action`` says what it does."""

    def __init__(self, action: str, game: int, *parts: int, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 row: int | None = None):
        self.action, self.game, self.parts = action, game, parts
        super().__init__(
            discord.ui.Button(label=label or action, style=style,
                              custom_id=custom_id(action, game, *parts), row=row)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ChallengeButton:
        parts = tuple(int(p) for p in match["rest"].split(":") if p)
        return cls(match["action"], int(match["game"]), *parts, label=item.label or "",
                   style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        # DynamicItem errors bypass View.on_error: report them here, in the one shared way.
        try:
            await handle_button(interaction, self.action, self.game, self.parts)
        except Exception as exc:  # report_error logs the unexpected ones
            await report_error(interaction, exc)


async def handle_button(
    interaction: discord.Interaction, action: str, game_id: int, parts: tuple[int, ...]
) -> None:
    service = interaction.client.challenges  # type: ignore[attr-defined]
    game, replies = await service.load(game_id)
    service.check_challenger(game, interaction.user.id)
    if action == "reveal":
        await interaction.response.send_modal(RevealModal(game_id, game.rules))
        return
    if action in ("b", "back"):
        service.check_turn(replies, parts[0])
        await interaction.response.defer()  # rebuilding the solver after a restart takes time
        state = await service.current_state(game_id)
        black = parts[1] if action == "b" else None
        await interaction.edit_original_response(view=challenge_view(state, black=black))
        return
    if action == "r":
        service.check_turn(replies, parts[0])
    await interaction.response.defer()  # the solver may take a moment: answer Discord first
    if action == "undo":
        state = await service.take_back(game_id=game_id, user_id=interaction.user.id)
    else:
        turn, black, white = parts
        state = await service.reply(game_id=game_id, turn=turn, feedback=(black, white),
                                    user_id=interaction.user.id)
    await interaction.edit_original_response(embed=challenge_embed(state),
                                             view=challenge_view(state))


async def post_board(interaction: discord.Interaction, state: ChallengeState,
                     previous_message_id: int | None) -> None:
    """Send the board as the answer to a deferred command and make it the live one.

    The previous board's buttons belong to an older guess: they are taken off (best effort).
    """
    service = interaction.client.challenges  # type: ignore[attr-defined]
    message = await interaction.followup.send(
        embed=challenge_embed(state), view=challenge_view(state) or discord.utils.MISSING,
        wait=True,
    )
    if previous_message_id and previous_message_id != message.id:
        await strip_buttons(interaction, previous_message_id)
    await service.breaker.set_board_message(state.game.id, message.id)


async def strip_buttons(interaction: discord.Interaction, message_id: int) -> None:
    if interaction.channel is None:
        return
    with contextlib.suppress(discord.HTTPException):
        await interaction.channel.get_partial_message(message_id).edit(view=None)


class RevealModal(discord.ui.Modal, title="Reveal your code"):
    def __init__(self, game_id: int, rules: Rules):
        super().__init__(timeout=600)
        self.game_id, self.rules = game_id, rules
        self.code = discord.ui.TextInput(
            label=f"Your secret code ({rules.pegs} pegs)", placeholder="e.g. 1123 or RROY",
            min_length=1, max_length=64, custom_id="code",
        )
        self.add_item(self.code)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        service = interaction.client.challenges  # type: ignore[attr-defined]
        read_code(self.code.value, self.rules, f"Type your code like {example(self.rules)}.")
        await interaction.response.defer()  # a typo is answered above, before this
        state = await service.reveal(game_id=self.game_id, user_id=interaction.user.id,
                                     code_text=self.code.value)
        await interaction.edit_original_response(embed=challenge_embed(state), view=None)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await report_error(interaction, error)


def challenge_view(state: ChallengeState, *, black: int | None = None) -> discord.ui.View | None:
    """The buttons for the board as it stands (None once the challenge is over)."""
    game = state.game
    if not game.active:
        return None
    view = discord.ui.View(timeout=None)
    if state.pending is not None:
        options = sorted(possible_feedbacks(game.rules, state.pending))
        win = game.rules.pegs
        if len(options) <= MAX_REPLY_BUTTONS or black is not None:
            shown = options if black is None else [o for o in options if o.black == black]
            for i, fb in enumerate(shown):
                style = discord.ButtonStyle.success if fb.black == win else (
                    discord.ButtonStyle.secondary)
                view.add_item(ChallengeButton("r", game.id, state.turn, fb.black, fb.white,
                                              label=reply_label(fb), style=style, row=i // 5))
            if black is not None:
                view.add_item(ChallengeButton("back", game.id, state.turn, label="← other black",
                                              row=min(len(shown) // 5 + 1, 3)))
        else:
            for i, b in enumerate(sorted({o.black for o in options})):
                view.add_item(ChallengeButton("b", game.id, state.turn, b, label=f"{b} black",
                                              row=i // 5))
    if state.replies:
        view.add_item(ChallengeButton("undo", game.id, label="Take back last reply",
                                      style=discord.ButtonStyle.danger, row=4))
    view.add_item(ChallengeButton("reveal", game.id, label="Reveal my code",
                                  style=discord.ButtonStyle.primary, row=4))
    return view


def challenge_embed(state: ChallengeState) -> discord.Embed:
    game = state.game
    rules = game.rules
    rows = [
        f"`{r.turn:>2}` {code_line(r.guess)} {pegs(r.feedback, rules.pegs)} "
        f"**{r.feedback.black}**B **{r.feedback.white}**W"
        for r in state.replies
    ]
    used = len(state.replies)
    player = f"<@{game.started_by}>"
    parts: list[str] = []
    colour = discord.Colour.blurple()
    if game.status == "won":
        title = f"I broke your code in {used} {'guess' if used == 1 else 'guesses'}!"
        colour = discord.Colour.green()
        parts.append(f"{player}'s code was {code_line(state.replies[-1].guess)}.")
    elif game.status == "lost":
        title = "You win: I couldn't break your code"
        colour = discord.Colour.gold()
        parts.append(f"{player} kept me guessing for all {rules.max_guesses} guesses.")
    elif game.status in ("quit", "abandoned") and state.mistakes is not None:
        title = "Code revealed"
        colour = discord.Colour.dark_grey()
        parts.append(f"{player}'s code was {code_line(game.secret)}.")
        if state.mistakes:
            parts.append("These replies were wrong:")
            parts.extend(
                f"• guess {m.turn} {code_line(m.guess)}: you said **{m.given.black}**B "
                f"**{m.given.white}**W, the right reply was **{m.correct.black}**B "
                f"**{m.correct.white}**W"
                for m in state.mistakes
            )
        else:
            parts.append("Every reply was right.")
    elif not game.active:
        title = "Challenge ended"
        colour = discord.Colour.dark_grey()
    elif state.inconsistent:
        title = "Your replies contradict each other"
        colour = discord.Colour.orange()
        parts.append(
            "No code fits all of them, so one reply is wrong. **Take back** the last reply, or "
            "**reveal** your code and I'll show which one."
        )
    else:
        title = "Challenge: I'm breaking your code"
        parts.append(
            f"{player} thought of a code.\n**My guess {state.turn}:** {code_line(state.pending)}\n"
            f"How many **black** (right colour, right place) and **white** (right colour, "
            f"wrong place)? Answer with the buttons or `/feedback black white`."
        )
    if game.active and not state.inconsistent:
        parts.append(
            f"{state.remaining:,} {'code fits' if state.remaining == 1 else 'codes fit'} "
            f"your replies so far · thought for {state.think_seconds * 1000:.0f} ms"
        )
    body = "\n".join(rows) if rows else ""
    description = "\n\n".join(p for p in (body, "\n".join(parts)) if p)
    embed = discord.Embed(title=title, description=description or None, colour=colour)
    strategy = get_strategy(game.strategy or "knuth")
    embed.add_field(name="Strategy", value=f"`{strategy.name}`: {strategy.description}",
                    inline=False)
    embed.add_field(name="Rules", value=rules.describe(), inline=True)
    embed.add_field(name="Guesses left", value=f"{rules.max_guesses - used}", inline=True)
    embed.set_footer(text=f"Challenge #{game.id} · ⬛ black = right colour, right place · "
                          f"⬜ white = right colour, wrong place")
    return embed

