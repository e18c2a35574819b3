"""A race in each shipped language, through discord.py's real dispatch: the lobby, the
standings under way and at the end, the result, a racer's board and a refusal speak the
server's (public) or the player's (private) language, in the catalog's words, never
English's."""

from __future__ import annotations

import pytest
from i18n_play import rows
from test_bot_race import miss

from i18n import SHIPPED, speaking, tr, trn

#: Discord's name of each shipped catalog (a dash where Babel has an underscore).
DISCORD = {locale: locale.replace("_", "-") for locale in SHIPPED}


def said(locale: str | None, message: str, **values) -> str:
    with speaking(locale):
        return tr(message, **values)


@pytest.mark.parametrize("locale", SHIPPED)
async def test_a_race_speaks_each_language(fake_discord, start_bot, world, db_path, locale):
    world.guild.locale = DISCORD[locale]
    for member in (world.alice, world.bob):
        member.user.locale = DISCORD[locale]
    bot = await start_bot()

    def both(message: str, **values) -> str:
        """The words in this language, which are not English's."""
        words = said(locale, message, **values)
        assert words != said(None, message, **values), (locale, message)
        return words

    opened = await fake_discord.slash(bot, "race", user=world.alice, channel=world.general,
                                      guild=world.guild, max_guesses=2)
    race_id, secret = rows(db_path, "SELECT id, secret FROM races")[0]
    board = opened.message
    assert opened.embed["title"] == both("Race #{id}: join now!", id=race_id)
    assert both("Join") in [b["label"] for b in board.buttons]
    again = await fake_discord.click(bot, board, f"mmr:join:{race_id}", user=world.alice)
    assert again.ephemeral and again.embed["title"] == both("Already in")
    await fake_discord.click(bot, board, f"mmr:join:{race_id}", user=world.bob)
    started = await fake_discord.click(bot, board, f"mmr:start:{race_id}", user=world.alice)
    assert started.embed["title"] == both("Race #{id}: under way", id=race_id)
    assert both("My board") in [b["label"] for b in fake_discord.message(board.id).buttons]

    mine = await fake_discord.click(bot, board, f"mmr:board:{race_id}", user=world.bob)
    assert mine.ephemeral and mine.embed["title"] == both("Race: break the code!")
    for nth in (0, 1):
        out = await fake_discord.slash(bot, "guess", user=world.bob, channel=world.general,
                                       guild=world.guild, code=miss(secret, nth))
    assert both("shown in the channel when the race ends") in out.embed["description"]
    await fake_discord.slash(bot, "guess", user=world.alice, channel=world.general,
                             guild=world.guild, code=secret)
    finished = both("Race #{id}: finished", id=race_id)
    result = await fake_discord.wait_until(
        lambda: [m for m in fake_discord.messages(world.general, include_ephemeral=False)
                 if m.id != board.id and m.embeds and m.embeds[0]["title"] == finished],
        what="the result, in the server's language")
    assert f"<@{world.alice.id}>" in result[-1].embeds[0]["description"]
    final = fake_discord.message(board.id).embeds[0]
    assert final["title"] == finished
    with speaking(locale):
        solved = trn("{player}: solved in {count} guess ({time})",
                     "{player}: solved in {count} guesses ({time})", 1,
                     player=f"<@{world.alice.id}>", time="0:00")
    assert solved in final["description"]
