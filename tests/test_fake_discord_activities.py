"""The fake Discord's Activities (tests/fake_discord/activities.py), each rule as Discord's docs
state it: the Entry Point command (type 4) and the 50240 refusal of a bulk overwrite that drops
it, the ``LAUNCH_ACTIVITY`` callback, OAuth2's code exchange, ``/users/@me`` with a Bearer token
and activity instances. Driven through discord.py where it has the call, else through an
aiohttp-style session at ``discord.http.Route.BASE``, in process and over the loopback
server."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands
from discord.http import Route
from fake_discord import FakeClock, FakeDiscord
from fake_discord.activities import (
    ACCESS_TOKEN_LIFETIME,
    CODE_LIFETIME,
    EMBEDDED,
    ENTRY_POINT_REMOVED_MESSAGE,
    ActivityLaunch,
)
from fake_discord.server import FakeDiscordServer

#: Discord's own rules start from an app that holds no commands yet.
pytestmark = pytest.mark.fresh_app


@pytest.fixture
def clock(fake_clock: FakeClock) -> FakeClock:
    return fake_clock


@pytest.fixture
def fake(fake_discord: FakeDiscord) -> FakeDiscord:
    """The suite's fake Discord (its check at teardown fails unexpected errors and
    violations)."""
    return fake_discord


class LaunchBot(commands.Bot):
    """A bot whose ``/play`` answers with ``LAUNCH_ACTIVITY`` (after a defer with
    ``late=True``), and whose button does too."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())
        self.outcome: list[Any] = []

        @self.tree.command(description="open the Activity")
        async def play(interaction: discord.Interaction, late: bool = False) -> None:
            if late:
                await interaction.response.defer()
            try:
                answer = await interaction.response.launch_activity()
                self.outcome.append(answer.activity_id)
            except (discord.HTTPException, discord.InteractionResponded) as exc:
                self.outcome.append(exc)
                if not interaction.response.is_done():
                    await interaction.response.send_message("no Activity", ephemeral=True)
                else:
                    await interaction.followup.send("no Activity")


@pytest.fixture
async def bot(fake: FakeDiscord) -> LaunchBot:
    bot = LaunchBot()
    await fake.login(bot)
    return bot


async def sync_keeping_entry_point(bot: commands.Bot, held: list[dict[str, Any]]) -> Any:
    """What a bot must do once Activities are on: its tree plus the held type-4 command."""
    assert bot.application_id is not None
    payload = [c.to_dict(bot.tree) for c in bot.tree._get_all_commands()]
    payload += [c for c in held if c["type"] == 4]
    return await bot.http.bulk_upsert_global_commands(bot.application_id, payload)


# ------------------------------------------------------------------ Entry Point command


async def test_activities_on_sets_embedded_and_creates_the_launch_command(fake, bot) -> None:
    app = await bot.application_info()
    assert not app.flags.value & EMBEDDED and fake.commands == []
    entry = fake.enable_activities()
    assert (await bot.application_info()).flags.value & EMBEDDED
    held = await bot.http.get_global_commands(bot.application_id)
    assert [(c["type"], c["name"], c["handler"]) for c in held] == [(4, "Launch", 2)]
    assert held[0]["id"] == entry["id"]
    assert held[0]["contexts"] == [0, 1, 2] and held[0]["integration_types"] == [0, 1]


async def test_a_bulk_overwrite_without_the_entry_point_is_refused_whole(fake, bot) -> None:
    fake.enable_activities()
    before = list(fake.commands)
    with pytest.raises(discord.HTTPException) as refused:
        await bot.tree.sync()  # discord.py's tree knows no type 4
    assert refused.value.status == 400 and refused.value.code == 50240
    assert refused.value.text == ENTRY_POINT_REMOVED_MESSAGE
    assert fake.commands == before  # nothing changed
    fake.expect_violation(50240)


async def test_re_sending_the_entry_point_as_get_returned_it_keeps_it(fake, bot) -> None:
    entry = fake.enable_activities()
    held = await bot.http.get_global_commands(bot.application_id)
    synced = await sync_keeping_entry_point(bot, held)
    assert sorted((c["type"], c["name"]) for c in synced) == [(1, "play"), (4, "Launch")]
    kept = next(c for c in fake.commands if c["type"] == 4)
    assert (kept["id"], kept["handler"], kept["contexts"], kept["integration_types"]) == (
        entry["id"], 2, [0, 1, 2], [0, 1])
    synced_again = await sync_keeping_entry_point(bot, synced)  # and again, as a restart does
    assert next(c for c in synced_again if c["type"] == 4)["id"] == entry["id"]


