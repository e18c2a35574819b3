"""The Mastermind engine: rules, codes, scoring and code-breaking strategies.

Pure Python and NumPy: no Discord, no asyncio, no I/O. The bot and the terminal game
both build on it.
"""

from . import memory
from .codes import (
    Code,
    as_code,
    code_from_digits,
    draw_secret,
    example,
    format_code,
    format_emoji,
    format_letters,
    parse_code,
)
from .colors import PALETTE, PegColor
from .errors import (
    InconsistentFeedback,
    InvalidCode,
    InvalidFeedback,
    InvalidRules,
    MastermindError,
    UnknownStrategy,
)
from .evaluate import Evaluation, evaluate
from .rules import CLASSIC, Rules
from .scoring import Feedback, possible_feedbacks, score, score_codes, validate_feedback
from .solver import Mistake, SolverSession, Turn
from .strategies import DEFAULT_STRATEGY, STRATEGIES, Budget, Strategy, get_strategy
from .strongest import strongest_strategy

__all__ = [
    "CLASSIC",
    "DEFAULT_STRATEGY",
    "PALETTE",
    "STRATEGIES",
    "Budget",
    "Code",
    "Evaluation",
    "Feedback",
    "InconsistentFeedback",
    "InvalidCode",
    "InvalidFeedback",
    "InvalidRules",
    "MastermindError",
    "Mistake",
    "PegColor",
    "Rules",
    "SolverSession",
    "Strategy",
    "Turn",
    "UnknownStrategy",
    "as_code",
    "code_from_digits",
    "draw_secret",
    "evaluate",
    "example",
    "format_code",
    "format_emoji",
    "format_letters",
    "get_strategy",
    "memory",
    "parse_code",
    "possible_feedbacks",
    "score",
    "score_codes",
    "strongest_strategy",
    "validate_feedback",
]
