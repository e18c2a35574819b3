"""Breaking the bot's code in the players' languages, through discord.py's real dispatch.

A channel's board speaks the server's language (here German), whoever moves; what one player
alone reads (an error, a private game, help) speaks that player's (here Japanese). Every
expected word is the catalog's (``with speaking(...)``), never a translation typed here, and
each is checked to differ from the English, so a missing catalog can't pass for one.
"""

from __future__ import annotations

import pytest
from conftest import secret_of, snapshot

from bot.features.breaker.render import key_text
from bot.features.mastermind.help import tabs
from bot.ui.pegs import code_line, key_pegs, legend
from engine import PALETTE, InvalidCode, Rules, code_from_digits, parse_code, score
from i18n import speaking, tr, trc, trn

GERMAN, JAPANESE = "de", "ja"


def said(locale: str | None, message: str, /, **values) -> str:
    """``message`` as the catalog of ``locale`` says it (checked to be translated)."""
    with speaking(locale):
        text = tr(message, **values)
    if locale is not None:
        assert text != tr(message, **values), f"{locale} has no words for {message!r}"
    return text


def said_n(locale: str | None, singular: str, plural: str, count: int, /, **values) -> str:
    with speaking(locale):
        text = trn(singular, plural, count, **values)
    if locale is not None:
        assert text != trn(singular, plural, count, **values), singular
    return text


def described(locale: str | None, rules: Rules) -> str:
    with speaking(locale):
        return rules.describe()


def invalid(locale: str | None, text: str, rules: Rules) -> str:
    """The engine's reason for refusing ``text``, in ``locale``, as an error's first sentence
    (capitalised)."""
    with speaking(locale), pytest.raises(InvalidCode) as refused:
        parse_code(text, rules)
    reason = str(refused.value)
    return reason[:1].upper() + reason[1:]


