"""Every board stays within Discord's limits at every size the bot plays: 2-8 pegs, 2-9
colours, with and without repeats, up to 20 rows, checked with the fake Discord's own rules
(tests/fake_discord/limits.py: what Discord refuses with 50035). The flows through real
dispatch at 2x2, 4x6 and 8x9 are in test_bot_board and test_bot_challenge; here every size
and every state a board can be in, rendered as the bot sends it."""

from __future__ import annotations

import itertools

import pytest
from fake_discord.limits import FLAG_COMPONENTS_V2, check_message

from bot.core.enums import DailyStatus, GameKind, GameStatus
from bot.core.records import DailyPlay, GameRecord, GuessRecord, ReplyRecord
from bot.features.analysis.buttons import analyse_view
from bot.features.breaker.buttons import play_again_view
from bot.features.breaker.render import board_embed, share_grid
from bot.features.challenge.render import challenge_board, two_step
from bot.features.challenge.service import ChallengeState
from bot.features.daily.render import share_text
from bot.ui.pegs import SHARE_ROWS, share_rows
from engine import Feedback, Mistake, Rules, possible_feedbacks, score
from engine.rules import MAX_COLORS, MAX_GUESSES, MAX_PEGS, MIN_COLORS, MIN_PEGS

SIZES = [Rules(p, c, MAX_GUESSES, r)
         for p, c, r in itertools.product(range(MIN_PEGS, MAX_PEGS + 1),
                                          range(MIN_COLORS, MAX_COLORS + 1), (True, False))
         if r or c >= p]
#: The longest name Discord allows (32), markdown and a mention in it: cut, then escaped.
NAME = "**@everyone** <@1> _x_" + "\N{PILE OF POO}" * 10


def _id(rules: Rules) -> str:
    return f"{rules.pegs}x{rules.colors}{'' if rules.repeats else 'n'}"


def _code(rules: Rules, n: int) -> tuple[int, ...]:
    """The ``n``-th code of these rules (any valid one)."""
    digits = range(1, rules.colors + 1)
    codes = itertools.product(digits, repeat=rules.pegs) if rules.repeats else \
        itertools.permutations(digits, rules.pegs)
    return next(itertools.islice(itertools.cycle(codes), n, None))


def _widest_guess(rules: Rules) -> tuple[int, ...]:
    """A guess with as many possible replies as any: the most reply buttons."""
    return max((_code(rules, n) for n in range(0, 400, 7)),
               key=lambda g: len(possible_feedbacks(rules, g)))


def _fits(payload: dict) -> None:
    errors = check_message(payload, creating=True)
    assert errors == [], errors


def _v2(view) -> dict:
    return {"components": view.to_components(), "flags": FLAG_COMPONENTS_V2}


def _challenge(rules: Rules, status: GameStatus, replies: int, **changes) -> GameRecord:
    secret = _code(rules, 5)
    rows = tuple(ReplyRecord(i, i, _code(rules, 3 * i), score(secret, _code(rules, 3 * i)),
                             1, 0.0) for i in range(1, replies + 1))
    fields = {"secret": None, **changes}
    return GameRecord(id=2**63 - 1, guild_id=1, channel_id=1, kind=GameKind.CHALLENGE,
                      rules=rules, status=status, started_by=2**63 - 1,
                      winner_id=None, created_at=0.0, updated_at=0.0, ended_at=None,
                      board_message_id=None, strategy="optimal", replies=rows, **fields)


@pytest.mark.parametrize("rules", SIZES, ids=_id)
def test_every_challenge_board_fits(rules: Rules) -> None:
    note = "The previous game here (#9223372036854775807) had no move for too long" * 3
    last = rules.max_guesses - 1
    playing = _challenge(rules, GameStatus.ACTIVE, last, pending_guess=_widest_guess(rules),
                         codes_left=43_046_721)
    state = ChallengeState(playing)
    _fits(_v2(challenge_board(state, note=note)))
    if two_step(state):
        for black in sorted({f.black for f in possible_feedbacks(rules, state.pending)}):
            _fits(_v2(challenge_board(state, black=black, note=note)))
    _fits(_v2(challenge_board(ChallengeState(_challenge(rules, GameStatus.ACTIVE, last,
                                                        codes_left=0)))))
    for status in (GameStatus.WON, GameStatus.LOST, GameStatus.QUIT):
        ended = _challenge(rules, status, rules.max_guesses, secret=_code(rules, 5))
        mistakes = tuple(Mistake(r.turn, r.guess, r.feedback, Feedback(0, 0))
                         for r in ended.replies) if status is GameStatus.QUIT else None
        _fits(_v2(challenge_board(ChallengeState(ended, mistakes=mistakes), note=note)))


@pytest.mark.parametrize("rules", SIZES, ids=_id)
def test_every_breaker_board_fits(rules: Rules) -> None:
    secret = _code(rules, 5)

    def game(status: GameStatus, guesses: int) -> GameRecord:
        rows = tuple(GuessRecord(i, 1000 + i % 3, _code(rules, 3 * i),
                                 score(secret, _code(rules, 3 * i)), 0.0)
                     for i in range(1, guesses + 1))
        return GameRecord(id=2**63 - 1, guild_id=1, channel_id=1, kind=GameKind.BREAKER,
                          rules=rules, secret=secret, status=status, started_by=1,
                          winner_id=1001, created_at=0.0, updated_at=0.0, ended_at=None,
                          board_message_id=None, setter_id=1, hints=3, guesses=rows)

    names = {1000 + k: NAME for k in range(3)}
    for board in (game(GameStatus.ACTIVE, 0), game(GameStatus.ACTIVE, rules.max_guesses - 1),
                  game(GameStatus.WON, rules.max_guesses),
                  game(GameStatus.LOST, rules.max_guesses)):
        view = play_again_view(board, analyse_view(board))
        payload = {"embeds": [board_embed(board, note="note " * 100, names=names).to_dict()]}
        if view is not None:
            payload["components"] = view.to_components()
        _fits(payload)
    grid = share_grid(game(GameStatus.LOST, rules.max_guesses)).splitlines()
    assert len(grid) == 1 + SHARE_ROWS  # the header, then ten lines: 20 guesses folded


def test_a_share_grid_folds_past_ten_guesses_and_keeps_the_ending() -> None:
    hits = [Feedback(0, k % 3) for k in range(19)] + [Feedback(4, 0)]
    for n in range(1, 21):
        rows = share_rows(hits[-n:], 4)
        assert len(rows) == min(n, SHARE_ROWS)
        assert rows[-1] == share_rows([Feedback(4, 0)], 4)[0]  # the winning row shows
    folded = share_rows(hits, 4)
    assert folded[4] == "\N{VERTICAL ELLIPSIS} 11 more"  # 4 first, the fold, 5 last
    assert folded[:4] == share_rows(hits[:4], 4) and folded[5:] == share_rows(hits[-5:], 4)


def test_the_daily_share_fits_a_message() -> None:
    from bot.features.daily.service import DAILY_RULES

    guesses = tuple(GuessRecord(i, 1, _code(DAILY_RULES, i), Feedback(1, 2), 0.0)
                    for i in range(1, DAILY_RULES.max_guesses + 1))
    play = DailyPlay(day="2025-01-01", user_id=1, guild_id=1, status=DailyStatus.LOST,
                     started_at=0.0, ended_at=1.0, guesses=guesses)
    text = share_text(play, 2**63 - 1)
    _fits({"content": text})
    assert len(text.splitlines()) <= 1 + SHARE_ROWS
