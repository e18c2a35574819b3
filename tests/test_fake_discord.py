"""Tests for the fake Discord transport (tests/fake_discord), using a tiny demo bot.

The demo bot is a real ``commands.Bot``: everything below goes through discord.py's gateway
parser, CommandTree, option conversion, views/DynamicItems, InteractionResponse and webhook
code; only the network is the fake.
"""

from __future__ import annotations

import asyncio
import io
import re

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fake_discord import (
    BotErrors,
    DiscordRuleViolations,
    FakeClock,
    FakeDiscord,
    InvalidInteraction,
    NoResponse,
    check_message,
)

# ------------------------------------------------------------------------------ demo bot


class PegButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"peg:(?P<game>\d+):(?P<peg>\d)"
):
    """A persistent button: the game id and peg live in its custom_id."""

    def __init__(self, game: int, peg: int) -> None:
        super().__init__(discord.ui.Button(label=str(peg), custom_id=f"peg:{game}:{peg}"))
        self.game, self.peg = game, peg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PegButton:
        return cls(int(match["game"]), int(match["peg"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"game {self.game}: {interaction.user.name} played peg {self.peg}"
        )


class BrokenView(discord.ui.View):
    """Its button raises; its on_error swallows the error like a careless bot would."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="boom", custom_id="boom")
    async def boom(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise RuntimeError("button exploded")

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item
    ) -> None:
        await interaction.response.send_message("sorry!", ephemeral=True)


class Confirm(discord.ui.View):
    value: bool | None = None

    @discord.ui.button(label="Confirm", custom_id="confirm", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.value = True
        await interaction.response.defer()
        self.stop()


class Game(commands.GroupCog, name="game", description="Play a game"):
    def __init__(self, clock: FakeClock | None) -> None:
        self.clock = clock
        super().__init__()

    @app_commands.command(name="new", description="Start a game")
    @app_commands.describe(pegs="number of pegs")
    async def new(
        self, interaction: discord.Interaction, pegs: app_commands.Range[int, 3, 6] = 4
    ) -> None:
        game = interaction.id % 10_000
        view = discord.ui.View(timeout=None)
        for peg in range(1, pegs + 1):
            view.add_item(PegButton(game, peg))
        await interaction.response.send_message(f"game {game}: {pegs} pegs", view=view)

    admin = app_commands.Group(name="admin", description="Admin tools")

    @admin.command(name="reset", description="Reset a game")
    async def admin_reset(self, interaction: discord.Interaction, game: int) -> None:
        await interaction.response.send_message(f"reset {game}", ephemeral=True)

    @app_commands.command(name="mode", description="Pick a mode")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="Easy", value="easy"),
            app_commands.Choice(name="Hard", value="hard"),
        ]
    )
    async def mode(
        self, interaction: discord.Interaction, mode: app_commands.Choice[str], rounds: int
    ) -> None:
        await interaction.response.send_message(f"{mode.value} x{rounds}")


class DemoBot(commands.Bot):
    def __init__(self, clock: FakeClock | None = None, *, sync_on_setup: bool = True) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.clock = clock
        self.sync_on_setup = sync_on_setup

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PegButton)
        await self.add_cog(Game(self.clock))
        register_commands(self)
        if self.sync_on_setup:
            await self.tree.sync()


def register_commands(bot: DemoBot) -> None:
    tree = bot.tree

    @tree.command(description="Repeat some text")
    async def echo(interaction: discord.Interaction, text: app_commands.Range[str, 1, 20]) -> None:
        await asyncio.sleep(0)
        await interaction.response.send_message(f"echo: {text}")

    @tree.command(description="Deferred work, then a followup")
    async def work(interaction: discord.Interaction, n: int) -> None:
        await interaction.response.defer(thinking=True)
        for _ in range(3):
            await asyncio.sleep(0)
        if bot.clock is not None:
            bot.clock.advance(60)  # slow work is fine once deferred
        await interaction.followup.send(f"sum={n * (n + 1) // 2}")
        await interaction.followup.send("and a second followup", ephemeral=True)

    @tree.command(description="A private reply")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you can see this", ephemeral=True)

    @tree.command(description="Answers too late")
    async def slow(interaction: discord.Interaction) -> None:
        assert bot.clock is not None
        bot.clock.advance(3.5)
        await interaction.response.send_message("finally")

    @tree.command(description="Answers twice at once")
    async def twice(interaction: discord.Interaction) -> None:
        await asyncio.gather(
            interaction.response.send_message("one"), interaction.response.send_message("two")
        )

    @tree.command(description="Followup without responding")
    async def rude(interaction: discord.Interaction) -> None:
        await interaction.followup.send("hello?")

    @tree.command(description="Too much text")
    async def huge(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="big", description="x" * 5000)
        await interaction.response.send_message(embed=embed)

    @tree.command(description="Crashes")
    async def crash(interaction: discord.Interaction) -> None:
        raise ZeroDivisionError("bad math")

    @tree.command(description="A view whose button crashes")
    async def broken(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("press it", view=BrokenView())

    @tree.command(description="Posts and edits a channel message")
    @app_commands.guild_only()
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting the board", ephemeral=True)
        msg = await interaction.channel.send("board v1")
        await msg.edit(content="board v2", embed=discord.Embed(title="Board"))

    @tree.command(description="Moderator only")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_messages=True)
    async def purge(interaction: discord.Interaction) -> None:
        perms = interaction.permissions
        await interaction.response.send_message(f"manage_messages={perms.manage_messages}")

    @tree.command(description="Asks for confirmation first")
    async def reset(interaction: discord.Interaction) -> None:
        view = Confirm()
        await interaction.response.send_message("really reset?", view=view, ephemeral=True)
        await view.wait()
        await interaction.edit_original_response(content=f"confirmed={view.value}", view=None)

    @tree.command(description="Typed options")
    @app_commands.guild_only()
    async def inspect(
        interaction: discord.Interaction,
        role: discord.Role,
        channel: discord.TextChannel,
        ratio: app_commands.Range[float, 0, 1],
        loud: bool = False,
    ) -> None:
        await interaction.response.send_message(
            f"{role.name}|{channel.name}|{ratio!r}|{loud!r}|"
            f"{type(role).__name__}/{type(channel).__name__}"
        )

    @tree.command(description="Who is it")
    async def whois(interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(f"{member.name} roles={len(member.roles)}")


# ------------------------------------------------------------------------------- fixtures


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def fake(clock: FakeClock):
    fake = FakeDiscord(clock=clock, timeout=2.0)
    try:
        yield fake
    finally:
        await fake.close()
    fake.check()  # unexpected bot errors / Discord-rule violations fail the test


@pytest.fixture
async def bot(fake: FakeDiscord, clock: FakeClock) -> DemoBot:
    return await fake.login(DemoBot(clock))  # setup_hook syncs through the fake


@pytest.fixture
def alice(fake: FakeDiscord):
    return fake.user("alice")


@pytest.fixture
def guild(fake: FakeDiscord):
    return fake.guild("Test Guild")


# ---------------------------------------------------------------------------------- tests


async def test_login_and_sync_store_the_schema(fake: FakeDiscord, bot: DemoBot) -> None:
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    names = {c["name"] for c in fake.commands}
    assert {"game", "echo", "work", "secret", "board", "purge"} <= names
    game = next(c for c in fake.commands if c["name"] == "game")
    new = next(o for o in game["options"] if o["name"] == "new")
    pegs = new["options"][0]
    assert (pegs["min_value"], pegs["max_value"]) == (3, 6)
    put = [r for r in fake.requests if r.method == "PUT"]
    assert put and put[0].path == f"/applications/{fake.application_id}/commands"


async def test_subcommand_dispatch_and_int_conversion(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "game new", user=alice, guild=guild, pegs=5)
    assert res.response is not None and res.response.type == 4
    assert not res.ephemeral
    board = res.original
    assert board is not None and board.content.endswith("5 pegs")
    assert len(board.buttons) == 5
    assert board.interaction_metadata["name"] == "game new"
    assert fake.last_message(guild.channels[next(iter(guild.channels))]) is board
    # default value when the option is omitted
    res = await fake.slash(bot, "game new", user=alice, guild=guild)
    assert res.content.endswith("4 pegs")


async def test_nested_group_and_typed_options(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "game admin reset", user=alice, guild=guild, game=12)
    assert res.content == "reset 12" and res.ephemeral
    mods = fake.role(guild, "mods")
    lobby = fake.channel(guild, "lobby")
    # an option named like a context keyword (user=/channel=/guild=) goes in options=
    with pytest.raises(InvalidInteraction, match="same name as the"):
        await fake.slash(bot, "inspect", user=alice, channel=lobby, role=mods, ratio=0.5)
    res = await fake.slash(
        bot,
        "inspect",
        user=alice,
        guild=guild,
        role=mods,
        ratio=0.5,
        loud=True,
        options={"channel": lobby},
    )
    assert res.content == "mods|lobby|0.5|True|Role/TextChannel"  # resolved from the cache
    with pytest.raises(InvalidInteraction, match="above max_value=1"):
        await fake.slash(
            bot,
            "inspect",
            user=alice,
            guild=guild,
            role=mods,
            ratio=1.5,
            options={"channel": lobby},
        )
    with pytest.raises(InvalidInteraction, match="expected a fake role"):
        await fake.slash(
            bot,
            "inspect",
            user=alice,
            guild=guild,
            role="mods",
            ratio=0.1,
            options={"channel": lobby},
        )
    with pytest.raises(InvalidInteraction, match="not a channel of this guild"):
        await fake.slash(
            bot,
            "inspect",
            user=alice,
            guild=guild,
            role=mods,
            ratio=0.1,
            options={"channel": fake.channel(fake.guild("other"))},
        )


async def test_top_level_command_and_choices(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "echo", user=alice, guild=guild, text="hello")
    assert res.content == "echo: hello"
    res = await fake.slash(bot, "game mode", user=alice, guild=guild, mode="hard", rounds=3)
    assert res.content == "hard x3"
    # works in DMs too (no guild): the user's DM channel is used
    res = await fake.slash(bot, "echo", user=alice, text="dm")
    assert res.content == "echo: dm" and res.original.guild_id is None


@pytest.mark.parametrize(
    ("command", "options", "error"),
    [
        ("nope", {}, "unknown command /nope"),
        ("game old", {}, "unknown subcommand /game old"),
        ("game", {}, "is a group"),
        ("echo", {}, "missing required option 'text'"),
        ("echo", {"text": 5}, "expected a string"),
        ("echo", {"text": "x" * 21}, "exceeds max_length=20"),
        ("echo", {"text": "hi", "loud": True}, "has no option(s) ['loud']"),
        ("game new", {"pegs": 7}, "above max_value=6"),
        ("game new", {"pegs": 2}, "below min_value=3"),
        ("game new", {"pegs": "5"}, "expected integer"),
        ("game new", {"pegs": True}, "expected integer"),
        ("game mode", {"mode": "insane", "rounds": 1}, "not one of the choices"),
    ],
)
async def test_invalid_options_are_rejected_before_dispatch(
    fake, bot, alice, guild, command, options, error
) -> None:
    with pytest.raises(InvalidInteraction, match=re.escape(error)):
        await fake.slash(bot, command, user=alice, guild=guild, options=options)
    assert not fake.state.interactions  # nothing reached the bot


async def test_defer_then_followups(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "work", user=alice, guild=guild, n=4)
    assert res.response.type == 5 and res.response.deferred
    # the first followup after a "thinking" defer replaces the loading message
    assert res.original.content == "sum=10" and not res.original.loading
    assert [m.content for m in res.followups] == ["and a second followup"]
    assert res.followups[0].ephemeral
    kinds = [e.kind for e in res.events]
    assert kinds == ["create", "edit", "create"]
    assert res.messages[0].loading and res.messages[0].content == ""


async def test_ephemeral_reply(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "secret", user=alice, guild=guild)
    assert res.ephemeral and res.response.ephemeral
    assert res.original.flags & 64
    chan = res.record.channel
    assert fake.messages(chan, include_ephemeral=False) == []
    bob = fake.user("bob")
    with pytest.raises(InvalidInteraction, match="can't see ephemeral"):
        await fake.click(bot, res.original, "anything", user=bob)


async def test_dynamic_item_clicked_by_a_fresh_bot(fake, bot, clock, alice, guild) -> None:
    res = await fake.slash(bot, "game new", user=alice, guild=guild, pegs=3)
    board = res.original
    game = board.content.split(":")[0].split()[1]
    await bot.close()  # the process restarts ...
    bot2 = await fake.login(DemoBot(clock, sync_on_setup=False))  # ... and comes back
    click = await fake.click(bot2, board, f"peg:{game}:2", user=alice)
    assert click.response.type == 7  # update_message
    assert board.content == f"game {game}: alice played peg 2"  # the stored board changed
    assert click.original is board
    assert board.buttons and board.edited_timestamp is not None  # components kept
    click = await fake.click(bot2, board, label="3", user=fake.user("bob"))
    assert board.content == f"game {game}: bob played peg 3"


async def test_click_validation(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "game new", user=alice, guild=guild, pegs=3)
    with pytest.raises(InvalidInteraction, match="no component"):
        await fake.click(bot, res.original, "peg:0:9", user=alice)
    # a well-formed id nobody listens for: Discord would show "interaction failed"
    await fake.slash(bot, "echo", user=alice, guild=guild, text="x")
    echo_msg = fake.last_message(res.record.channel)
    with pytest.raises(InvalidInteraction, match="no component"):
        await fake.click(bot, echo_msg, "peg:1:1", user=alice)


async def test_double_response_is_40060(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "twice", user=alice, guild=guild)
    assert res.content == "one"
    violation = fake.expect_violation(40060)
    assert violation.status == 400 and violation.interaction_id == res.id
    err = fake.expect_error(discord.HTTPException, match="40060")
    assert err.interaction_id == res.id


async def test_late_first_response_is_10062(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "slow", user=alice, guild=guild)
    assert res.response is None and res.record.callback_attempts == 1
    assert "3.50s" in fake.expect_violation(10062).message
    err = fake.expect_error(discord.NotFound)
    assert err.chain()[-1].code == 10062


async def test_followup_without_response_fails(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "rude", user=alice, guild=guild, expect_response=False)
    assert res.response is None
    fake.expect_violation(10015)
    fake.expect_error(discord.NotFound, match="Unknown Webhook")


async def test_oversized_embed_gets_a_400(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "huge", user=alice, guild=guild)
    assert res.response is None  # the callback was rejected, nothing was posted
    violation = fake.expect_violation(50035)
    assert violation.status == 400
    assert any(d.path == ("data", "embeds", 0, "description") for d in violation.details)
    err = fake.expect_error(discord.HTTPException)
    assert "data.embeds.0.description" in str(err.chain()[-1])


async def test_bot_errors_fail_the_test_unless_expected(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "crash", user=alice, guild=guild, expect_response=False)
    assert res.errors and res.errors[0].source == "tree.on_error"
    with pytest.raises(BotErrors, match="bad math"):
        fake.raise_errors()
    fake.expect_error(ZeroDivisionError)
    fake.raise_errors()  # nothing left


async def test_errors_can_be_expected_before_they_happen(fake, bot, alice, guild) -> None:
    pending = fake.expect_error(ZeroDivisionError, match="bad math")
    violation = fake.expect_violation(50035)
    assert pending.matched is None
    await fake.slash(bot, "crash", user=alice, guild=guild, expect_response=False)
    assert pending.matched is not None and pending.matched.source == "tree.on_error"
    await fake.slash(bot, "huge", user=alice, guild=guild)
    fake.expect_error(discord.HTTPException)
    fake.check()  # both expectations met, nothing left over
    assert violation.matched is not None

    other = FakeDiscord()
    other.expect_error(KeyError)
    other.expect_violation(40060)
    with pytest.raises(BotErrors, match="expected but never raised"):
        other.raise_errors()
    with pytest.raises(DiscordRuleViolations, match="expected but never happened"):
        other.assert_no_violations()


async def test_view_on_error_is_recorded_even_if_swallowed(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "broken", user=alice, guild=guild)
    click = await fake.click(bot, res.original, "boom", user=alice)
    assert click.content == "sorry!" and click.ephemeral
    assert click.errors[0].source == "view.on_error"
    fake.expect_error(RuntimeError, match="button exploded")


async def test_no_response_is_reported(fake, bot, alice, guild) -> None:
    with pytest.raises(NoResponse):
        await fake.slash(bot, "crash", user=alice, guild=guild)
    fake.expect_error(ZeroDivisionError)


async def test_channel_messages_and_attribution(fake, bot, alice, guild) -> None:
    res = await fake.slash(bot, "board", user=alice, guild=guild)
    assert res.ephemeral
    board = fake.last_message(res.record.channel)
    assert board.content == "board v2" and board.embed["title"] == "Board"
    assert board.edited_timestamp is not None and not board.ephemeral
    assert [m.content for m in res.messages] == ["posting the board", "board v1", "board v2"]
    with pytest.raises(InvalidInteraction, match="not offered in a DM with the bot"):
        await fake.slash(bot, "board", user=alice)


async def test_member_permissions(fake, bot, alice, guild) -> None:
    with pytest.raises(InvalidInteraction, match="manage_messages"):
        await fake.slash(bot, "purge", user=alice, guild=guild)
    mod = fake.member(
        guild, fake.user("mod"), permissions=discord.Permissions(manage_messages=True)
    )
    res = await fake.slash(bot, "purge", user=mod, guild=guild)
    assert res.content == "manage_messages=True"
    owner = guild.members[guild.owner_id]
    assert (await fake.slash(bot, "purge", user=owner, guild=guild)).content.endswith("True")
    res = await fake.slash(bot, "whois", user=alice, guild=guild, member=mod)
    assert res.content == "mod roles=2"  # @everyone + the permissions role


async def test_handler_waiting_for_a_later_click(fake, bot, alice, guild) -> None:
    pending = asyncio.create_task(fake.slash(bot, "reset", user=alice, guild=guild))
    prompt = await fake.wait_until(
        lambda: next(
            (
                m
                for m in fake.messages(guild.channels[next(iter(guild.channels))])
                if "confirm" in m.custom_ids
            ),
            None,
        ),
        timeout=2,
    )
    assert prompt.ephemeral
    click = await fake.click(bot, prompt, "confirm", user=alice)
    assert click.response.type == 6  # deferred update: @original is the prompt itself
    res = await pending
    assert res.original is prompt and prompt.content == "confirmed=True"
    assert prompt.components == []


async def test_concurrent_interactions(fake, bot, guild) -> None:
    users = [fake.user(f"user{i}") for i in range(8)]
    results = await asyncio.gather(
        *(
            fake.slash(bot, "echo", user=u, guild=guild, text=f"hi {i}")
            for i, u in enumerate(users)
        ),
        *(fake.slash(bot, "work", user=u, guild=guild, n=i) for i, u in enumerate(users)),
    )
    for i, res in enumerate(results[:8]):
        assert res.content == f"hi {i}".join(["echo: ", ""])
    for i, res in enumerate(results[8:]):
        assert res.original.content == f"sum={i * (i + 1) // 2}"
        assert len(res.followups) == 1
    assert len({r.id for r in results}) == 16


async def test_manual_sync_and_missing_sync(fake, clock, alice, guild) -> None:
    bot = await fake.login(DemoBot(clock, sync_on_setup=False))
    with pytest.raises(InvalidInteraction, match="no application commands are synced"):
        await fake.slash(bot, "echo", user=alice, guild=guild, text="x")
    await fake.sync(bot)
    assert (await fake.slash(bot, "echo", user=alice, guild=guild, text="x")).content


class GuessModal(discord.ui.Modal, title="Your guess"):
    code = discord.ui.TextInput(label="Code", min_length=4, max_length=4)
    note = discord.ui.Label(text="Note", component=discord.ui.TextInput(required=False))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"guessed {self.code.value} ({self.note.component.value or '-'})"
        )


class Pick(discord.ui.View):
    @discord.ui.select(
        custom_id="colour", options=[discord.SelectOption(label=c, value=c) for c in "RGB"]
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values}")


async def test_modal_and_select(fake, alice, guild) -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

    @bot.tree.command(description="modal")
    async def guess(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(GuessModal())

    @bot.tree.command(description="select")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=Pick())

    await fake.login(bot)
    await fake.sync(bot)
    res = await fake.slash(bot, "guess", user=alice, guild=guild)
    assert res.modal["title"] == "Your guess" and res.original is None
    with pytest.raises(InvalidInteraction, match=re.escape("must be 4..4 long")):
        await fake.submit_modal(bot, res, {"code": "12"})
    sub = await fake.submit_modal(bot, res, {"Code": "1234", "note": "hi"})
    assert sub.content == "guessed 1234 (hi)"
    # Answered, the modal has closed: only opening it again submits again.
    with pytest.raises(InvalidInteraction, match="closed it"):
        await fake.submit_modal(bot, res, {"Code": "5678"})
    again = await fake.slash(bot, "guess", user=alice, guild=guild)
    assert (await fake.submit_modal(bot, again, {"Code": "5678"})).content == "guessed 5678 (-)"
    res = await fake.slash(bot, "pick", user=alice, guild=guild)
    with pytest.raises(InvalidInteraction, match="not among"):
        await fake.select(bot, res.original, "colour", ["X"], user=alice)
    await fake.select(bot, res.original, "colour", ["G"], user=alice)
    assert res.original.content == "picked ['G']"


async def test_real_clock_by_default_and_context_manager() -> None:
    async with FakeDiscord() as fake:  # default clock: time.monotonic; __aexit__ runs check()
        bot = await fake.login(DemoBot())
        res = await fake.slash(bot, "echo", user=fake.user("z"), guild=fake.guild(), text="a")
        assert 0 <= res.response.at - res.record.created_at < 3
    assert bot.is_closed()


class Board(discord.ui.LayoutView):
    """A Components V2 board with a button (the view is stored by message id)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.text = discord.ui.TextDisplay("board: ....")
        button = discord.ui.Button(label="go", custom_id="go")
        button.callback = self.go
        self.add_item(discord.ui.Container(self.text, discord.ui.ActionRow(button)))

    async def go(self, interaction: discord.Interaction) -> None:
        self.text.content = f"board: pressed by {interaction.user.name}"
        await interaction.response.edit_message(view=self)


async def test_v2_layout_files_and_a_bot_without_guild_intents(fake, alice, guild) -> None:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())

    @bot.tree.command(description="v2 board")
    async def v2(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Board())

    @bot.tree.command(description="files")
    async def files(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "here", file=discord.File(io.BytesIO(b"abc"), "a.txt")
        )
        await interaction.followup.send(file=discord.File(io.BytesIO(b"abcd"), "b.txt"))

    @bot.tree.command(description="thinks forever")
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)

    await fake.login(bot)
    await fake.sync(bot)
    res = await fake.slash(bot, "v2", user=alice, guild=guild)
    board = res.original
    assert board.flags & (1 << 15) and board.text == "board: ...."
    await fake.click(bot, board, "go", user=alice)
    assert board.text == "board: pressed by alice"
    res = await fake.slash(bot, "files", user=alice, guild=guild)
    assert [(a["filename"], a["size"]) for m in res.messages for a in m.attachments] == [
        ("a.txt", 3),
        ("b.txt", 4),
    ]
    res = await fake.slash(bot, "think", user=alice, guild=guild)
    assert res.original.loading
    with pytest.raises(DiscordRuleViolations, match="never followed up"):
        fake.check()
    fake.state.messages[res.original.id].deleted = True  # let the fixture's check() pass


