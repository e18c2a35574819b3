"""A picker's whole state, carried in its buttons' custom_ids: no memory, no database.

``mmp:<purpose>:<owner>:<target>:<rules>:<code>:<op>``, e.g. ``mmp:g:42:7:46r:12:3`` is
player 42's guess for game 7 (4 pegs, 6 colours, repeats on), 1 2 picked, this button adds
colour 3. ``owner`` 0 is a board's open button (whoever clicks gets a picker of their own);
``target`` is the purpose's own (a game id, a day, a match and half-round, ...); ``rules``
is empty on an open button (read when it opens). A tap is a pure function of its id, so a
picker drawn before a restart works as well after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from engine import Code, Rules

PREFIX = "mmp"
#: Longest target a purpose may use: the whole id then stays well inside Discord's 100.
TARGET_MAX = 40
_ID = re.compile(
    rf"(?P<purpose>[a-z]{{1,3}}):(?P<owner>\d{{1,20}}):(?P<target>[0-9a-z.\-]{{0,{TARGET_MAX}}}):"
    r"(?P<rules>(?:[2-8][2-9][ru])?):(?P<code>[1-9]{0,8}):(?P<op>[1-9]|[a-z])")


class Op(StrEnum):
    OPEN = "o"  # a board's button: open a picker for the clicker
    DELETE = "x"  # take back the last peg
    SUBMIT = "s"
    TYPE = "t"  # type the code in a form instead


@dataclass(frozen=True)
class Picker:
    """Who picks, for what, under which rules, and the pegs picked so far."""

    purpose: str
    owner: int
    target: str
    pegs: int = 0  # 0: not known yet (an open button)
    colors: int = 0
    repeats: bool = True
    code: Code = ()

    @classmethod
    def for_rules(cls, purpose: str, owner: int, target: str, rules: Rules) -> Picker:
        return cls(purpose, owner, target, rules.pegs, rules.colors, rules.repeats)

    @property
    def complete(self) -> bool:
        return self.pegs > 0 and len(self.code) == self.pegs

    @property
    def missing(self) -> int:
        return self.pegs - len(self.code)

    @property
    def digits(self) -> str:
        """The code so far as typed: ``"12"``."""
        return "".join(map(str, self.code))

    def allowed(self, digit: int) -> bool:
        """May ``digit`` be the next peg? (room left, in range, no repeat when they're off)"""
        return (not self.complete and 1 <= digit <= self.colors
                and (self.repeats or digit not in self.code))

    def plus(self, digit: int) -> Picker:
        return replace(self, code=(*self.code, digit))

    def minus(self) -> Picker:
        return replace(self, code=self.code[:-1])

    def cleared(self) -> Picker:
        return replace(self, code=())

    def custom_id(self, op: Op | int) -> str:
        rules = f"{self.pegs}{self.colors}{'r' if self.repeats else 'u'}" if self.pegs else ""
        op_text = str(op.value if isinstance(op, Op) else op)
        return ":".join((PREFIX, self.purpose, str(self.owner), self.target, rules,
                         self.digits, op_text))


@dataclass(frozen=True)
class Tap:
    """One button of a picker, read back from its custom_id."""

    picker: Picker
    op: Op | int  # an Op, or the colour (1-9) this button adds


def read_tap(body: str, max_id: int) -> Tap | None:
    """The tap a custom_id (after ``mmp:``) stands for; None when it can't be read (another
    version's, or forged): the caller says the button is out of date."""
    found = _ID.fullmatch(body)
    if found is None or int(found["owner"]) > max_id:
        return None
    op_text, rules = found["op"], found["rules"]
    op: Op | int
    if op_text.isdigit():
        op = int(op_text)
    elif op_text in Op._value2member_map_:
        op = Op(op_text)
    else:
        return None
    if not rules and op is not Op.OPEN:
        return None  # only an open button leaves the rules to be read
    pegs, colors = (int(rules[0]), int(rules[1])) if rules else (0, 0)
    code = tuple(int(d) for d in found["code"])
    if len(code) > pegs or any(d > colors for d in (*code, op if isinstance(op, int) else 0)
                               ) or (rules[2:] == "u" and colors < pegs):
        return None  # pegs or colours the rules don't have, or rules no game can have
    picker = Picker(found["purpose"], int(found["owner"]), found["target"], pegs, colors,
                    rules[2:] != "u", code)
    return Tap(picker, op)
