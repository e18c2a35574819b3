"""The fake Discord's rules for where a command is used and who installed the app.

Discord's documentation (interactions: receiving and responding; application commands:
contexts, installation): each interaction carries ``context`` (0 a server, 1 the bot's DM,
2 a group DM or a DM between users), ``authorizing_integration_owners`` (``"0"``: the server
that added the app, ``"0"`` in the bot's DM; ``"1"``: the user who installed it to their
account) and ``app_permissions``. A command is offered only in its ``contexts`` and where one
of its ``integration_types`` is installed. Where only a user's install authorizes the app,
its bot is not in the channel: channel messages and edits get 403 (code 50001), an
interaction takes at most 5 follow-ups (code 40094 after), and a member without
``USE_EXTERNAL_APPS`` gets every answer ephemeral.

A tiny demo bot runs through discord.py's own dispatch; only the network is the fake.
"""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake_discord import FakeClock, FakeDiscord, InvalidInteraction

EVERYWHERE = {"guilds": True, "dms": True, "private_channels": True}


class ClickButton(discord.ui.DynamicItem[discord.ui.Button], template=r"click:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="click", custom_id=f"click:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str], /) -> ClickButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(describe(interaction), ephemeral=True)


def describe(interaction: discord.Interaction) -> str:
    """What discord.py makes of the interaction's context fields."""
    ctx = interaction.context
    where = "guild" if ctx.guild else "dm" if ctx.dm_channel else "private"
    return (f"{where} user={interaction.is_user_integration()} "
            f"guild={interaction.is_guild_integration()} "
            f"external={interaction.permissions.use_external_apps} "
            f"app={interaction.app_permissions.value}")


class InstallBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(ClickButton)
        tree = self.tree

        @tree.command(description="Where am I?")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(describe(interaction),
                                                    view=_button_view(interaction.id))

        @tree.command(description="Answer, then post in the channel")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("answered")
            try:
                assert isinstance(interaction.channel, discord.abc.Messageable)
                await interaction.channel.send("posted")
                outcome = "posted"
            except discord.Forbidden as exc:
                outcome = f"refused {exc.code}"
            await interaction.followup.send(outcome)

        @tree.command(description="Defer, then n follow-ups")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(**EVERYWHERE)
        async def many(interaction: discord.Interaction, n: int) -> None:
            await interaction.response.defer()
            try:
                for i in range(n):
                    await interaction.followup.send(f"follow-up {i + 1}")
            except discord.HTTPException as exc:
                await interaction.edit_original_response(content=f"stopped: {exc.code}")

        @tree.command(description="Servers that added the bot only")
        @app_commands.allowed_installs(guilds=True, users=False)
        @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
        async def serveronly(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("ok")

        await tree.sync()


def _button_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ClickButton(n))
    return view


@pytest.fixture
async def fake():
    fake = FakeDiscord(clock=FakeClock(), timeout=2.0)
    try:
        yield fake
    finally:
        await fake.close()
    fake.check()


@pytest.fixture
async def bot(fake: FakeDiscord) -> InstallBot:
    return await fake.login(InstallBot())


async def test_sync_keeps_contexts_and_integration_types(fake, bot) -> None:
    synced = {c["name"]: c for c in fake.commands}
    assert synced["where"]["contexts"] == [0, 1, 2]
    assert synced["where"]["integration_types"] == [0, 1]
    assert synced["serveronly"]["contexts"] == [0]
    assert synced["serveronly"]["integration_types"] == [0]


async def test_a_server_that_added_the_app(fake, bot) -> None:
    alice = fake.user("alice")
    guild = fake.guild("Club")
    res = await fake.slash(bot, "where", user=alice, guild=guild)
    assert res.record.context == 0 and res.record.owners == {"0": str(guild.id)}
    assert res.content == f"guild user=False guild=True external=True app={guild.bot_permissions}"
    fake.user_install(alice)  # both installs authorize: the bot is still in the server
    res = await fake.slash(bot, "where", user=alice, guild=guild)
    assert res.record.owners == {"0": str(guild.id), "1": str(alice.id)}
    assert res.content.startswith("guild user=True guild=True")
    posted = await fake.slash(bot, "post", user=alice, guild=guild)
    assert [m.content for m in posted.messages] == ["answered", "posted", "posted"]


