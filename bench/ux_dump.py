"""Play scenarios through the test suite's fake Discord and dump what players see.

Run by hand: ``.venv/bin/python bench/ux_dump.py OUT_DIR`` writes one JSON file per screen
(the message payloads the bot really sent, in channel order, for ``../shared/ux/render.py``),
a ``users.json`` for mentions, and the drawn pegs the bot uploaded as application emoji
(``pegs/*.png`` and ``pegs/map.json``, emoji id to image, for the renderer's
``--custom-emoji``). With ``--render`` it also screenshots them (desktop and phone, Twemoji)
with the renderer's own virtual environment::

    .venv/bin/python bench/ux_dump.py /tmp/ux/after --render
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import discord  # noqa: E402
from fake_discord import FakeClock, FakeDiscord  # noqa: E402

from bot.app import MastermindBot  # noqa: E402
from engine import score  # noqa: E402

#: The shared renderer, beside the checkout (or beside a folder of worktrees).
RENDERER = next((p for p in (ROOT.parent / "shared" / "ux" / "render.py",
                             ROOT.parent.parent / "shared" / "ux" / "render.py") if p.exists()),
                ROOT.parent / "shared" / "ux" / "render.py")
UX_PYTHON = Path.home() / ".cache" / "ux-venv" / "bin" / "python"


class Scene:
    """One bot against the fake Discord, with a server, three players and #general."""

    def __init__(self, fake: FakeDiscord, bot: MastermindBot, db: Path):
        self.fake, self.bot, self.db = fake, bot, db
        self.guild = fake.guild("Mastermind Club")
        self.general = next(iter(self.guild.channels.values()))
        self.players = [fake.member(self.guild, fake.user(n)) for n in ("alice", "bob", "carol")]
        self.commands: dict[int, dict] = {}

    async def slash(self, command: str, user, **options):
        result = await self.fake.slash(self.bot, command, user=user, channel=self.general,
                                       guild=self.guild, **options)
        for message in result.messages:
            self.commands.setdefault(message.id, {"kind": "slash", "user": user.user.username,
                                                  "name": command})
        return result

    async def click(self, message, custom_id: str, user):
        result = await self.fake.click(self.bot, message, custom_id, user=user)
        for m in result.messages:
            if m.id != message.id:
                self.commands.setdefault(m.id, {"kind": "click", "user": user.user.username})
        return result

    def secret(self) -> str:
        with contextlib.closing(sqlite3.connect(self.db)) as conn:
            row = conn.execute("SELECT secret FROM games WHERE status = 'active' "
                               "ORDER BY id DESC LIMIT 1").fetchone()
        return row[0]

    def payload(self, message) -> dict:
        data = json.loads(json.dumps(self.fake.message(message.id).payload(), default=str))
        if message.id in self.commands:
            data["_command"] = self.commands[message.id]
        if data.get("edited_timestamp"):
            data["_show_edited"] = True
        return data

    def channel(self, *, since: int = 0) -> list[dict]:
        """The channel as a player sees it: live messages, oldest first."""
        return [self.payload(m) for m in self.fake.messages(self.general, include_ephemeral=True)
                if m.id > since]

    def users(self) -> dict[str, str]:
        return {str(p.id): p.user.username for p in self.players}


def _wrong(secret: str, k: int, colors: int = 6) -> str:
    """A valid code that is not the secret."""
    code = list(secret)
    code[k % len(code)] = str(int(code[k % len(code)]) % colors + 1)
    return "".join(code)


async def classic(scene: Scene) -> dict[str, list[dict]]:
    alice, bob, carol = scene.players
    await scene.slash("mastermind new", alice)
    secret = scene.secret()
    screens = {"classic_new": scene.channel()}
    await scene.slash("guess", alice, code="1122")
    screens["classic_first"] = scene.channel()
    codes = [c for c in ("3345", _wrong(secret, 1), _wrong(secret, 2)) if c != secret]
    for i, code in enumerate(codes):
        await scene.slash("guess", [bob, carol, alice][i % 3], code=code)
    await scene.slash("guess", bob, code=secret)
    screens["classic_won"] = scene.channel()
    return screens


