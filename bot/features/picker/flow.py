"""What a tap does: open a picker, add or take back a peg, open the typed form, submit.

A tap on a colour or delete reads nothing and writes nothing: the next picker is drawn from
the custom_id alone and answers the tap by editing the picker in place (Discord's
UPDATE_MESSAGE). Only opening and submitting reach the feature (its :class:`Purpose`).
A picker is drawn only on a message its owner alone sees; the code being picked never
lands on a public one (a button found on a public message gets a private picker).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from i18n import tr

from .buttons import TypedCodeModal
from .errors import NotYourPicker
from .purposes import Purpose, purpose_of
from .render import cannot_add, incomplete, nothing_to_delete, picker_content, picker_view
from .state import Op, Picker, Tap


def _purpose(interaction: discord.Interaction, picker: Picker) -> Purpose:
    if picker.owner and picker.owner != interaction.user.id:
        raise NotYourPicker()
    return purpose_of(picker)


async def on_tap(interaction: discord.Interaction, tap: Tap) -> None:
    picker, op = tap.picker, tap.op
    purpose = _purpose(interaction, picker)
    if op is Op.OPEN:
        await show(interaction, await purpose.open(interaction, picker.target))
    elif op is Op.DELETE:
        await show(interaction, picker.minus() if picker.code else picker,
                   note=None if picker.code else nothing_to_delete())
    elif op is Op.TYPE:
        label = tr("{title} ({pegs} pegs, colours 1-{colors})", title=tr(purpose.title),
                   pegs=picker.pegs, colors=picker.colors)
        await interaction.response.send_modal(
            TypedCodeModal(picker, tr(purpose.form_title), label))
    elif op is Op.SUBMIT:
        if not picker.complete:
            await show(interaction, picker, note=incomplete(picker))
            return
        await purpose.submit(interaction, picker, picker.digits)
    elif picker.allowed(op):
        await show(interaction, picker.plus(op))
    else:
        await show(interaction, picker, note=cannot_add(picker, op))


async def submit(interaction: discord.Interaction, picker: Picker, text: str) -> None:
    """A code typed in the form: the same submit as the picker's button."""
    await _purpose(interaction, picker).submit(interaction, picker, text)


async def show(interaction: discord.Interaction, picker: Picker, *, note: str | None = None
               ) -> None:
    """Answer with ``picker``: in place on the picker (or the owner's private board), else
    as a new message only the person who acted sees."""
    purpose = purpose_of(picker)
    heading = await purpose.heading(interaction, picker)
    verb = tr(purpose.verb)
    await answer(interaction, content=picker_content(picker, heading, verb, note),
                 view=picker_view(picker, verb))


async def close(interaction: discord.Interaction, content: str | None, *,
                embeds: Sequence[discord.Embed] = (),
                view: discord.ui.View | None = None) -> None:
    """The picker's last word, without its buttons: what was stored (or the private board
    that replaces it)."""
    await answer(interaction, content=content, embeds=embeds, view=view)


def _on_private_message(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return (message is not None and message.flags.ephemeral and interaction.type in (
        discord.InteractionType.component, discord.InteractionType.modal_submit))


async def answer(interaction: discord.Interaction, *, content: str | None,
                 view: discord.ui.View | None, embeds: Sequence[discord.Embed] = ()) -> None:
    """Draw on the private message acted on, or send a new private one; whether or not
    the interaction was deferred meanwhile (a write that waited for the database)."""
    if _on_private_message(interaction):
        if not interaction.response.is_done():
            await interaction.response.edit_message(content=content, embeds=list(embeds),
                                                    view=view)
        else:
            await interaction.edit_original_response(content=content, embeds=list(embeds),
                                                     view=view)
    elif not interaction.response.is_done():
        await interaction.response.send_message(content=content, embeds=list(embeds),
                                                view=view or discord.utils.MISSING,
                                                ephemeral=True)
    else:
        await interaction.followup.send(content=content or discord.utils.MISSING,
                                        embeds=list(embeds),
                                        view=view or discord.utils.MISSING, ephemeral=True)

