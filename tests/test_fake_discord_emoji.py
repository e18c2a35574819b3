"""The fake Discord's application emoji (tests/fake_discord/app_emoji.py): Discord's routes,
names, image rules and limit, injected refusals, and messages that use custom emoji it
doesn't hold. Driven through a plain ``commands.Bot`` and discord.py's own HTTP client."""

from __future__ import annotations

import io
import os
import re

import discord
import pytest
from discord.ext import commands
from fake_discord import FakeDiscord
from fake_discord.app_emoji import IMAGE_MAX_BYTES, MAX_APP_EMOJI
from PIL import Image


def png(size: int = 16, colour: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (size, size), colour).save(out, format="PNG")
    return out.getvalue()


def noise_png(side: int) -> bytes:
    """A PNG that doesn't compress: ``side`` x ``side`` random pixels."""
    out = io.BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, format="PNG")
    return out.getvalue()


class PegView(discord.ui.View):
    def __init__(self, emoji: discord.PartialEmoji) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.Button(emoji=emoji, custom_id="peg"))
        self.add_item(discord.ui.Select(custom_id="pick", options=[
            discord.SelectOption(label="red", value="1", emoji=emoji)]))


class PegModal(discord.ui.Modal, title="Pick"):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.add_item(discord.ui.TextDisplay(text))
        self.add_item(discord.ui.Label(text="Code", component=discord.ui.TextInput()))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()


@pytest.fixture
async def fake():
    fake = FakeDiscord(timeout=2.0)
    try:
        yield fake
    finally:
        await fake.close()
    fake.check()  # unexpected bot errors / Discord-rule violations fail the test


@pytest.fixture
async def bot(fake: FakeDiscord) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    chosen: dict[str, discord.PartialEmoji] = {}
    bot.chosen = chosen  # type: ignore[attr-defined]

    @bot.tree.command(description="a message with the chosen emoji everywhere")
    async def show(interaction: discord.Interaction, where: str) -> None:
        emoji = chosen["emoji"]
        if where == "modal":
            await interaction.response.send_modal(PegModal(f"pick {emoji}"))
        elif where == "embed":
            await interaction.response.send_message(embed=discord.Embed(description=str(emoji)))
        else:
            await interaction.response.send_message(f"peg {emoji}", view=PegView(emoji))

    await fake.login(bot)
    await fake.sync(bot)
    return bot


async def test_upload_list_get_rename_delete(fake, bot) -> None:
    created = await bot.create_application_emoji(name="red_peg", image=png())
    assert created.name == "red_peg" and created.is_application_owned()
    listed = await bot.fetch_application_emojis()
    assert [(e.id, e.name) for e in listed] == [(created.id, "red_peg")]
    assert (await bot.fetch_application_emoji(created.id)).name == "red_peg"
    renamed = await created.edit(name="red_peg_2")
    assert renamed.name == "red_peg_2"
    raw = fake.requests[-1]
    assert raw.method == "PATCH" and raw.status == 200
    await created.delete()
    assert await bot.fetch_application_emojis() == []
    with pytest.raises(discord.NotFound, match="10014"):
        await bot.fetch_application_emoji(created.id)
    fake.expect_violation(10014)
    listing = next(r for r in fake.requests if r.method == "GET" and r.path.endswith("/emojis"))
    assert set(listing.response) == {"items"}  # Discord's list shape
    store = fake.state.app_emoji
    assert (store.uploads, store.deletions) == (1, 1)


@pytest.mark.parametrize(("name", "why"), [
    ("r", "Must be between 2 and 32 in length"),
    ("x" * 33, "Must be between 2 and 32 in length"),
    ("red-peg", "did not match validation regex"),
    ("röd", "did not match validation regex"),
])
async def test_names_follow_discords_rules(fake, bot, name, why) -> None:
    with pytest.raises(discord.HTTPException, match=re.escape(why)):
        await bot.create_application_emoji(name=name, image=png())
    fake.expect_violation(50035, match=why)
    assert fake.state.app_emoji.emoji == {}


async def test_a_name_is_unique_in_the_app(fake, bot) -> None:
    await bot.create_application_emoji(name="red_peg", image=png())
    with pytest.raises(discord.HTTPException, match="already exists"):
        await bot.create_application_emoji(name="red_peg", image=png(colour=(0, 0, 200)))
    fake.expect_violation(50035, match="APPLICATION_EMOJI_NAME_ALREADY_TAKEN")
    other = await bot.create_application_emoji(name="blue_peg", image=png())
    with pytest.raises(discord.HTTPException, match="already exists"):
        await other.edit(name="red_peg")
    fake.expect_violation(50035, match="already exists")


