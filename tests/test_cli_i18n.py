"""The terminal in the player's language: ``LANG``/``LC_ALL``/``LC_MESSAGES``/``LANGUAGE``
choose the catalog, whole scripted games read in German and Japanese, plurals follow the
locale, the words a player types work in English and in their language, and the game
played is the same in every language."""

from __future__ import annotations

import io
import re

import pytest

from cli.main import Progress, main
from cli.puzzle import level_name
from cli.render import Style
from cli.screen import fit_line
from cli.screen import fitted as fitted_stream
from cli.words import ENGLISH, columns, normal, typed
from engine import Feedback, InvalidCode, Rules, draw_secret, format_code, parse_code, score
from engine.puzzle import Level, generate
from i18n import SHIPPED, current_locale, speaking, tr, trc, trn

GERMAN = {"LANG": "de_DE.UTF-8"}
JAPANESE = {"LANG": "ja_JP.UTF-8"}
ENVIRONMENTS = {"de": GERMAN, "ja": JAPANESE}
#: A guess and its key pegs, as every language prints them: "  1  1122  ●○··".
ROW = re.compile(r"^ +\d+  \d+  [●○·]+", re.M)


def run(argv, lines, env):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO("".join(f"{line}\n" for line in lines)), stdout=out,
                stderr=err, env=env)
    return code, out.getvalue(), err.getvalue()


def said(locale, message, /, **values):
    with speaking(locale):
        return tr(message, **values)


def said_n(locale, singular, plural, count, /, **values):
    with speaking(locale):
        return trn(singular, plural, count, **values)


def word(locale, name):
    with speaking(locale):
        return typed(name)


# ---- a whole game ---------------------------------------------------------------------------
@pytest.mark.parametrize("locale", ["de", "ja"])
def test_a_scripted_play_game_reads_in_the_terminals_language_and_plays_the_same(locale):
    secret = format_code(draw_secret(Rules(), 42))
    lines = [word(locale, "help"), "1122", "12x4", "1122", word(locale, "board"), secret]
    code, text, _ = run(["play", "--seed", "42"], lines, ENVIRONMENTS[locale])
    _, english, _ = run(["play", "--seed", "42"], ["help", "1122", "12x4", "1122", "board",
                                                   secret], {"LANG": "C"})
    assert code == 0
    assert said(locale, "Guess {number}/{total}> ", number=1, total=10) in text
    assert said(locale, "Guess {number}/{total}> ", number=2, total=10) in text
    assert said(locale, "How to play") in text
    assert said(locale, "Type a guess like {example}; or {help}, {board}, {quit}.",
                example="1123", help=word(locale, "help"), board=word(locale, "board"),
                quit=word(locale, "quit")) in text
    assert said(locale, "Not a code:") in text
    assert said(locale, "You already tried {code} (guess {number}: {reply}); no guess used.",
                code="1122", number=1, reply=score(secret, "1122")) in text
    with speaking(locale):
        assert trc("board column", "reply") in text  # the board's heading
    assert said_n(locale, "You broke the code in {count} guess!",
                  "You broke the code in {count} guesses!", 2) in text
    assert "How to play" not in text and "You broke the code" not in text
    # The same moves, the same replies: only the words differ.
    assert ROW.findall(text) == ROW.findall(english) and len(ROW.findall(text)) == 3


@pytest.mark.parametrize("locale", ["de", "ja"])
def test_a_puzzle_reads_in_the_terminals_language(locale):
    puzzle = generate(Rules(), Level.MEDIUM, seed=7)
    code, text, _ = run(["puzzle", "--seed", "7"], [format_code(puzzle.answer)],
                        ENVIRONMENTS[locale])
    assert code == 0
    assert said(locale, "Exactly one code fits every clue below. Name it: you have one try.") \
        in text
    assert said(locale, "Your answer (like {example})> ", example="1123") in text
    assert said(locale, "Solved! That is the only code that fits every clue.") in text
    with speaking(locale):
        title = trn("{title}: {count} clue, {level} ({size})",
                    "{title}: {count} clues, {level} ({size})", len(puzzle.clues),
                    title=tr("Puzzle"), level=level_name(Level.MEDIUM),
                    size=tr("{pegs} pegs, {colors} colours", pegs=4, colors=6))
    assert title in text
    _, english, _ = run(["puzzle", "--seed", "7"], [format_code(puzzle.answer)], {})
    assert ROW.findall(text) == ROW.findall(english)
    assert len(ROW.findall(text)) == len(puzzle.clues)