async def test_entry_point_rules(fake, bot) -> None:
    app_id, guild = bot.application_id, fake.guild()
    entry = {"type": 4, "name": "play", "description": "Play", "handler": 1}

    async def refused(payload: list[dict[str, Any]], guild_id: int | None = None) -> str:
        with pytest.raises(discord.HTTPException) as exc:
            if guild_id is None:
                await bot.http.bulk_upsert_global_commands(app_id, payload)
            else:
                await bot.http.bulk_upsert_guild_commands(app_id, guild_id, payload)
        fake.expect_violation(50035)
        return str(exc.value)

    assert "need an app with Activities" in await refused([entry])  # Activities off
    fake.enable_activities()
    assert "guild command" in await refused([entry], guild.id)
    assert "only one" in await refused([entry, dict(entry, name="other")])
    option = {"type": 3, "name": "x", "description": "x"}
    assert "Options can only be set" in await refused([dict(entry, options=[option])])
    assert "one of" in await refused([dict(entry, handler=3)])
    slash = {"type": 1, "name": "slash", "description": "d", "handler": 1}
    assert "only for PRIMARY_ENTRY_POINT" in await refused([slash])
    # Replacing "Launch" by another entry point in one bulk overwrite removes it: refused.
    with pytest.raises(discord.HTTPException) as exc:
        await bot.http.bulk_upsert_global_commands(app_id, [entry])
    assert exc.value.code == 50240
    fake.expect_violation(50240)


async def test_get_commands_gives_localizations_only_when_asked(fake, bot) -> None:
    command = {"type": 1, "name": "play", "description": "Play",
               "name_localizations": {"fr": "jouer"},
               "options": [{"type": 3, "name": "code", "description": "c",
                            "description_localizations": {"de": "Code"}}]}
    await bot.http.bulk_upsert_global_commands(bot.application_id, [command])
    plain = await bot.http.get_global_commands(bot.application_id)
    assert "name_localizations" not in plain[0]
    assert "description_localizations" not in plain[0]["options"][0]
    route = Route("GET", "/applications/{app}/commands", app=bot.application_id)
    full = await bot.http.request(route, params={"with_localizations": "true"})
    assert full[0]["name_localizations"] == {"fr": "jouer"}
    assert full[0]["options"][0]["description_localizations"] == {"de": "Code"}


async def test_entry_point_with_discord_s_handler_launches_without_the_bot(fake, bot) -> None:
    alice, guild = fake.user("alice"), fake.guild()
    fake.enable_activities()
    launched = await fake.entry_point(bot, user=alice, guild=guild)
    assert isinstance(launched, ActivityLaunch) and launched.interaction_id is None
    assert launched.channel.guild is guild and launched.instance.users == [alice]


# ---------------------------------------------------------------- LAUNCH_ACTIVITY callback


async def test_launch_activity_as_first_answer_records_the_launch(fake, bot, clock) -> None:
    alice, bob, guild = fake.user("alice"), fake.user("bob"), fake.guild()
    fake.enable_activities()
    await sync_keeping_entry_point(bot, await bot.http.get_global_commands(bot.application_id))
    first = await fake.slash(bot, "play", user=alice, guild=guild)
    assert first.response.type == 12 and first.messages == []
    launch = first.launch
    assert launch is not None and launch.user is alice and launch.guild is guild
    assert bot.outcome == [launch.instance.instance_id]  # discord.py reads it back
    second = await fake.slash(bot, "play", user=bob, guild=guild)  # joins the same one
    assert second.launch.instance is launch.instance and launch.instance.users == [alice, bob]
    dm = await fake.slash(bot, "play", user=alice)
    assert dm.launch.instance is not launch.instance and dm.launch.guild is None


async def test_launch_activity_after_a_defer_is_refused(fake, bot) -> None:
    alice, guild = fake.user("alice"), fake.guild()
    fake.enable_activities()
    await sync_keeping_entry_point(bot, await bot.http.get_global_commands(bot.application_id))
    late = await fake.slash(bot, "play", user=alice, guild=guild, late=True)
    assert late.response.type == 5 and late.launch is None
    assert isinstance(bot.outcome[-1], discord.InteractionResponded)  # discord.py's own guard
    bot.outcome.clear()
    # Past discord.py's guard (a second process, or a raw call), Discord answers 40060.
    rec = late.record
    route = Route("POST", "/interactions/{id}/{token}/callback", id=rec.id, token=rec.token)
    with pytest.raises(discord.HTTPException) as exc:
        await bot.http.request(route, json={"type": 12})
    assert exc.value.code == 40060 and fake.activities.launches == []
    fake.expect_violation(40060)