async def test_images_are_data_uris_of_real_images_within_256_kib(fake, bot) -> None:
    app = fake.application_id
    for image in ("not a data uri", "data:image/png;base64,AAAA", "data:image/bmp;base64,Qk0="):
        with pytest.raises(discord.HTTPException, match="Invalid image data"):
            await bot.http.create_application_emoji(app, "bad_image", image)
        fake.expect_violation(50035, match="IMAGE_INVALID")
    big = noise_png(300)
    assert len(big) > IMAGE_MAX_BYTES
    with pytest.raises(discord.HTTPException, match="50138"):
        await bot.create_application_emoji(name="too_big", image=big)
    fake.expect_violation(50138)
    gif = io.BytesIO()
    Image.new("P", (8, 8)).save(gif, format="GIF")
    accepted = await bot.create_application_emoji(name="gif_ok", image=gif.getvalue())
    assert fake.state.app_emoji.emoji[accepted.id].kind == "gif"


async def test_an_app_holds_at_most_2000(fake, bot) -> None:
    for n in range(MAX_APP_EMOJI - 1):
        fake.state.app_emoji.add(f"e{n}", png())
    await bot.create_application_emoji(name="the_last", image=png())
    with pytest.raises(discord.HTTPException, match="30008"):
        await bot.create_application_emoji(name="one_more", image=png())
    fake.expect_violation(30008)


async def test_refusals_and_rate_limits_can_be_injected(fake, bot) -> None:
    route = r"^/applications/\d+/emojis$"
    fake.state.fail_next("POST", route, 403, 50013, "Missing Permissions")
    with pytest.raises(discord.Forbidden):
        await bot.create_application_emoji(name="red_peg", image=png())
    fake.state.fail_next("POST", route, 429, 0, "You are being rate limited.", times=2)
    created = await bot.create_application_emoji(name="red_peg", image=png())  # retried
    assert [r.status for r in fake.requests if r.method == "POST" and "emojis" in r.path] == [
        403, 429, 429, 201]
    assert created.name == "red_peg"


async def test_messages_may_only_use_emoji_the_app_holds(fake, bot) -> None:
    guild = fake.guild()
    alice = fake.user("alice")
    ghost = discord.PartialEmoji(name="ghost", id=1234567890123456789)
    bot.chosen["emoji"] = ghost
    expected = {"message": ("data.content: <:ghost:", "data.components.0.components.0.emoji.id",
                            "data.components.1.components.0.options.0.emoji.id"),
                "embed": ("data.embeds.0.description",),
                "modal": ("data.components.0.content",)}
    for where, fields in expected.items():
        result = await fake.slash(bot, "show", user=alice, guild=guild, where=where,
                                  expect_response=False)
        assert not result.responded
        fake.expect_error(discord.HTTPException)
        violation = str(fake.expect_violation(50035))
        assert all(f in violation for f in fields), violation

    real = await bot.create_application_emoji(name="red_peg", image=png())
    bot.chosen["emoji"] = discord.PartialEmoji(name=real.name, id=real.id)
    for where in ("message", "embed", "modal"):
        result = await fake.slash(bot, "show", user=alice, guild=guild, where=where)
        assert result.responded
    shown = [m.content for m in fake.messages(next(iter(guild.channels.values())))]
    assert f"peg <:red_peg:{real.id}>" in shown

    channel = await bot.fetch_channel(next(iter(guild.channels)))
    with pytest.raises(discord.HTTPException, match="Invalid emoji"):
        await channel.send("a button", view=PegView(ghost))
    violation = fake.expect_violation(50035, match="COMPONENT_INVALID_EMOJI")
    assert "components.0.components.0.emoji.id" in str(violation)
    with pytest.raises(discord.HTTPException, match=":dancing: text"):  # animated ones too
        await channel.send(f"<a:dancing:42> {bot.chosen['emoji']}")
    fake.expect_violation(50035, match="<a:dancing:42>")
    await channel.send(f"held {bot.chosen['emoji']}", view=PegView(bot.chosen["emoji"]))
