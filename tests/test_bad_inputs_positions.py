"""Bad position texts and the ``perft`` command (issue 40).

* One grammar, one validator: the Python reader (``engine/position.py``) and the core's
  (``core/src/position/read.rs``, then the same ``check_position``) accept exactly the
  same texts — a corpus of bad texts that each engine once read differently or crashed on,
  and a differential fuzz over mutations of real positions (``tests/data/perft.txt``).
* ``hansa-lab perft "<text>"`` refuses each bad text with exit 2 and one line, in every
  engine.
* ``perft`` estimates a deep count and refuses one that would take more than a day
  (``--yes`` starts it anyway); Ctrl-C and SIGTERM stop it (exit 130 / 143, one line),
  also inside the core's counting loop.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from tiers import size

from hansa_lab.compiled.bridge import CoreGame, core_from_text, core_to_text
from hansa_lab.engine.position import PositionError, from_text, to_text
from hansa_lab.engine.rules import legal_actions
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.golden import read_perft_file
from hansa_lab.tools import cli
from hansa_lab.tools.perft import estimate

SAVED = {p.name: p.text for p in read_perft_file(
    (Path(__file__).parent / "data" / "perft.txt").read_text("utf-8"))}
START3 = to_text(new_game(GameConfig(3, seed=0)))
TWO = SAVED["two_players_bigbox_seed21_step63_relocate_neutral"]
EMPEROR = SAVED["emperor3_after200"]
BRITANNIA = SAVED["britannia4_after200"]
HUGE = "9" * 5000


def field(text: str, name: str) -> str:
    return next(t for t in text.split(" ") if t.startswith(name + "=")).partition("=")[2]


def with_field(text: str, name: str, value: str) -> str:
    """``text`` with field ``name`` set to ``value``."""
    return " ".join(f"{name}={value}" if t.startswith(name + "=") else t
                    for t in text.split(" "))


# --------------------------------------------------------------------------- the corpus
#: (case, text): each is refused by both readers with a PositionError
BAD_TEXTS: list[tuple[str, str]] = [
    # the audit's disagreements
    ("relocate_neutral_in_a_3p_game", with_field(START3, "pending", "relocate_neutral:1:2:0:1")),
    ("relocate_neutral_nothing_in_hand_3p", with_field(START3, "pending",
                                                       "relocate_neutral:1:2:-1:1")),
    ("place_marker_with_nothing_drawn", with_field(START3, "pending", "place_marker:0")),
    ("empty_favour_display", with_field(START3, "favour_display", "")),
    ("empty_favour_display_emperor", with_field(EMPEROR, "favour_display", "")),
    ("seed_minus_zero", with_field(START3, "seed", "-0")),
    ("board_family_not_side", with_field(START3, "board", "base")),
    ("huge_seed", with_field(START3, "seed", HUGE)),
    ("huge_round", with_field(START3, "round", HUGE)),
    ("huge_prestige", with_field(START3, "prestige", "0,0," + HUGE)),
    ("huge_pending_value", with_field(START3, "pending", "move:0:" + HUGE)),
    ("huge_negative_special_points", with_field(START3, "special_points", "-" + HUGE)),
    # integers as the writer never writes them
    ("leading_zero", with_field(START3, "round", "01")),
    ("leading_zeros_seed", with_field(START3, "seed", "007")),
    ("plus_sign", with_field(START3, "turn", "+1")),
    ("active_minus_zero", with_field(START3, "active", "-0")),
    ("arabic_indic_digit", with_field(START3, "round", "\u0661")),
    # favour tiles
    ("favour_display_empty_name", with_field(
        EMPEROR, "favour_display", field(EMPEROR, "favour_display") + ",")),
    ("favours_empty_name", with_field(
        EMPEROR, "favours", field(EMPEROR, "favours").replace("/", ",,/", 1))),
    ("favour_income_without_the_module", with_field(START3, "pending", "favour_income:0")),
    # decisions the rules never leave pending
    ("relocate_five_extras", with_field(START3, "pending", "relocate:0:3:-1:5")),
    ("relocate_piece_two", with_field(START3, "pending", "relocate:0:3:2:0")),
    ("relocate_neutral_merchant", with_field(TWO, "pending", "relocate_neutral:1:4:1:1")),
    ("relocate_neutral_two_extras", with_field(TWO, "pending", "relocate_neutral:1:4:-1:2")),
    ("move_nothing_left", with_field(START3, "pending", "move:0:0")),
    ("move_more_than_the_book", with_field(START3, "pending", "move:0:9")),
    ("move_negative", with_field(START3, "pending", "move:0:-1")),
    ("move3_four", with_field(START3, "pending", "move3:0:4")),
    ("remove3_none_left", with_field(START3, "pending", "remove3:1:0")),
    ("permanent_three_uses", with_field(START3, "pending", "permanent:0:move2:3:0:0")),
    ("permanent_seven_traders", with_field(START3, "pending", "permanent:0:move2:1:7:0")),
    # positions the rules cannot reach (the invariants of from_state)
    ("pieces_not_conserved", with_field(START3, "supply_t", "5,6,8")),
    ("marker_not_conserved", with_field(START3, "bag", field(START3, "bag") + "x")),
    ("marker_drawn_twice", with_field(START3, "drawn", "x")),
    ("completed_miscounted", with_field(START3, "completed", "1")),
    ("decision_after_the_end", with_field(with_field(START3, "end_reason", "prestige"),
                                          "pending", "move:0:2")),
    ("east_west_twice", with_field(START3, "east_west", "0,0")),
    ("permit_on_the_base_board", with_field(START3, "permits_used", "0")),
    ("permit_used_twice", with_field(BRITANNIA, "permits_used", "0,0")),
    ("neutral_merchant_on_a_post", with_field(
        TWO, "posts", field(TWO, "posts").replace("2t", "2m", 1))),
    # syntax
    ("empty_text", ""),
    ("version_only", "hansa1"),
    ("wrong_version", START3.replace("hansa1", "hansa2", 1)),
    ("missing_last_field", START3.rsplit(" ", 1)[0]),
    ("extra_field", START3 + " extra=1"),
    ("repeated_field", START3.replace(" turn=1 ", " turn=1 turn=1 ")),
    ("line_break", START3.replace(" turn=", "\nturn=")),
    ("tab_separator", START3.replace(" turn=", "\tturn=")),
    ("trailing_no_break_space", START3 + "\u00a0"),
    ("trailing_unit_separator", START3 + "\x1f"),
    ("over_64_kib", with_field(START3, "options", '{"a":"' + "a" * 70_000 + '"}')),
    ("unknown_board", with_field(START3, "board", "moon")),
    ("six_players", with_field(START3, "players", "6")),
    ("unknown_edition", with_field(START3, "edition", "deluxe")),
    ("options_a_list", with_field(START3, "options", "[]")),
    ("options_unknown", with_field(START3, "options", '{"nope":1}')),
    ("options_nan", with_field(START3, "options", '{"control_points":NaN}')),
    ("neutral_pool_in_a_3p_game", with_field(START3, "neutral_pool", "3")),
    ("six_levels", with_field(START3, "levels", "000000/00000/00000")),
    ("unknown_decision", with_field(START3, "pending", "fly:0")),
]
IDS = [case for case, _ in BAD_TEXTS]


def test_the_corpus_texts_differ_from_real_positions():
    assert len(set(IDS)) == len(IDS)
    for case, text in BAD_TEXTS:  # each case changes something
        assert text not in (START3, TWO, EMPEROR, BRITANNIA), case


@pytest.mark.parametrize("text", [t for _, t in BAD_TEXTS], ids=IDS)
def test_both_readers_refuse_a_bad_text_with_a_position_error(text):
    with pytest.raises(PositionError, match="position text"):
        from_text(text)
    with pytest.raises(PositionError, match="position text"):
        core_from_text(text)


@pytest.mark.parametrize("engine", ["both", "python", "core"])
@pytest.mark.parametrize("text", [t for _, t in BAD_TEXTS], ids=IDS)
def test_perft_refuses_a_bad_text_with_one_line(text, engine, capsys):
    assert cli.main(["perft", text, "--engine", engine, "--depth", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hansa-lab perft: error: position text")


def test_a_pending_decision_names_the_field_and_column():
    text = with_field(START3, "pending", "relocate_neutral:1:2:0:1")
    column = text.index(" pending=") + len(" pending=") + 1
    for read in (from_text, core_from_text):
        with pytest.raises(PositionError, match=f"field 'pending' at column {column}: "
                                                "decision 'relocate_neutral:1:2:0:1' "
                                                ".*no neutral colour"):
            read(text)


def test_a_huge_integer_names_its_field():
    text = with_field(START3, "round", HUGE)
    for read in (from_text, core_from_text):
        with pytest.raises(PositionError, match=r"field 'round' .*\(5000 digits\)"):
            read(text)


def test_a_bad_line_of_a_file_names_the_file_and_line(tmp_path, capsys):
    path = tmp_path / "positions.txt"
    path.write_text(START3 + "\n" + with_field(START3, "seed", "-0") + "\n")
    assert cli.main(["perft", "--file", str(path), "--name", "line 2", "--depth", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"{path}: line 2: position text: field 'seed'" in err


@pytest.mark.parametrize("engine", ["python", "both"])
def test_the_installed_command_exits_2_without_a_traceback(engine):
    text = with_field(START3, "pending", "relocate_neutral:1:2:0:1")
    done = subprocess.run([sys.executable, "-m", "hansa_lab.tools.cli", "perft", text,
                           "--engine", engine], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert "no neutral colour" in done.stderr


# --------------------------------------------------------------------------- the fuzz
NUMBERS = ["-0", "0", "-1", "1", "2", "3", "4", "007", "99", "100", "-99", "+1", "",
           "9" * 19, "9" * 20, HUGE]
DECISIONS = ["relocate:0:3:0:0", "relocate:1:2:-1:2", "relocate_neutral:1:2:0:1",
             "relocate_neutral:0:4:-1:1", "place_marker:0", "place_marker:1", "move:0:3",
             "move:1:1", "move3:1:2", "remove3:0:3", "favour_income:0", "favour_income:2",
             "permanent:0:move2:1:0:0", "permanent:1:privilege:1:2:1", "relocate:0:3:5:0"]
ODD_VALUES = ["", "-", "0", "-0", ",", "/", "--", "x", "ww", "0,0", "1,,2", "-/-/-",
              "prestige", "relocate_anywhere", ".", "0t", "{}"]
CHARACTERS = "0123456789.,/-:tmxsrd34 =\t\u00a0\x1f{}\"é"


def _tokens(text: str) -> list[str]:
    return text.split(" ")


def _at_random_field(edit: Callable[[str, str, random.Random], str]) -> Callable[
        [str, random.Random], str]:
    """A mutation that rewrites the value of one field chosen at random."""
    def mutate(text: str, rng: random.Random) -> str:
        words = _tokens(text)
        if len(words) < 2:
            return text + rng.choice(CHARACTERS)
        k = rng.randrange(1, len(words))
        name, _, value = words[k].partition("=")
        words[k] = f"{name}={edit(name, value, rng)}"
        return " ".join(words)
    return mutate


def _number(name: str, value: str, rng: random.Random) -> str:
    found = list(re.finditer(r"-?\d+", value))
    if not found:
        return value
    m = rng.choice(found)
    return value[:m.start()] + rng.choice(NUMBERS) + value[m.end():]


def _character(how: str) -> Callable[[str, str, random.Random], str]:
    def edit(name: str, value: str, rng: random.Random) -> str:
        i = rng.randrange(len(value) + 1)
        if how == "insert":
            return value[:i] + rng.choice(CHARACTERS) + value[i:]
        if how == "delete":
            return value[:i] + value[i + 1:]
        return value[:i] + rng.choice(CHARACTERS) + value[i + 1:]
    return edit


def _delete_field(text: str, rng: random.Random) -> str:
    words = _tokens(text)
    del words[rng.randrange(len(words))]
    return " ".join(words)


def _duplicate_field(text: str, rng: random.Random) -> str:
    words = _tokens(text)
    k = rng.randrange(len(words))
    words.insert(k, words[k])
    return " ".join(words)


def _swap_fields(text: str, rng: random.Random) -> str:
    words = _tokens(text)
    i, j = rng.randrange(len(words)), rng.randrange(len(words))
    words[i], words[j] = words[j], words[i]
    return " ".join(words)


def _value_of_another_field(text: str, rng: random.Random) -> str:
    other = rng.choice([w.partition("=")[2] for w in _tokens(text)])
    return _at_random_field(lambda name, value, r: other)(text, rng)


def _set_named(names: list[str], values: list[str]) -> Callable[[str, random.Random], str]:
    def mutate(text: str, rng: random.Random) -> str:
        name = rng.choice(names)
        value = rng.choice(values)
        if name == "pending" and rng.random() < 0.3:
            value = value + "/" + rng.choice(values)
        words = _tokens(text)
        return " ".join(f"{name}={value}" if w.startswith(name + "=") else w for w in words)
    return mutate


def _truncate(text: str, rng: random.Random) -> str:
    return text[:rng.randrange(len(text) + 1)]


#: the mutations, by name (a disagreement names the one that made the text)
MUTATIONS: dict[str, Callable[[str, random.Random], str]] = {
    "number": _at_random_field(_number),
    "number_again": _at_random_field(_number),  # the commonest: twice the weight
    "empty_or_odd_value": _at_random_field(lambda n, v, rng: rng.choice(ODD_VALUES)),
    "insert_character": _at_random_field(_character("insert")),
    "delete_character": _at_random_field(_character("delete")),
    "replace_character": _at_random_field(_character("replace")),
    "delete_field": _delete_field,
    "duplicate_field": _duplicate_field,
    "swap_fields": _swap_fields,
    "value_of_another_field": _value_of_another_field,
    "pending_decision": _set_named(["pending"], DECISIONS),
    "marker_and_tile_fields": _set_named(
        ["drawn", "bag", "discarded", "favour_display", "favours", "east_west",
         "permits_used", "end_reason", "end_after_action", "special", "neutral_pool"],
        ODD_VALUES),
    "truncate": _truncate,
}


def _outcome(read: Callable[[str], object], text: str) -> tuple[str, object]:
    try:
        return "accepted", read(text)
    except PositionError as e:
        return "refused", str(e)
    except Exception as e:
        return "crashed", f"{type(e).__name__}: {e}"


def disagreement(text: str) -> str | None:
    """How the two readers disagree on ``text`` (None when they agree): one accepts and
    the other refuses, either crashes, or both accept and the states, their texts or
    their legal actions differ (or the rules crash on the state)."""
    py, core = _outcome(from_text, text), _outcome(core_from_text, text)
    if "crashed" in (py[0], core[0]) or py[0] != core[0]:
        return f"python {py[0]} ({str(py[1])[:200]}), core {core[0]} ({str(core[1])[:200]})"
    if py[0] == "refused":
        return None
    state, game = py[1], core[1]
    assert isinstance(game, CoreGame)
    if to_text(state) != core_to_text(game) or game.to_state() != state:
        return "both accepted, but the positions differ"
    try:
        same = legal_actions(state) == game.legal_actions()
    except Exception as e:
        return f"both accepted, the rules crash: {type(e).__name__}: {e}"
    return None if same else "both accepted, the legal actions differ"


def fuzz(n: int, seed: int) -> tuple[dict[str, int], list[str]]:
    """``n`` mutants of the saved positions (one or two mutations each): the count of
    each outcome and the disagreements found."""
    rng = random.Random(seed)
    bases = list(SAVED.values())
    names = list(MUTATIONS)
    tally = {"accepted": 0, "refused": 0}
    found = []
    for i in range(n):
        text, applied = rng.choice(bases), []
        for _ in range(1 + (rng.random() < 0.3)):
            name = rng.choice(names)
            text = MUTATIONS[name](text, rng)
            applied.append(name)
        why = disagreement(text)
        if why is not None:
            found.append(f"mutant {i} ({'+'.join(applied)}): {why}\n  {text[:2000]}")
        else:
            try:
                from_text(text)
                tally["accepted"] += 1
            except PositionError:
                tally["refused"] += 1
    return tally, found


#: mutants per run: the bounded tier's few seconds, the full tier's ~40,000
FUZZ_MUTANTS = size(full=40_000, bounded=3_000)


def test_the_readers_agree_on_mutations_of_real_positions():
    tally, found = fuzz(FUZZ_MUTANTS, seed=40)
    assert not found, f"{len(found)} disagreements of {FUZZ_MUTANTS}:\n" + "\n".join(found[:5])
    assert tally["accepted"] > FUZZ_MUTANTS // 50 and tally["refused"] > FUZZ_MUTANTS // 2


def test_the_fuzz_catches_a_reader_that_accepts_more(monkeypatch):
    """The checker itself: the Python reader without the validator (as before the fix)
    accepts a neutral relocation in a three-player game, which the core refuses."""
    from hansa_lab.engine import position

    text = with_field(START3, "pending", "relocate_neutral:1:2:0:1")
    assert disagreement(text) is None and disagreement(START3) is None
    monkeypatch.setattr(sys.modules[__name__], "from_text",
                        lambda t: position._parse(t, None))
    assert (disagreement(text) or "").startswith("python accepted")


# --------------------------------------------------------------------------- perft
def test_perft_refuses_a_count_that_would_take_years(capsys):
    start = time.perf_counter()
    assert cli.main(["perft", "--depth", "8"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert re.search(r"--depth: depth 8 would take about [\d,]+ (years|days) .*--yes", err)
    assert time.perf_counter() - start < 10


def test_the_estimate_is_near_the_count():
    state = new_game(GameConfig(3, seed=1))
    guess = estimate(state, 4, ("core",))
    assert 14_336_127 / 3 < guess.nodes < 14_336_127 * 3  # perft(4) of this start
    assert guess.seconds < 60


def test_a_small_depth_is_counted_without_asking(capsys):
    assert cli.main(["perft", "--depth", "4", "--engine", "core"]) == 0
    assert "14336127" in capsys.readouterr().out


def _start_perft(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "hansa_lab.tools.cli", "perft", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)


def _wait_for_row(proc: subprocess.Popen[str], depth: int) -> None:
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        assert line, f"perft ended early: {proc.communicate()}"
        if line.split()[:1] == [str(depth)]:
            return
    raise AssertionError("perft printed no row")


@pytest.mark.parametrize("engine,depth,sig,code,word", [
    # the core counts depth 5 for some 15 s inside Rust: only its signal check stops it
    ("core", 4, signal.SIGINT, 130, "interrupted"),
    ("python", 2, signal.SIGTERM, 143, "terminated (SIGTERM)"),
])
def test_perft_stops_on_a_signal_with_one_line(engine, depth, sig, code, word):
    proc = _start_perft("--engine", engine, "--depth", "6", "--yes")
    try:
        _wait_for_row(proc, depth)  # the next depth takes many seconds
        time.sleep(0.2)
        sent = time.monotonic()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=10)
        assert time.monotonic() - sent < 5
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == code
    assert err.splitlines() == [f"hansa-lab perft: {word}; the depths printed above are "
                                "complete"]