async def test_launch_activity_without_activities_is_refused(fake, bot) -> None:
    alice, guild = fake.user("alice"), fake.guild()
    await fake.sync(bot)
    refused = await fake.slash(bot, "play", user=alice, guild=guild)
    assert isinstance(bot.outcome[0], discord.HTTPException)
    assert "EMBEDDED" in str(bot.outcome[0]) and refused.ephemeral
    assert fake.activities.launches == []
    fake.expect_violation(50035, match="LAUNCH_ACTIVITY")


# --------------------------------------------------------------------------- OAuth2


async def exchange(session: Any, form: dict[str, str], **kwargs: Any) -> tuple[int, Any]:
    async with session.post(f"{Route.BASE}/oauth2/token", data=form, **kwargs) as resp:
        return resp.status, await resp.json()


async def users_me(session: Any, token: str) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    async with session.get(f"{Route.BASE}/users/@me", headers=headers) as resp:
        return resp.status, await resp.json()


def form(fake_state: Any, code: str, **extra: str) -> dict[str, str]:
    return {"client_id": str(fake_state.application_id),
            "client_secret": fake_state.client_secret,
            "grant_type": "authorization_code", "code": code, **extra}


async def check_oauth(session: Any, state: Any, clock: FakeClock | None) -> None:
    """The whole OAuth2 flow and every refusal, through ``session`` (in process or HTTP)."""
    alice = state.create_user("alice", global_name="Alice")
    alice.locale = "fr"
    code = state.authorize(alice, ["identify", "guilds"])
    status, token = await exchange(session, form(state, code))
    assert status == 200
    assert token["token_type"] == "Bearer" and token["expires_in"] == ACCESS_TOKEN_LIFETIME
    assert token["scope"] == "identify guilds" and token["refresh_token"]
    status, me = await users_me(session, token["access_token"])
    assert status == 200 and me["id"] == str(alice.id) and me["username"] == "alice"
    assert me["global_name"] == "Alice" and me["locale"] == "fr" and "avatar" in me
    # A code is good once.
    assert await exchange(session, form(state, code)) == (
        400, {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'})
    assert (await exchange(session, form(state, "forged")))[1]["error"] == "invalid_grant"
    wrong = dict(form(state, state.authorize(alice)), client_secret="nope")
    assert await exchange(session, wrong) == (401, {"error": "invalid_client"})
    status, body = await exchange(session, dict(form(state, "x"), grant_type="password"))
    assert (status, body["error"]) == (400, "unsupported_grant_type")
    async with session.post(f"{Route.BASE}/oauth2/token", json=form(state, "x")) as resp:
        assert resp.status == 400  # JSON is not accepted: Discord reads no grant type
        assert (await resp.json())["error"] == "unsupported_grant_type"
    # HTTP Basic authenticates the client as well (Discord's own example).
    basic = base64.b64encode(f"{state.application_id}:{state.client_secret}".encode())
    code = state.authorize(alice)
    status, _ = await exchange(session, {"grant_type": "authorization_code", "code": code},
                               headers={"Authorization": f"Basic {basic.decode()}",
                                        "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 200
    assert (await users_me(session, "forged"))[0] == 401
    no_identify = state.activities.access_token(alice, ["guilds"])
    assert (await users_me(session, no_identify))[0] == 401
    if clock is not None:  # codes and tokens expire on the fake's clock
        stale = state.authorize(alice)
        clock.advance(CODE_LIFETIME + 1)
        assert (await exchange(session, form(state, stale)))[1]["error"] == "invalid_grant"
        clock.advance(ACCESS_TOKEN_LIFETIME)
        assert (await users_me(session, token["access_token"]))[0] == 401


async def test_oauth2_code_exchange_and_bearer_user_in_process(fake, clock) -> None:
    async with fake.client_session() as session:
        await check_oauth(session, fake.state, clock)
    fake.expect_violation(0, match="invalid_client")


async def test_oauth2_and_instances_over_the_loopback_server() -> None:
    async with FakeDiscordServer() as server, aiohttp.ClientSession() as session:
        state = server.state
        with server.redirect():
            await check_oauth(session, state, None)
            await check_instances(session, state)
        # the wrong client secret and the forged bot token
        assert [v.status for v in state.violations] == [401, 401]


async def test_the_bot_token_still_gets_the_bot_from_users_me(fake, bot) -> None:
    assert (await bot.http.request(Route("GET", "/users/@me")))["id"] == str(fake.bot_user.id)


# ------------------------------------------------------------------------ instances


async def get_instance(session: Any, state: Any, instance_id: str,
                       token: str | None = None) -> tuple[int, Any]:
    url = f"{Route.BASE}/applications/{state.application_id}/activity-instances/{instance_id}"
    headers = {"Authorization": f"Bot {token or state.token}"}
    async with session.get(url, headers=headers) as resp:
        return resp.status, await resp.json()


async def check_instances(session: Any, state: Any) -> None:
    alice, bob, carol = (state.create_user(n) for n in ("alice", "bob", "carol"))
    guild = state.create_guild("Cafe")
    channel = next(iter(guild.channels.values()))
    instance = state.start_activity(channel, alice)
    status, body = await get_instance(session, state, instance.instance_id)
    assert status == 200 and body == {
        "application_id": str(state.application_id), "instance_id": instance.instance_id,
        "launch_id": str(instance.launch_id),
        "location": {"id": f"gc-{guild.id}-{channel.id}", "kind": "gc",
                     "channel_id": str(channel.id), "guild_id": str(guild.id)},
        "users": [str(alice.id)]}
    assert state.start_activity(channel, bob) is instance  # one instance per channel
    instance.leave(alice)
    assert (await get_instance(session, state, instance.instance_id))[1]["users"] == [
        str(bob.id)]
    group = state.private_channel(alice, bob, carol, name="trio")
    in_group = state.start_activity(group, carol)
    status, body = await get_instance(session, state, in_group.instance_id)
    assert body["location"] == {"id": f"pc-{group.id}", "kind": "pc",
                                "channel_id": str(group.id)}
    dm = state.start_activity(state.private_channel(alice, bob), alice)
    assert dm.location_id.startswith("pc-")
    instance.leave(bob)  # the last one out ends it: a new launch gets a new id
    assert await get_instance(session, state, instance.instance_id) == (
        404, {"message": "404: Not Found", "code": 0})
    assert state.start_activity(channel, alice).instance_id != instance.instance_id
    state.activities.end(in_group)
    assert (await get_instance(session, state, in_group.instance_id))[0] == 404
    assert (await get_instance(session, state, "i-1-gc-2-3"))[0] == 404
    assert (await get_instance(session, state, dm.instance_id, token="forged"))[0] == 401


async def test_activity_instances_in_process(fake) -> None:
    async with fake.client_session() as session:
        await check_instances(session, fake.state)
    fake.expect_violation(0, match="401")


async def test_the_loopback_gateway_reports_the_embedded_flag() -> None:
    async with FakeDiscordServer() as server:
        server.state.enable_activities()
        client = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.01)
        ready = asyncio.Event()
        client.event(ready_handler(ready))
        with server.redirect():
            runner = asyncio.create_task(client.start(server.state.token))
            try:
                await asyncio.wait_for(ready.wait(), 5)
                assert client.application_flags.value & EMBEDDED
            finally:
                await client.close()
                await asyncio.wait_for(runner, 5)


def ready_handler(ready: asyncio.Event) -> Any:
    async def on_ready() -> None:
        ready.set()
    return on_ready



async def test_entry_point_with_the_app_s_handler_is_an_interaction_to_answer(fake) -> None:
    """Handler 1: Discord sends the app an application command of type 4 to answer (here
    in ``on_interaction``). discord.py 2.7's CommandTree knows no type 4: its own dispatch
    of the same interaction fails with ``AppCommandType(4)``'s ValueError."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    launched: list[str | None] = []

    @bot.event
    async def on_interaction(interaction: discord.Interaction) -> None:
        assert interaction.data is not None and interaction.data.get("type") == 4
        launched.append((await interaction.response.launch_activity()).activity_id)

    await fake.login(bot)
    entry = dict(fake.enable_activities(), handler=1)
    await bot.http.bulk_upsert_global_commands(fake.application_id, [entry])
    alice, group = fake.user("alice"), fake.group_dm(fake.user("bob"), fake.user("carol"))
    fake.user_install(alice)
    group.members.append(alice)
    fake.expect_error(ValueError, match="4 is not a valid AppCommandType")
    result = await fake.entry_point(bot, user=alice, channel=group)
    assert not isinstance(result, ActivityLaunch) and result.response.type == 12
    assert result.launch is not None and result.launch.channel is group
    assert launched == [result.launch.instance.instance_id]
    assert result.launch.instance.payload(fake.application_id)["location"]["kind"] == "pc"