async def big_board(scene: Scene) -> dict[str, list[dict]]:
    alice, bob, carol = scene.players
    start = await scene.slash("mastermind new", alice, pegs=8, colors=9, max_guesses=20)
    secret = scene.secret()
    codes = [c for c in (f"{a}{b}" * 4 for a in range(1, 10) for b in range(1, 10))
             if c != secret][:19]
    for i, code in enumerate(codes):
        await scene.slash("guess", scene.players[i % 3], code=code)
    last = await scene.slash("guess", carol, code=secret)
    del start, bob
    return {"board_8x9": [scene.payload(last.message)]}


async def challenge(scene: Scene) -> dict[str, list[dict]]:
    alice = scene.players[0]
    since = scene.fake.messages(scene.general)[-1].id if scene.fake.messages(scene.general) \
        else 0
    started = await scene.slash("challenge", alice)
    board = started.message
    secret = "3632"
    screens = {"challenge_start": [scene.payload(board)]}
    for _ in range(2):
        guess = _pending(scene.fake.message(board.id))
        fb = score(secret, guess)
        ids = [c for c in scene.fake.message(board.id).custom_ids
               if c.startswith("mmc:r:") and c.endswith(f":{fb.black}:{fb.white}")]
        await scene.click(scene.fake.message(board.id), ids[0], alice)
    screens["challenge_mid"] = [scene.payload(board)]
    big = await scene.slash("mastermind quit", alice)
    del big
    started = await scene.slash("challenge", alice, pegs=8, colors=9, max_guesses=20)
    screens["challenge_8x9"] = [scene.payload(started.message)]
    first = [c for c in started.message.custom_ids if c.startswith("mmc:b:")]
    if first:
        await scene.click(started.message, first[2], alice)
        screens["challenge_8x9_step"] = [scene.payload(started.message)]
    await scene.slash("mastermind quit", alice)
    screens["challenge_channel"] = scene.channel(since=since)
    return screens


def _pending(message) -> str:
    import re

    found = re.search(r"^#+ \S+ `(\d+)`", message.text, re.M)
    assert found, message.text
    return found[1]