async def test_an_edit_turns_a_message_into_v2_never_back(fake, alice, guild) -> None:
    """Discord: a deferred answer's first followup (an edit of the "thinking..." message)
    may set IS_COMPONENTS_V2; once set, content and embeds are refused, and an edit that
    would leave the message without components is an empty message."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    edits: list[str] = []

    @bot.tree.command(description="a V2 board after thinking")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(view=Board(), wait=True)
        for kwargs in ({"content": "plain again"}, {"embed": discord.Embed(title="x")},
                       {"view": None}):
            try:
                await interaction.edit_original_response(**kwargs)
            except discord.HTTPException as exc:
                edits.append(str(exc.status))

    await fake.login(bot)
    await fake.sync(bot)
    fake.expect_violation(50035)
    fake.expect_violation(50035)
    fake.expect_violation(50006)
    res = await fake.slash(bot, "slow", user=alice, guild=guild)
    board = res.original
    assert board.flags & (1 << 15) and not board.loading and board.text == "board: ...."
    assert edits == ["400", "400", "400"] and board.text == "board: ...."


async def test_check_fails_on_leftover_violations() -> None:
    clock = FakeClock()
    fake = FakeDiscord(clock=clock)
    bot = await fake.login(DemoBot(clock))
    await fake.slash(bot, "huge", user=fake.user("a"), guild=fake.guild())
    await fake.close()
    with pytest.raises(DiscordRuleViolations, match="50035"):
        fake.assert_no_violations()
    with pytest.raises(BotErrors):
        fake.raise_errors()


def test_message_limits() -> None:
    def codes(data: dict, creating: bool = True) -> set[str]:
        return {e.code for e in check_message(data, creating=creating)}

    assert codes({"content": "x" * 2000}) == set()
    assert codes({"content": "x" * 2001}) == {"BASE_TYPE_MAX_LENGTH"}
    assert codes({"content": ""}) == {"EMPTY_MESSAGE"}
    assert codes({"content": ""}, creating=False) == set()
    assert codes({"embeds": [{"title": "t"}] * 11}) == {"BASE_TYPE_BAD_LENGTH"}
    big = {"title": "t" * 256, "description": "d" * 4096, "footer": {"text": "f" * 2048}}
    assert codes({"embeds": [big]}) == {"MAX_EMBED_SIZE_EXCEEDED"}
    assert codes({"embeds": [{"title": "t" * 257}]}) == {"BASE_TYPE_MAX_LENGTH"}
    fields = [{"name": "n", "value": "v"}] * 26
    assert codes({"embeds": [{"fields": fields}]}) == {"BASE_TYPE_BAD_LENGTH"}
    assert codes({"embeds": [{"fields": [{"name": "n" * 257, "value": "v" * 1025}]}]}) == {
        "BASE_TYPE_MAX_LENGTH"
    }
    assert codes({"embeds": [{"author": {"name": "a" * 257}}]}) == {"BASE_TYPE_MAX_LENGTH"}

    def button(i: int, **kw) -> dict:
        return {"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}", **kw}

    row = {"type": 1, "components": [button(i) for i in range(5)]}
    assert codes({"components": [row]}) == set()
    six = {"type": 1, "components": [button(i) for i in range(6)]}
    assert codes({"components": [six]}) == {"BASE_TYPE_BAD_LENGTH"}
    rows = [{"type": 1, "components": [button(r * 10 + i)]} for r in range(6) for i in range(1)]
    assert codes({"components": rows}) == {"BASE_TYPE_BAD_LENGTH"}
    assert codes({"components": [{"type": 1, "components": [button(1, custom_id="c" * 101)]}]}) == {
        "BASE_TYPE_MAX_LENGTH"
    }
    assert codes({"components": [{"type": 1, "components": [button(1, label="l" * 81)]}]}) == {
        "BASE_TYPE_MAX_LENGTH"
    }
    dup = {"type": 1, "components": [button(1), button(1)]}
    assert codes({"components": [dup]}) == {"COMPONENT_CUSTOM_ID_DUPLICATED"}
    options = [{"label": str(i), "value": str(i)} for i in range(26)]
    select = {"type": 3, "custom_id": "s", "options": options}
    assert codes({"components": [{"type": 1, "components": [select]}]}) == {"BASE_TYPE_BAD_LENGTH"}
    mixed = {"type": 1, "components": [dict(select, options=options[:3]), button(1)]}
    assert codes({"components": [mixed]}) == {"COMPONENT_LAYOUT_WIDTH_EXCEEDED"}


# ------------------------------------------------------------------------ loopback server


async def test_loopback_server_gateway_and_rest() -> None:
    from fake_discord.server import FakeDiscordServer

    async with FakeDiscordServer(heartbeat_interval_ms=50) as server:
        assert server.url.startswith("http://127.0.0.1:") and server.port
        state = server.state
        guild = state.create_guild("Loopback Guild")
        alice = state.create_user("alice")
        client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.01)
        tree = app_commands.CommandTree(client)
        ready = asyncio.Event()
        seen: list[str] = []

        @client.event
        async def on_ready() -> None:
            ready.set()

        @client.event
        async def on_message(message: discord.Message) -> None:
            seen.append(message.content)

        @tree.command(description="ping")
        async def ping(interaction: discord.Interaction, word: str) -> None:
            await interaction.response.defer()
            await interaction.followup.send(f"pong {word} in {interaction.guild.name}")
            await interaction.channel.send("side message")

        with server.redirect():
            runner = asyncio.create_task(client.start(state.token))
            try:
                await asyncio.wait_for(ready.wait(), 5)
                assert client.user.id == state.bot_user.id
                assert client.get_guild(guild.id).name == "Loopback Guild"  # GUILD_CREATE
                await tree.sync()
                assert {c["name"] for c in state.global_commands} == {"ping"}
                res = await server.slash("ping", user=alice, guild=guild, word="hi")
                assert res.response.type == 5
                assert res.original.content == "pong hi in Loopback Guild"
                await server.wait_until(lambda: "side message" in seen, timeout=2)
                session = server.sessions[0]
                await server.wait_until(lambda: session.heartbeats >= 2, timeout=2)
                assert client.latency < 1  # HEARTBEAT_ACKs arrive
                assert state.violations == []
            finally:
                await client.close()
                await asyncio.wait_for(runner, 5)


async def test_loopback_server_rejects_bad_token() -> None:
    from fake_discord.server import FakeDiscordServer

    async with FakeDiscordServer() as server:
        client = discord.Client(intents=discord.Intents.none())
        with server.redirect(), pytest.raises(discord.LoginFailure):
            await client.login("wrong-token")
        await client.close()


def test_server_env_for_child_process() -> None:
    from fake_discord.server import FakeDiscordServer

    server = FakeDiscordServer()
    server.port = 12345
    env = server.env({"PYTHONPATH": "/x"})
    assert env["FAKE_DISCORD_API_BASE"] == "http://127.0.0.1:12345/api/v10"
    assert env["FAKE_DISCORD_GATEWAY"] == "ws://127.0.0.1:12345/gateway/"
    assert env["PYTHONPATH"].endswith(":/x") and "_redirect" in env["PYTHONPATH"]
    with pytest.raises(ValueError, match="loopback"):
        FakeDiscordServer(host="0.0.0.0")


CHILD_BOT = """
import os
import discord
from discord import app_commands

class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="ping")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong from a child process")

    async def setup_hook(self):
        await self.tree.sync()

Bot().run(os.environ["FAKE_DISCORD_TOKEN"], log_handler=None)
"""


async def test_child_process_bot_uses_the_server(tmp_path) -> None:
    import sys

    from fake_discord.server import FakeDiscordServer

    script = tmp_path / "child_bot.py"
    script.write_text(CHILD_BOT)
    async with FakeDiscordServer() as server:
        guild = server.state.create_guild("Child Guild")
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            env=server.env(),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            await server.wait_for_session(timeout=10)
            await server.wait_until(lambda: server.state.global_commands, timeout=5)
            res = await server.slash("ping", user=server.state.create_user("u"), guild=guild)
            assert res.content == "pong from a child process"
        finally:
            proc.terminate()
            output, _ = await asyncio.wait_for(proc.communicate(), 10)
        assert b"Traceback" not in output, output.decode()