async def test_a_server_reached_only_through_a_user_install(fake, bot) -> None:
    alice = fake.user_install(fake.user("alice"))
    guild = fake.guild("Elsewhere", installed=False)
    res = await fake.slash(bot, "where", user=alice, guild=guild)
    assert res.record.context == 0 and res.record.owners == {"1": str(alice.id)}
    everyone = guild.everyone.permissions
    answer = everyone | discord.Permissions(embed_links=True, attach_files=True).value
    assert res.content == f"guild user=True guild=False external=True app={answer}"
    assert bot.get_guild(guild.id) is None  # no GUILD_CREATE: the bot is not a member
    # the bot can't post or edit in the channel; answers and follow-ups still work
    posted = await fake.slash(bot, "post", user=alice, guild=guild)
    assert [m.content for m in posted.messages] == ["answered", "refused 50001"]
    fake.expect_violation(50001)
    # someone else can click the answer's button: the author's install authorizes it
    bob = fake.user("bob")
    click = await fake.click(bot, res.message, f"click:{res.id}", user=bob)
    assert click.record.owners == {"1": str(alice.id)}
    assert click.content.startswith("guild user=False guild=False")
    # not offered: a user who did not install the app, a command not installed for users
    with pytest.raises(InvalidInteraction, match="integration_types"):
        await fake.slash(bot, "where", user=bob, guild=guild)
    with pytest.raises(InvalidInteraction, match="integration_types"):
        await fake.slash(bot, "serveronly", user=alice, guild=guild)


async def test_group_dms_and_dms_between_users(fake, bot) -> None:
    alice = fake.user_install(fake.user("alice"))
    bob, carol = fake.user("bob"), fake.user("carol")
    group = fake.group_dm(alice, bob, carol, name="friends")
    res = await fake.slash(bot, "where", user=alice, channel=group)
    assert res.record.context == 2 and res.record.owners == {"1": str(alice.id)}
    assert res.content.startswith("private user=True guild=False")
    assert fake.messages(group) == [res.message] and not res.ephemeral
    posted = await fake.slash(bot, "post", user=alice, channel=group)
    assert posted.messages[-1].content == "refused 50001"
    fake.expect_violation(50001)
    click = await fake.click(bot, res.message, f"click:{res.id}", user=carol)
    assert click.content.startswith("private user=False")
    with pytest.raises(InvalidInteraction, match="not offered in a group DM"):
        await fake.slash(bot, "serveronly", user=alice, channel=group)
    with pytest.raises(InvalidInteraction, match="is not in"):
        await fake.slash(bot, "where", user=fake.user("dave"), channel=group)
    pair = fake.user_dm(alice, bob)
    res = await fake.slash(bot, "where", user=alice, channel=pair)
    assert res.record.context == 2 and isinstance(res.record.payload["channel"], dict)
    with pytest.raises(InvalidInteraction, match="integration_types"):
        await fake.slash(bot, "where", user=bob, channel=pair)  # bob did not install it


async def test_the_bots_dm(fake, bot) -> None:
    alice = fake.user("alice")
    res = await fake.slash(bot, "where", user=alice)
    assert res.record.context == 1 and res.record.owners == {"0": "0"}
    dm_perms = discord.Permissions(embed_links=True, attach_files=True, mention_everyone=True,
                                   use_external_emojis=True).value
    assert res.content == f"dm user=False guild=False external=False app={dm_perms}"
    posted = await fake.slash(bot, "post", user=alice)  # the bot is in its own DM
    assert [m.content for m in posted.messages] == ["answered", "posted", "posted"]
    with pytest.raises(InvalidInteraction, match="not offered in a DM with the bot"):
        await fake.slash(bot, "serveronly", user=alice)
    bob = fake.user_install(fake.user("bob"))  # installed, in no server with the bot
    res = await fake.slash(bot, "where", user=bob)
    assert res.record.owners == {"1": str(bob.id)}


async def test_five_follow_ups_where_only_a_user_install_authorizes(fake, bot) -> None:
    alice = fake.user_install(fake.user("alice"))
    group = fake.group_dm(alice, fake.user("bob"))
    res = await fake.slash(bot, "many", user=alice, channel=group, n=7)
    # the first follow-up fills the deferred answer; four more are new messages
    assert res.original.content == "stopped: 40094"
    assert len(res.followups) == 4 and res.record.followup_posts == 5
    fake.expect_violation(40094)
    guild = fake.guild("Club")  # the bot is in this one: no such limit
    res = await fake.slash(bot, "many", user=alice, guild=guild, n=7)
    assert len(res.followups) == 6


async def test_answers_turn_ephemeral_without_use_external_apps(fake, bot) -> None:
    strict = discord.Permissions(view_channel=True, send_messages=True,
                                 use_application_commands=True)
    guild = fake.guild("Strict", installed=False, everyone_permissions=strict)
    alice = fake.user_install(fake.user("alice"))
    res = await fake.slash(bot, "where", user=alice, guild=guild)
    assert res.ephemeral and res.message.ephemeral  # asked public, shown to alice alone
    assert "external=False" in res.content
    many = await fake.slash(bot, "many", user=alice, guild=guild, n=2)
    assert all(m.ephemeral for m in many.followups)
    # where the server added the app, the bot answers as it asks
    added = fake.guild("Strict but added", everyone_permissions=strict)
    res = await fake.slash(bot, "where", user=alice, guild=added)
    assert not res.ephemeral
