"""Playing in another language, as the i18n tests do: the server's and a player's locale,
the catalog's words, and a challenge answered by its buttons in any language (the turn and
the guess are read from the board's buttons and its big code line, not its words).

Shared by tests/test_i18n_challenge.py and tests/test_i18n_match.py."""

from __future__ import annotations

import contextlib
import re

import dbtools

from engine import Feedback, score
from i18n import speaking, tr

#: Discord's name of each catalog's locale, as a client sends it.
DISCORD = {"de": "de", "ja": "ja", "en": "en-US"}
CODE_LINE = re.compile(r"^#{2,3} .*`(\d+)`$", re.M)


def speak(world, *, server: str, player: str) -> None:
    """The server's language (public boards) and alice's client language."""
    world.guild.locale = DISCORD[server]
    world.alice.user.locale = DISCORD[player]


def words(locale: str, message: str, **values) -> str:
    with speaking(locale):
        return tr(message, **values)


def labels(message) -> list[str]:
    return [b.get("label") or "" for b in message.buttons]


def rows(db_path, sql: str, *args) -> list[tuple]:
    with contextlib.closing(dbtools.connect(db_path)) as conn:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]


def pending(board) -> tuple[int, str]:
    """(turn, guess) the board asks about, read from its buttons and its big code line."""
    turns = {int(c.split(":")[3]) for c in board.custom_ids if c.startswith(("mmc:r:", "mmc:b:"))}
    assert len(turns) == 1, board.custom_ids
    found = CODE_LINE.search(board.text)
    assert found, board.text
    return turns.pop(), found[1]


def game_id(board) -> int:
    return int(board.custom_ids[0].split(":")[2])


async def answer(fake, bot, board, reply: Feedback, user):
    """Click the reply, through the black count first when the board takes two steps."""
    turn, _ = pending(board)
    gid = game_id(board)
    button = f"mmc:r:{gid}:{turn}:{reply.black}:{reply.white}"
    if button not in board.custom_ids:
        step = await fake.click(bot, board, f"mmc:b:{gid}:{turn}:{reply.black}", user=user)
        assert step.response is not None and step.response.type in (6, 7), step.embed
        board = fake.message(board.id)
    return await fake.click(bot, board, button, user=user)


async def crack(fake, bot, board, secret: str, user) -> tuple[int, object]:
    """Answer every guess truthfully until the board stops asking: (guesses, board)."""
    for _ in range(20):
        turn, guess = pending(board)
        result = await answer(fake, bot, board, score(secret, guess), user)
        assert result.response is not None and result.response.type in (6, 7), result.embed
        board = fake.message(board.id)
        if not any(c.startswith("mmc:r:") for c in board.custom_ids):
            return turn, board
    raise AssertionError("the bot never finished")


async def challenge(fake, bot, world, **options):
    started = await fake.slash(bot, "challenge", user=world.alice, channel=world.general,
                               guild=world.guild, **options)
    assert started.ephemeral == bool(options.get("private")), started.embed
    return started.message
