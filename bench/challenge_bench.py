"""/challenge through the bot's real dispatch: run by hand, prints figures.

    .venv/bin/python bench/challenge_bench.py              # all 1296 classic secrets + 8x9
    .venv/bin/python bench/challenge_bench.py --secrets 100 --large 10

Each game is played by clicking the reply buttons of the board message, exactly as a
player would, against the in-process fake Discord of the test suite (tests/fake_discord)
and a real SQLite file. "think" is the time spent in the solver per move (worker thread);
"click" is the whole interaction, from the click to the edited board.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from conftest import CHALLENGE_TURN  # noqa: E402
from fake_discord import FakeDiscord  # noqa: E402  (the test suite's fake Discord)

from bot.app import MastermindBot  # noqa: E402
from engine import Rules, score  # noqa: E402
from engine.space import space_for  # noqa: E402

GUESS = CHALLENGE_TURN


async def play(fake, bot, user, guild, channel, secret: str, options: dict,
               think: list[float], clicks: list[float]) -> int:
    started = await fake.slash(bot, "challenge", user=user, guild=guild, channel=channel,
                               **options)
    board = started.message
    while True:
        match = GUESS.search(board.text)  # a Components V2 board: its text displays
        if match is None:
            title = re.search(r"^### (.+)$", board.text, re.M)[1]
            assert title.startswith("I broke your code"), title
            return int(re.search(r"in (\d+) guess", title)[1])
        turn, guess = int(match[1]), match[2]
        fb = score(secret, guess)
        gid = board.custom_ids[0].split(":")[2]
        reply = f"mmc:r:{gid}:{turn}:{fb.black}:{fb.white}"
        bot.services.challenges.solver_seconds = 0.0
        begin = time.perf_counter()
        if reply not in board.custom_ids:
            await fake.click(bot, board, f"mmc:b:{gid}:{turn}:{fb.black}", user=user)
            board = fake.message(board.id)
        await fake.click(bot, board, reply, user=user)
        clicks.append(time.perf_counter() - begin)
        think.append(bot.services.challenges.solver_seconds)
        board = fake.message(board.id)


def instrument(bot) -> None:
    original = bot.services.challenges.solvers.run

    async def timed(function, *args, **kwargs):
        begin = time.perf_counter()
        try:
            return await original(function, *args, **kwargs)
        finally:
            bot.services.challenges.solver_seconds += time.perf_counter() - begin

    bot.services.challenges.solver_seconds = 0.0
    bot.services.challenges.solvers.run = timed


def report(label: str, games: list[int], think: list[float], clicks: list[float]) -> None:
    ms = 1000
    print(f"{label}: {len(games)} games, max {max(games)} guesses, average "
          f"{statistics.mean(games):.3f}, distribution "
          f"{ {k: games.count(k) for k in sorted(set(games))} }")
    print(f"  think per move: median {statistics.median(think) * ms:.1f} ms, worst "
          f"{max(think) * ms:.1f} ms over {len(think)} moves")
    print(f"  click to edited board: median {statistics.median(clicks) * ms:.1f} ms, worst "
          f"{max(clicks) * ms:.1f} ms")


async def run(secrets_count: int | None, large: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(timeout=60)
        bot = MastermindBot(database=Path(tmp) / "bench.sqlite3")
        await fake.login(bot)
        instrument(bot)
        guild = fake.guild("Bench")
        user = fake.member(guild, fake.user("player"))
        channel = next(iter(guild.channels.values()))

        space = space_for(Rules())
        codes = ["".join(map(str, space.code(i))) for i in range(space.size)]
        if secrets_count:
            codes = codes[:: max(1, len(codes) // secrets_count)][:secrets_count]
        games, think, clicks = [], [], []
        begin = time.perf_counter()
        for secret in codes:
            games.append(await play(fake, bot, user, guild, channel, secret, {}, think, clicks))
        print(f"classic 4x6 knuth through the bot ({time.perf_counter() - begin:.0f} s):")
        report("  4x6", games, think, clicks)
        assert max(games) <= 5

        if large:
            big = space_for(Rules(8, 9, 20))
            rng = __import__("random").Random(8)
            games, think, clicks = [], [], []
            for _ in range(large):
                secret = "".join(map(str, big.code(rng.randrange(big.size))))
                games.append(await play(fake, bot, user, guild, channel, secret,
                                        {"pegs": 8, "colors": 9, "max_guesses": 20},
                                        think, clicks))
            print("largest rules, 8 pegs x 9 colours, knuth (bounded-work mode):")
            report("  8x9", games, think, clicks)
        await fake.close()
        fake.check()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--secrets", type=int, default=None, help="classic secrets (all 1296)")
    parser.add_argument("--large", type=int, default=20, help="8x9 games to play")
    args = parser.parse_args()
    asyncio.run(run(args.secrets, args.large))


if __name__ == "__main__":
    main()