async def leaderboard(scene: Scene) -> dict[str, list[dict]]:
    for round_ in range(4):
        for i, player in enumerate(scene.players):
            await scene.slash("mastermind new", player)
            secret = scene.secret()
            for k in range((i + round_) % 3):
                await scene.slash("guess", player, code=_wrong(secret, k))
            await scene.slash("guess", player, code=secret)
    names = ("dora", "eve", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj")
    for n, name in enumerate(names):
        player = scene.fake.member(scene.guild, scene.fake.user(name))
        scene.players.append(player)
        await scene.slash("mastermind new", player)
        secret = scene.secret()
        for k in range(n % 4 + 1):
            await scene.slash("guess", player, code=_wrong(secret, k))
        await scene.slash("guess", player, code=secret)
    board = await scene.slash("leaderboard", scene.players[1])
    screens = {"leaderboard": [scene.payload(board.message)]}
    paged = await scene.click(board.message, board.message.buttons[1]["custom_id"],
                              scene.players[2])
    screens["leaderboard_paged"] = [scene.payload(board.message), scene.payload(paged.message)]
    stats = await scene.slash("stats", scene.players[0], options={"user": None})
    helped = await scene.slash("mastermind help", scene.players[2])
    screens["stats"] = [scene.payload(stats.message)]
    screens["help"] = [scene.payload(helped.message)]
    return screens


def emoji_images(fake: FakeDiscord, out: Path, emoji_map: dict[str, str]) -> None:
    """The images of the application emoji ``fake`` holds, as uploaded (the renderer can't
    reach Discord's CDN): ``out/pegs/<name>.png``, and ``emoji_map`` id -> that path."""
    folder = out / "pegs"
    folder.mkdir(parents=True, exist_ok=True)
    for emoji in fake.state.app_emoji.emoji.values():
        path = folder / f"{emoji.name}.{emoji.kind}"
        path.write_bytes(emoji.image)
        emoji_map[str(emoji.id)] = path.name


def write_screens(out: Path, screens: dict[str, list[dict]], users: dict[str, str]) -> list[Path]:
    """One JSON file per screen (screens with no payload are skipped), plus users.json."""
    written = []
    for name, payloads in screens.items():
        if not payloads:
            continue
        path = out / f"{name}.json"
        path.write_text(json.dumps(payloads, ensure_ascii=False, indent=1))
        written.append(path)
    (out / "users.json").write_text(json.dumps(users))
    return written


async def dump(out: Path, plays) -> list[Path]:
    """Play each scene on a fresh bot and database; write what each screen showed."""
    out.mkdir(parents=True, exist_ok=True)
    screens: dict[str, list[dict]] = {}
    users: dict[str, str] = {}
    emoji_map: dict[str, str] = {}
    for play in plays:
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "ux.sqlite3"
            fake = FakeDiscord(clock=FakeClock(), timeout=60)
            async with fake:
                bot = MastermindBot(database=db)
                await fake.login(bot)
                scene = Scene(fake, bot, db)
                screens.update(await play(scene))
                users.update(scene.users())
                emoji_images(fake, out, emoji_map)
    (out / "pegs" / "map.json").write_text(json.dumps(emoji_map))
    return write_screens(out, screens, users)


def cli(main) -> None:
    """``SCRIPT OUT [--render]``: dump the payloads (``main(out)``), then draw them."""
    parser = argparse.ArgumentParser(description=(sys.modules["__main__"].__doc__ or "")
                                     .split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--render", action="store_true")
    args = parser.parse_args()
    discord.utils.setup_logging(level=40)
    files = asyncio.run(main(args.out))
    print("\n".join(map(str, files)))
    if args.render:
        render(files, args.out / "users.json", args.out / "pegs" / "map.json")


#: What the shared renderer draws differently from Discord in Components V2 text displays
#: (it keeps their line breaks only in embeds and content, and styles code spans only
#: there): added to each page, so a V2 board is measured and drawn as Discord shows it.
V2_TEXT_CSS = """<style>
.textdisplay { white-space: pre-line; line-height: 1.375rem; word-wrap: break-word; }
.textdisplay code.inline { font-family: 'DejaVu Sans Mono', Consolas, monospace; font-size: 85%;
  background: #1e1f22; border: 1px solid #1e1f22; border-radius: 3px; padding: 0 .2em;
  white-space: pre-wrap; line-height: 1.125rem; }
body.light .textdisplay code.inline { background: #e3e5e8; border-color: #e3e5e8; }
body.light .container { background: #f2f3f5; }
body.light .textdisplay { color: #313338; }
</style>"""

#: Draws screens in one browser: ``[(json, out prefix, light too?)]`` -> PNGs.
DRAW = """
import json, os, sys
sys.path.insert(0, sys.argv[1])
from render import render_page, Shooter
jobs, users, css = json.loads(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]
pegs = os.path.dirname(sys.argv[5])
custom = {k: os.path.join(pegs, v) for k, v in json.load(open(sys.argv[5])).items()}
with Shooter() as s:
    for source, prefix, light in jobs:
        page = render_page(json.load(open(source)), users=users, emoji="twemoji",
                           custom_emoji=custom)
        page = page.replace("</head>", css + "</head>", 1)
        s.shot(page, prefix + "_desktop.png", width=1000)
        s.shot(page, prefix + "_phone.png", width=400, scale=2)
        if light:
            s.shot(page, prefix + "_light_phone.png", width=400, scale=2, theme="light")
"""
LIGHT_TOO = ("classic_won", "board_8x9", "challenge_mid")


def render(paths: list[Path], users: Path, emoji_map: Path) -> None:
    """Desktop and phone in the dark theme; the boards also on a phone in the light one."""
    jobs = [(str(p), str(p.with_suffix("")), p.stem in LIGHT_TOO) for p in paths]
    subprocess.run([str(UX_PYTHON), "-c", DRAW, str(RENDERER.parent), json.dumps(jobs),
                    users.read_text(), V2_TEXT_CSS, str(emoji_map)], check=True)


if __name__ == "__main__":
    cli(lambda out: dump(out, (classic, big_board, challenge, leaderboard)))