@pytest.mark.parametrize("locale", ["de", "ja"])
def test_a_wrong_puzzle_answer_says_which_clue_in_the_terminals_language(locale):
    puzzle = generate(Rules(5, 8), Level.HARD, seed=3)
    wrong = format_code(puzzle.witnesses[-1])
    code, text, _ = run(["puzzle", "--seed", "3", "--pegs", "5", "--colors", "8", "--level",
                         "hard"], ["12x", wrong], ENVIRONMENTS[locale])
    assert code == 1
    assert said(locale, "Not it.") in text
    assert said(locale, "The answer was {code}.", code=format_code(puzzle.answer)) in text
    with speaking(locale), pytest.raises(InvalidCode) as typo:  # the engine's words too
        parse_code("12x", puzzle.rules)
    assert said(locale, "{not_a_code} {error} (your try is still yours)",
                not_a_code=said(locale, "Not a code:"), error=typo.value) in text


# ---- help ---------------------------------------------------------------------------------
def help_text(argv, env, capsys):
    """argparse prints --help on sys.stdout."""
    assert main(argv, env=env) == 0
    return capsys.readouterr().out


def test_the_help_speaks_german(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    text = help_text(["--help"], GERMAN, capsys)
    assert text.startswith(said("de", "usage: ") + "mastermind")
    for words in ("options", "commands", "show this help message and exit",
                  "break the computer's secret code",
                  "Run 'mastermind COMMAND --help' for the options of a command."):
        assert said("de", words) in text, words
    text = help_text(["play", "--help"], GERMAN, capsys)
    assert said("de", "pegs per code, 2-8 (default 4)") in text
    options = text.split(said("de", "options") + ":")
    assert len(options) == 2  # one heading for every option, -h first as before
    assert options[1].index("-h, --help") < options[1].index("--pegs")


def test_japanese_help_wraps_by_the_columns_it_takes(monkeypatch, capsys):
    """argparse counts characters and breaks only at spaces: a Japanese line would run
    past the terminal's edge."""
    monkeypatch.setenv("COLUMNS", "60")
    text = help_text(["play", "--help"], JAPANESE, capsys)
    body = text.split("\n\n", 1)[1]  # after the usage lines
    assert said("ja", "options") in body
    assert all(columns(line) <= 60 for line in body.splitlines()), body
    joined = "".join(line.strip() for line in body.splitlines())
    description = said("ja", "Guess the computer's secret code. Type '{help}' in the game for "
                       "the input formats.", help=word("ja", "help"))
    assert description.replace(" ", "") in joined.replace(" ", "")


def test_a_bad_argument_is_reported_in_the_terminals_language(capsys):
    code, _, err = run(["play", "--pegs", "9"], [], GERMAN)
    assert code == 2
    assert err.startswith(said("de", "{prog}: error: {message}", prog="mastermind",
                               message=""))
    main(["play", "--pegs", "x"], env=GERMAN)
    err = capsys.readouterr().err
    assert said("de", "usage: ") in err and said("de", "{prog}: error: {message}",
                                                   prog="mastermind play", message="") in err


# ---- plurals ------------------------------------------------------------------------------
def test_russian_counts_guesses_with_its_three_forms():
    secret = format_code(draw_secret(Rules(), 5))
    misses = [c for c in ("1111", "2222", "3333", "4444", "5555", "6666") if c != secret]
    wins = {}
    for count in (1, 2, 5):
        _, text, _ = run(["play", "--seed", "5"], [*misses[:count - 1], secret],
                         {"LC_ALL": "ru_RU.UTF-8"})
        wins[count] = said_n("ru", "You broke the code in {count} guess!",
                             "You broke the code in {count} guesses!", count)
        assert wins[count] in text
    assert [w.split()[-1] for w in wins.values()] == ["попытку!", "попытки!", "попыток!"]


# ---- which language ----------------------------------------------------------------------
@pytest.mark.parametrize("env", [{"LANG": "C"}, {"LC_ALL": "POSIX", "LANG": "de_DE.UTF-8"},
                                 {"LANG": "xx_YY.UTF-8"}, {"LANGUAGE": "eo", "LANG": "C.UTF-8"},
                                 {}])
def test_c_posix_and_unknown_locales_speak_english(env):
    secret = format_code(draw_secret(Rules(), 42))
    code, text, _ = run(["play", "--seed", "42"], ["1111", secret], env)
    assert code == 0
    assert "Guess 1/10> 1111" in text
    assert "You broke the code in 2 guesses!" in text


def test_lc_messages_outranks_lang_and_a_run_leaves_no_language_behind():
    _, text, _ = run(["play", "--seed", "1"], [], {"LANG": "de_DE.UTF-8",
                                                  "LC_MESSAGES": "ja_JP.UTF-8"})
    assert said("ja", "Mastermind: break my code.") in text
    assert current_locale() is None


# ---- the words a player types -------------------------------------------------------------
def test_german_players_quit_in_german_or_in_english():
    for quit_word in (word("de", "quit"), "quit", "Q"):
        code, text, _ = run(["play", "--seed", "42"], ["1122", quit_word], GERMAN)
        assert code == 0
        assert said("de", "You gave up. The code was {code}.",
                    code=format_code(draw_secret(Rules(), 42))) in text


def test_the_crack_words_work_in_german_with_or_without_accents():
    lines = ["1 0", word("de", "undo"), "1 0", "zuruck", word("de", "board"),
             word("de", "quit")]
    code, text, _ = run(["crack", "--strategy", "knuth"], lines, GERMAN)
    assert code == 0
    took_back = said_n("de", "Took back your reply to guess {guess} ({code}: {reply}); {number} "
                       "code possible again.", "Took back your reply to guess {guess} ({code}: "
                       "{reply}); {number} codes possible again.", 1296, guess=1, code="1122",
                       reply=Feedback(1, 0), number="1.296")
    assert text.count(took_back) == 2  # German numbers: 1.296, not 1,296
    assert said("de", "Bye! Your code stays a secret.") in text


def test_a_german_match_forfeits_on_ja():
    code, text, _ = run(["match", "--seed", "1", "--rounds", "1"],
                        ["1122", word("de", "quit"), "nein", word("de", "quit"),
                         word("de", "yes")], GERMAN)
    assert code == 0
    prompt = said("de", "Forfeit the match? ({yes}/{no})> ", yes="ja", no="nein")
    assert text.count(prompt) == 2
    assert said("de", "Not quitting: carry on.") in text
    assert said("de", "You quit, so you forfeit the match.") in text


@pytest.mark.parametrize("locale", SHIPPED)
def test_each_languages_typed_words_are_distinct_and_never_a_code(locale):
    """The words typed where a code is also typed must never read as one (French "non"
    would be brown-orange-brown: yes and no are only asked for on their own)."""
    names = ("help", "board", "quit", "undo", "reveal", "yes", "no")
    words = {name: normal(word(locale, name)) for name in names}
    assert len(set(words.values())) == len(names), words
    for name, text in words.items():
        assert text and " " not in text, (name, text)
        for other, english in ENGLISH.items():  # a word never means another command
            assert other == name or text not in english, (name, text, other)
        for pegs in range(2, 9):
            if name not in ("yes", "no"):
                with pytest.raises(InvalidCode):
                    parse_code(text, Rules(pegs, 9))


# ---- numbers and columns ------------------------------------------------------------------
def test_progress_counts_the_way_the_reader_writes_numbers():
    stream = io.StringIO()
    clock = iter([0.0, 10.0])
    with speaking("de"):
        progress = Progress(stream, "x", delay=0, interval=0, clock=lambda: next(clock))
        progress(1296, 1296)
        expected = tr("{label}: {done}/{total} codes ({percent}%)", label="x", done="1.296",
                      total="1.296", percent="100")
    assert stream.getvalue() == expected + "\n"


def test_the_japanese_analysis_fits_100_columns():
    secret = format_code(draw_secret(Rules(8, 9), 3))
    code, text, _ = run(["play", "--pegs", "8", "--colors", "9", "--seed", "3", "--analyse"],
                        ["11223344", "55667788", "12345678", "98765432",
                         word("ja", "quit")], JAPANESE)
    assert code == 0 and secret in text
    body = text.split(said("ja", "Analysis") + "\n", 1)[1].splitlines()
    assert body and all(columns(line) <= 100 for line in body), body
    assert any(said("ja", "Codes left per guess, you:") in line for line in body)


# ---- lines that fit the window -------------------------------------------------------------
def test_a_terminal_breaks_long_lines_between_words_under_their_indentation():
    """German runs a third longer than English: on a terminal a line wider than the window
    is broken between words, never inside a word or a coloured peg."""
    style = Style(colour=True)
    pegs = style.code((1, 2, 3, 4, 5, 6, 7, 8))
    line = "  Du hast 10 Versuche. Ein Tippfehler oder ein schon probierter Code " + pegs
    fitted = fit_line(line, 40)
    assert all(columns(part) <= 40 for part in fitted)
    assert all(part.startswith("  ") and not part.startswith("   ") for part in fitted)
    assert " ".join(part.strip() for part in fitted) == line.strip()
    for part in fitted:  # every coloured span that opens on a line closes on it
        assert part.count("\x1b[0m") == len(re.findall(r"\x1b\[(?!0m)[0-9;]*m", part))


def test_japanese_breaks_between_characters_and_a_pipe_gets_lines_as_they_are(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    line = said("ja", "Exactly one code fits every clue below. Name it: you have one try.")
    fitted = fit_line(line, 30)
    assert len(fitted) > 1 and all(columns(part) <= 30 for part in fitted)
    assert "".join(fitted) == line
    pipe = io.StringIO()
    assert fitted_stream(pipe) is pipe

    class Window(io.StringIO):
        def isatty(self):
            return True

    window = Window()
    screen = fitted_stream(window)
    screen.write(line * 3 + "\n")
    screen.flush()
    assert all(columns(part) <= 100 for part in window.getvalue().splitlines())
