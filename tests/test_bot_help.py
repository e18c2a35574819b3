"""/mastermind help: pages turned with persistent buttons, through discord.py's real dispatch."""

from __future__ import annotations

from engine import PALETTE, STRATEGIES

PAGES = ["mmh:play", "mmh:codes", "mmh:bot", "mmh:more"]


async def help_of(fake, bot, world, user=None):
    return await fake.slash(bot, "mastermind help", user=user or world.alice,
                            channel=world.general, guild=world.guild)


def current_tab(message) -> str:
    (blue,) = [b["custom_id"] for b in message.buttons if b["style"] == 1]
    return blue


async def test_help_turns_its_pages_in_place(fake_discord, start_bot, world):
    bot = await start_bot()
    shown = await help_of(fake_discord, bot, world)
    assert shown.ephemeral and shown.embed["title"] == "How to play Mastermind"
    assert shown.message.custom_ids == PAGES and current_tab(shown.message) == "mmh:play"
    titles = {}
    for page in [*PAGES[1:], PAGES[0]]:
        clicked = await fake_discord.click(bot, shown.message, page, user=world.alice)
        assert not clicked.messages or clicked.messages[-1].id == shown.message.id
        message = fake_discord.message(shown.message.id)  # the same message, edited
        assert current_tab(message) == page and message.custom_ids == PAGES
        titles[page] = message.embed["title"]
    assert titles == {"mmh:play": "How to play Mastermind", "mmh:codes": "Codes and colours",
                      "mmh:bot": "I break your code: /challenge",
                      "mmh:more": "Matches, the daily and more"}
    fake_discord.assert_no_violations()  # every page within Discord's limits


async def test_what_left_the_boards_is_in_help(fake_discord, start_bot, world):
    """The letters left the colour key (``2O`` read as "twenty"), the strategies' ideas left
    every challenge turn but the first: help has both."""
    bot = await start_bot()
    shown = await help_of(fake_discord, bot, world)
    await fake_discord.click(bot, shown.message, "mmh:codes", user=world.alice)
    codes = fake_discord.message(shown.message.id).text
    for colour in PALETTE:
        assert f"`{colour.digit}` or `{colour.letter}` {colour.name}" in codes
    await fake_discord.click(bot, shown.message, "mmh:bot", user=world.alice)
    strategies = fake_discord.message(shown.message.id).text
    assert all(f"`{s.name}` {s.description}" in strategies for s in STRATEGIES.values())


async def test_help_pages_turn_after_a_restart(fake_discord, start_bot, world):
    bot = await start_bot()
    shown = await help_of(fake_discord, bot, world)
    await bot.close()
    bot = await start_bot()  # a new process: nothing registered by hand
    clicked = await fake_discord.click(bot, shown.message, "mmh:more", user=world.alice)
    assert not any(m.ephemeral and m.id != shown.message.id for m in clicked.messages)
    assert fake_discord.message(shown.message.id).embed["title"] == "Matches, the daily and more"


async def test_a_forged_or_old_help_button_is_told_it_is_out_of_date(fake_discord, start_bot,
                                                                    world):
    bot = await start_bot()
    for custom_id in ("mmh:zap", "mmh:", "mmh:PLAY", "mmh:play:2"):
        old = fake_discord.old_message(world.general, [custom_id])
        answered = await fake_discord.click(bot, old, custom_id, user=world.bob)
        assert answered.ephemeral and "out of date" in answered.embed["title"], custom_id
        assert fake_discord.message(old.id).custom_ids == [custom_id]  # nothing edited
    fake_discord.assert_no_violations()  # answered once: UnknownButton leaves mmh: alone