def misses(secret: str, n: int, colors: int = 6) -> list[str]:
    """``n`` different valid codes that are not the secret."""
    found: list[str] = []
    pegs = len(secret)
    for value in range(colors ** min(pegs, 4)):
        digits = [(value // colors**i) % colors + 1 for i in range(pegs)]
        code = "".join(map(str, digits))
        if code != secret and code not in found:
            found.append(code)
        if len(found) == n:
            break
    return found


@pytest.fixture
def german_server(world):
    """``world``'s server speaks German; alice's Discord is German, bob's Japanese."""
    world.guild.locale = "de"
    world.alice.user.locale = "de"
    world.bob.user.locale = "ja"
    return world


async def slash(fake, bot, world, command, user, **options):
    return await fake.slash(bot, command, user=user, channel=world.general, guild=world.guild,
                            **options)


def guesses_rows(db_path) -> list[tuple]:
    columns = ("turn", "player_id", "code", "black", "white")
    return [tuple(g[c] for c in columns) for g in snapshot(db_path)["guesses"]]


async def test_a_classic_game_in_a_german_server(fake_discord, start_bot, german_server,
                                                 db_path):
    """The channel's board is German whoever moves; bob's mistakes are told to him alone, in
    Japanese, and change nothing; the stored game is the same as in English."""
    world, bot, rules = german_server, await start_bot(), Rules()
    started = await slash(fake_discord, bot, world, "mastermind new", world.alice)
    assert not started.ephemeral
    board = started.embed
    assert board["title"] == said(GERMAN, "Mastermind: break the code!")
    with speaking(GERMAN):
        opening = [tr("After each guess I answer with key pegs: {key}.", key=key_text()),
                   tr("**Colours** {legend}", legend=legend(rules)),
                   tr("Anyone here can guess")]
    assert all(part in board["description"] for part in opening), board["description"]
    assert described(GERMAN, rules) != described(None, rules)
    assert board["footer"]["text"].startswith(said(GERMAN, "Game #{id}", id=1))
    assert [b["label"] for b in started.message.buttons] == [said(GERMAN, "Guess")]

    secret = secret_of(db_path, world.general.id)
    before = snapshot(db_path)
    for typed, reason in [("12a4", invalid(JAPANESE, "12a4", rules)),
                          ("12", invalid(JAPANESE, "12", rules))]:
        refused = await slash(fake_discord, bot, world, "guess", world.bob, code=typed)
        assert refused.ephemeral
        assert refused.embed["title"] == said(JAPANESE, "That is not a valid code")
        assert reason in refused.embed["description"]
        assert described(JAPANESE, rules) in refused.embed["description"]
    assert snapshot(db_path) == before

    miss, other = misses(secret, 2)
    first = await slash(fake_discord, bot, world, "guess", world.bob, code=miss)
    assert not first.ephemeral  # bob's move, the channel's board: German
    row = f"{code_line(code_from_digits(miss))} {key_pegs(score(secret, miss))}"
    assert row in first.embed["description"]
    left = said_n(GERMAN, "{left} of {count} guess left", "{left} of {count} guesses left", 10,
                  left=9)
    assert left in first.embed["footer"]["text"]
    shrunk = await fake_discord.wait_until(
        lambda: not fake_discord.message(started.message.id).embeds
        and fake_discord.message(started.message.id), what="the opening board to shrink")
    assert shrunk.content == said(GERMAN, "Game #{id} started: {rules}. The board is below.",
                                  id=1, rules=described(GERMAN, rules))

    again = await slash(fake_discord, bot, world, "guess", world.bob, code=miss)
    assert again.ephemeral and again.embed["title"] == said(JAPANESE, "Already on the board")
    with speaking(JAPANESE):
        reply = str(score(secret, miss))
    assert reply in again.embed["description"]

    await slash(fake_discord, bot, world, "guess", world.alice, code=other)
    won = await slash(fake_discord, bot, world, "guess", world.bob, code=secret)
    assert not won.ephemeral
    assert won.embed["title"] == said_n(GERMAN, "Code broken in {count} guess!",
                                        "Code broken in {count} guesses!", 3)
    assert said(GERMAN, "{player} cracked it on guess {turn} of {max}. The code was {code}.",
                player=f"<@{world.bob.id}>", turn=3, max=10,
                code=code_line(code_from_digits(secret))) in won.embed["description"]
    assert won.embed["footer"]["text"].endswith(described(GERMAN, rules))
    assert said(GERMAN, "Play again") in [b["label"] for b in won.message.buttons]

    late = await slash(fake_discord, bot, world, "guess", world.bob, code=secret)
    assert late.ephemeral and late.embed["title"] == said(JAPANESE, "This game is over")
    assert guesses_rows(db_path) == [(1, world.bob.id, miss, *score(secret, miss)),
                                     (2, world.alice.id, other, *score(secret, other)),
                                     (3, world.bob.id, secret, 4, 0)]
    game = snapshot(db_path)["games"][0]
    assert game["status"] == "won" and game["winner_id"] == world.bob.id
    fake_discord.assert_no_violations()


async def test_a_private_game_speaks_its_players_language(fake_discord, start_bot,
                                                          german_server, db_path):
    """In the German server, bob's private game is his alone: Japanese from start to end."""
    world, bot = german_server, await start_bot()
    started = await slash(fake_discord, bot, world, "mastermind new", world.bob, private=True)
    assert started.ephemeral
    assert started.embed["title"] == said(JAPANESE, "Your private game: break the code!")
    assert said(JAPANESE, "It's your private game, seen by you alone") in (
        started.embed["description"])
    assert started.embed["footer"]["text"].startswith(said(JAPANESE, "Private game #{id}", id=1))

    game = snapshot(db_path)["games"][0]
    miss = misses(game["secret"], 1)[0]
    moved = await slash(fake_discord, bot, world, "guess", world.bob, code=miss)
    assert moved.ephemeral
    assert said_n(JAPANESE, "{left} of {count} guess left", "{left} of {count} guesses left",
                  10, left=9) in moved.embed["footer"]["text"]
    ended = await slash(fake_discord, bot, world, "mastermind quit", world.bob, game="private")
    assert ended.ephemeral and ended.embed["title"] == said(JAPANESE, "Game ended")
    assert said(JAPANESE, "You ended the game.") in ended.embed["description"]
    assert snapshot(db_path)["games"][0]["status"] == "quit"

    in_dm = await fake_discord.slash(bot, "mastermind new", user=world.bob.user)
    assert in_dm.embed["title"] == said(JAPANESE, "Your private game: break the code!")
    fake_discord.assert_no_violations()


@pytest.mark.parametrize("locale", ["de", "ja"])
async def test_help_pages_in_the_readers_language(fake_discord, start_bot, world, locale):
    world.alice.user.locale = locale
    bot = await start_bot()
    shown = await slash(fake_discord, bot, world, "mastermind help", world.alice)
    assert shown.ephemeral and shown.embed["title"] == said(locale, "How to play Mastermind")
    with speaking(locale):
        labels = list(tabs().values())
    assert [b["label"] for b in shown.message.buttons] == labels
    await fake_discord.click(bot, shown.message, "mmh:codes", user=world.alice)
    codes = fake_discord.message(shown.message.id)
    assert codes.embed["title"] == said(locale, "Codes and colours")
    with speaking(locale):
        names = [c.spoken for c in PALETTE]
        lines = [tr("{peg} `{digit}` or `{letter}` {name}", peg="", digit=c.digit,
                    letter=c.letter, name=c.spoken).strip() for c in PALETTE]
    assert names != [c.name for c in PALETTE]  # the colours have names of their own
    assert all(line in codes.embed["description"] for line in lines)
    await fake_discord.click(bot, shown.message, "mmh:bot", user=world.alice)
    assert fake_discord.message(shown.message.id).embed["title"] == said(
        locale, "I break your code: /challenge")
    fake_discord.assert_no_violations()


async def test_a_german_8x9_board_of_20_rows_fits(fake_discord, start_bot, german_server,
                                                  db_path):
    """German is longer than English: the largest board, lost after 20 guesses, with its
    share grid and headline, still fits Discord's limits (the fake checks every message)."""
    world, bot = german_server, await start_bot()
    rules = Rules(8, 9, 20)
    await slash(fake_discord, bot, world, "mastermind new", world.alice, pegs=8, colors=9,
                max_guesses=20)
    secret = secret_of(db_path, world.general.id)
    players = [world.alice, world.bob]
    last = None
    for n, code in enumerate(misses(secret, 20, colors=9)):
        last = await slash(fake_discord, bot, world, "guess", players[n % 2], code=code)
        assert not last.ephemeral, last.embed
    assert last is not None
    assert last.embed["title"] == said(GERMAN, "Out of guesses: the code wins")
    assert said_n(GERMAN, "Nobody cracked it in {count} guess. The code was {code}.",
                  "Nobody cracked it in {count} guesses. The code was {code}.", 20,
                  code=code_line(code_from_digits(secret))) in last.embed["description"]
    assert last.embed["footer"]["text"].endswith(described(GERMAN, rules))
    assert len(guesses_rows(db_path)) == 20
    fake_discord.assert_no_violations()


async def test_a_locale_without_a_catalog_reads_english(fake_discord, start_bot, world,
                                                        db_path):
    """Ukrainian (a server) and traditional Chinese (a player) have no catalog: English."""
    world.guild.locale = "uk"
    world.alice.user.locale = "zh-TW"
    bot = await start_bot()
    started = await slash(fake_discord, bot, world, "mastermind new", world.alice)
    assert started.embed["title"] == "Mastermind: break the code!"
    assert started.embed["footer"]["text"].startswith("Game #1")
    refused = await slash(fake_discord, bot, world, "guess", world.alice, code="12a4")
    assert refused.ephemeral and refused.embed["title"] == "That is not a valid code"
    assert invalid(None, "12a4", Rules()) in refused.embed["description"]
    help_page = await slash(fake_discord, bot, world, "mastermind help", world.alice)
    assert help_page.embed["title"] == "How to play Mastermind"


async def test_an_abandoned_game_is_said_in_the_servers_language(fake_discord, start_bot,
                                                                 german_server, wall_clock):
    """bob (Japanese) starts a game over an idle one: the new board says so in German, and
    the old board, shrunk later by a task of its own, says it in German too."""
    world, bot = german_server, await start_bot()
    old = await slash(fake_discord, bot, world, "mastermind new", world.alice)
    wall_clock.advance(24 * 3600 + 1)
    fresh = await slash(fake_discord, bot, world, "mastermind new", world.bob)
    with speaking(GERMAN):
        start = tr("The previous game here (#{id}) had no move for too long and was "
                   "abandoned; {code}.", id=1, code="")
    gone = start[: start.index("#1") + 2]  # the words before the code
    assert gone != "The previous game here (#1"
    assert fresh.embed["description"].startswith(gone)
    shrunk = await fake_discord.wait_until(
        lambda: (m := fake_discord.message(old.message.id)) and not m.embeds and m,
        what="the abandoned board to shrink")
    assert shrunk.content.startswith(gone) and shrunk.buttons == []


async def test_refusals_before_any_game_speak_the_users_language(fake_discord, start_bot,
                                                                 german_server):
    world, bot = german_server, await start_bot()
    refused = await slash(fake_discord, bot, world, "mastermind settings", world.bob,
                          hints=False)
    assert refused.ephemeral and refused.embed["title"] == said(JAPANESE, "Not here")
    with speaking(JAPANESE):
        needed = tr("You need the {permissions} permission for this command.",
                    permissions=trc("permission", "Manage Server"))
    assert refused.embed["description"] == needed
    bot.closing = True  # what shutdown sets: every interaction is refused, nothing runs
    try:
        late = await slash(fake_discord, bot, world, "mastermind new", world.bob)
    finally:
        bot.closing = False
    assert late.ephemeral and late.embed["title"] == said(JAPANESE, "Restarting")
    assert late.embed["description"] == said(
        JAPANESE, "The bot is restarting: try again in a few seconds. Nothing was stored.")
