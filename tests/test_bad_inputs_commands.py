"""Bad inputs to the newer commands — ``tune``, ``ladder``, ``lengths``, ``report``, ``run``
with experiment and sweep files, and the output paths of every command — each refused
before any game is played, with exit status 2, a message naming the flag, field or file
that was wrong, and no traceback (issue 23, items 4-6 and 8). Every case runs the command
line in this process through :func:`hansa_lab.tools.cli.main`.

``HANSA_LAB_CORPUS_REPORT=<file>`` collects one JSON line per case (for the closing note).
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from run_helpers import forbid_games, run_cli

from hansa_lab.studies import tune

LONG = "n" * 300  # longer than any file system's name limit


@pytest.fixture(autouse=True)
def no_games(monkeypatch, tmp_path):
    """No bad input may get as far as playing a game; everything happens in tmp_path,
    which holds a file ``f``, a folder ``d`` and a folder ``ro`` no one can write in."""
    forbid_games(monkeypatch)
    monkeypatch.setattr(tune, "_run", lambda *a, **k: pytest.fail("a tuning game was played"))
    monkeypatch.chdir(tmp_path)
    Path("f").write_text("a file")
    Path("d").mkdir()


def _fails(kind: str, argv: list[str], words: list[str], capsys) -> str:
    """``argv`` exits 2 with every one of ``words`` in its message and no traceback."""
    code, err = run_cli(kind, argv, capsys)
    assert code == 2, (argv, err)
    assert "Traceback" not in err, (argv, err)
    for w in words:
        assert w in err, (argv, w, err)
    return err


# ---------------------------------------------------------------------------- tune

TUNE = [  # (arguments, words of the message)
    (["--jobs", "0"], ["--jobs", "non-zero", "got 0"]),
    (["--jobs", "x"], ["--jobs", "'x'"]),
    (["--players", "0"], ["--players", ">= 2", "got 0"]),
    (["--players", "6"], ["--players", "at most 5"]),
    (["--population", "1"], ["--population", ">= 2"]),
    (["--population", "x"], ["--population"]),
    (["--generations", "0"], ["--generations", ">= 1"]),
    (["--games", "0"], ["--games", ">= 1"]),
    (["--games", "-4"], ["--games", ">= 1"]),
    (["--heldout-games", "0"], ["--heldout-games", ">= 1"]),
    (["--sigma0", "0"], ["--sigma0", "(0, 1]"]),
    (["--sigma0", "nan"], ["--sigma0", "nan"]),
    (["--sigma0", "2"], ["--sigma0", "(0, 1]"]),
    (["--sigma0", "-inf"], ["--sigma0"]),
    (["--bound", "x"], ["--bound", "NAME=LOW:HIGH", "'x'"]),
    (["--bound", "route=1"], ["--bound", "'route=1'"]),
    (["--bound", "route=a:b"], ["--bound"]),
    (["--base", "nope"], ["--base", "unknown strategy 'nope'"]),
    (["--base", "missing.toml"], ["--base", "missing.toml"]),
    (["--params", "nope"], ["--params", "no parameter 'nope'"]),
    (["--params", ","], ["--params", "at least one"]),
    (["--opponents", "nope"], ["--opponents", "'nope'"]),
    (["--fitness", "x"], ["--fitness", "'x'"]),
    (["--name", "a b"], ["--name", "'a b'"]),
    (["--name", "x.toml"], ["--name"]),
    (["--seed", "-1"], ["--seed", ">= 0"]),
    (["--seed", str(2**64)], ["--seed", "at most"]),
    (["--board", "moon"], ["--board", "'moon'"]),
    (["--edition", "x"], ["--edition", "'x'"]),
    (["--option", "speed=3"], ["--option", "speed"]),
    (["--option", "nonsense"], ["--option", "KEY=VALUE"]),
    # paths: refused before the first generation, nothing written
    (["--state", "f"], ["--state", "f is a file, not a folder"]),
    (["--state", "f/sub"], ["--state", "is a file"]),
    (["--state", "/proc/hansa-lab-state"], ["--state", "not writable"]),
    (["--state", LONG], ["--state", "300 bytes long"]),
    (["--state", "st", "--out", "d"], ["--out", "is a folder; give the file to write"]),
    (["--state", "st", "--out", "."], ["--out", "is a folder"]),
    (["--state", "st", "--out", "new/"], ["--out", "is a folder"]),
    (["--state", "st", "--out", "f/x.toml"], ["--out", "f is a file"]),
    (["--state", "st", "--out", "/proc/hansa-lab/x.toml"], ["--out", "not writable"]),
    (["--state", "st", "--out", f"{LONG}.toml"], ["--out", "bytes long"]),
    (["--state", "d", "--name", "x", "--out", ""], ["--out", "must be a path"]),
]


@pytest.mark.parametrize(("extra", "words"), TUNE, ids=[" ".join(c[0])[:60] for c in TUNE])
def test_tune_arguments(extra, words, capsys):
    _fails("tune", ["tune", "--players", "2", "--no-progress", *extra], words, capsys)
    assert not list(Path().rglob("checkpoint.pkl")) and not list(Path().rglob("*.tmp"))


def _checkpoint(state: Path, payload: bytes) -> None:
    state.mkdir(parents=True, exist_ok=True)
    (state / "checkpoint.pkl").write_bytes(payload)


class Foreign:
    """A class the unpickler cannot find later (it is removed below)."""


def _foreign() -> bytes:
    global Foreign
    data = pickle.dumps(Foreign())
    return data


CHECKPOINTS = [  # (what checkpoint.pkl holds, words of the message)
    ("empty", b"", ["empty or cut short"]),
    ("garbage", b"not a pickle at all", ["not a readable checkpoint"]),
    ("truncated", pickle.dumps({"format": 1, "log": list(range(100))})[:20],
     ["checkpoint"]),
    ("a list", pickle.dumps([1, 2, 3]), ["not a tune checkpoint", "'list'"]),
    ("another program's dict", pickle.dumps({"weights": [1.0]}), ["not a tune checkpoint"]),
    ("an older format", pickle.dumps({"format": -1}), ["not a tune checkpoint", "-1"]),
    ("no settings", "no settings", ["has no settings"]),
    ("a bad generation", "generation", ["no valid generation count"]),
    ("a log that disagrees", "log", ["does not match its generation count"]),
    ("no optimiser", "es", ["has no optimiser state"]),
    ("a broken optimiser", "es-broken", ["optimiser state that does not load"]),
    ("a foreign optimiser", "es-foreign", ["not a CMA-ES optimiser"]),
    ("a folder", "folder", ["cannot be read"]),
]


def _valid() -> dict[str, Any]:
    return {"format": tune.FORMAT, "settings": {}, "generation": 1, "log": [{}],
            "es": pickle.dumps(tune._new_optimizer(tune.TuneSettings(players=2),
                                                   tune.search_space("greedy", ("route",),
                                                                     ()))),
            "heldout": None}


@pytest.mark.parametrize(("what", "payload", "words"), CHECKPOINTS,
                         ids=[c[0] for c in CHECKPOINTS])
def test_a_bad_checkpoint_is_refused_by_name(what, payload, words, capsys):
    state = Path("st")
    if isinstance(payload, bytes):
        _checkpoint(state, payload)
    elif payload == "folder":
        (state / "checkpoint.pkl").mkdir(parents=True)
    else:
        data = _valid()
        if payload == "no settings":
            del data["settings"]
        elif payload == "generation":
            data["generation"] = -2
        elif payload == "log":
            data["log"] = []
        elif payload == "es":
            data["es"] = None
        elif payload == "es-broken":
            data["es"] = b"\x80\x04junk"
        elif payload == "es-foreign":
            data["es"] = pickle.dumps({"not": "cma"})
        _checkpoint(state, pickle.dumps(data))
    before = sorted(p.name for p in state.iterdir())
    _fails("tune-checkpoint", ["tune", "--players", "2", "--params", "route", "--state",
                               str(state), "--no-progress"],
           ["--state", "checkpoint.pkl", *words], capsys)
    assert sorted(p.name for p in state.iterdir()) == before  # nothing overwritten


# ---------------------------------------------------------------------------- ladder

LADDER = [
    (["--players", "0"], ["--players", ">= 2", "got 0"]),
    (["--players", "1"], ["--players", ">= 2"]),
    (["--players", "6"], ["--players", "at most 5"]),
    (["--players", "-2"], ["--players"]),
    (["--players", "x"], ["--players", "'x'"]),
    (["--deals", "0"], ["--deals", ">= 1"]),
    (["--deals", "x"], ["--deals"]),
    (["--tables", "0"], ["--tables", ">= 1"]),
    (["--tables", "-1"], ["--tables"]),
    (["--jobs", "0"], ["--jobs", "non-zero"]),
    (["--jobs", "1.5"], ["--jobs"]),
    (["--seed", "-1"], ["--seed", ">= 0"]),
    (["--seed", str(2**63)], ["--seed", "at most"]),
    (["--board", "moon"], ["--board", "'moon'"]),
    (["--edition", "x"], ["--edition", "'x'"]),
    (["--strategies", ""], ["--strategies", "at least one strategy"]),
    (["--strategies", ",,"], ["--strategies", "at least one strategy"]),
    (["--strategies", "random,random,random"], ["--strategies", "at least 4 distinct"]),
    (["--strategies", "random,greedy,nope,blocker"], ["--strategies", "'nope'"]),
    (["--strategies", "random,greedy:depth=9,blocker,bank"], ["depth"]),
    (["--engine", "gpu"], ["--engine", "'gpu'"]),
    (["--backend", "spark"], ["--backend"]),
    (["--decision-time-limit", "-1"], ["--decision-time-limit"]),
    (["--out", "f"], ["--out", "f is a file, not a folder"]),
    (["--out", "f/x"], ["--out", "f is a file"]),
    (["--out", "/proc/hansa-lab-ladder"], ["--out", "not writable"]),
    (["--out", LONG], ["--out", "300 bytes long"]),
    (["--out", "d/" + LONG + "/x"], ["--out", "300 bytes long"]),
    (["--out", ""], ["--out", "must be a path"]),
]


@pytest.mark.parametrize(("extra", "words"), LADDER, ids=[" ".join(c[0])[:60] for c in LADDER])
def test_ladder_arguments(extra, words, capsys):
    _fails("ladder", ["ladder", "--no-progress", *extra], words, capsys)
    assert not list(Path().rglob("manifest.json"))


# ---------------------------------------------------------------------------- lengths

LENGTHS = [
    (["--games", "0"], ["--games", ">= 1"]),
    (["--games", "x"], ["--games", "'x'"]),
    (["--limit", "0"], ["--limit", ">= 1"]),
    (["--limit", "-5"], ["--limit"]),
    (["--limit", "1.5"], ["--limit"]),
    (["--jobs", "0"], ["--jobs", "non-zero"]),
    (["--seed", "-1"], ["--seed", ">= 0"]),
    (["--strategies", ""], ["--strategies", "at least one strategy"]),
    (["--strategies", " , "], ["--strategies", "at least one strategy"]),
    (["--strategies", "nope"], ["'nope'"]),
    (["--strategies", "greedy:explore=0"], ["explore"]),
    (["--engine", "x"], ["--engine"]),
    (["--out", "f"], ["--out", "f is a file, not a folder"]),
    (["--out", "f/x"], ["--out", "f is a file"]),
    (["--out", "/proc/hansa-lab-lengths"], ["--out", "not writable"]),
    (["--out", LONG], ["--out", "300 bytes long"]),
]


@pytest.mark.parametrize(("extra", "words"), LENGTHS,
                         ids=[" ".join(c[0])[:60] for c in LENGTHS])
def test_lengths_arguments(extra, words, capsys):
    _fails("lengths", ["lengths", "--no-progress", *extra], words, capsys)
    assert not list(Path().rglob("manifest.json"))


# ---------------------------------------------------------------------------- report


def _folder(manifest: bytes | None = None, as_dir: bool = False) -> str:
    run = Path("run")
    run.mkdir()
    if as_dir:
        (run / "manifest.json").mkdir()
    elif manifest is not None:
        (run / "manifest.json").write_bytes(manifest)
    return str(run)


def _manifest(**changes: Any) -> bytes:
    """A manifest of a finished 2-chunk run, with ``changes`` (dotted keys) applied."""
    design = {"total_games": 4, "chunk_size": 2, "n_chunks": 2,
              "conditions": [{"games": 4}]}
    m: dict[str, Any] = {"name": "run", "status": "complete", "sessions": [],
                         "configuration": {"chunk_size": 2, "arms": {"a": ["random"]}},
                         "design": design}
    for key, value in changes.items():
        *heads, last = key.split("__")
        d = m
        for h in heads:
            d = d[h]
        d[last] = value
    return json.dumps(m).encode()


REPORT = [  # (folder maker, extra arguments, words)
    (lambda: "nothere", [], ["RESULTS", "no manifest.json"]),
    (lambda: "f", [], ["RESULTS", "no manifest.json"]),
    (lambda: _folder(), [], ["RESULTS", "no manifest.json"]),
    (lambda: _folder(as_dir=True), [], ["RESULTS", "manifest.json", "cannot be read"]),
    (lambda: _folder(b""), [], ["RESULTS", "manifest.json", "corrupt"]),
    (lambda: _folder(b'{"name": "x", "configur'), [], ["manifest.json", "corrupt"]),
    (lambda: _folder(b"\xff\xfe\x00"), [], ["manifest.json", "corrupt"]),
    (lambda: _folder(b"[1, 2]"), [], ["manifest.json", "not a hansa-lab manifest"]),
    (lambda: _folder(b'{"configuration": {}}'), [], ["not a hansa-lab manifest"]),
    (lambda: _folder(b'{"configuration": [], "sessions": []}'), [],
     ["not a hansa-lab manifest"]),
    (lambda: _folder(_manifest(design=None)), [], ["manifest.json", "has no design"]),
    (lambda: _folder(_manifest(design__n_chunks=7)), [],
     ["manifest.json", "design.n_chunks = 7", "make 2 chunks"]),
    (lambda: _folder(_manifest(design__n_chunks=-1)), [], ["no valid design sizes"]),
    (lambda: _folder(_manifest(design__n_chunks=True)), [], ["no valid design sizes"]),
    (lambda: _folder(_manifest(design__chunk_size=0)), [], ["no valid design sizes"]),
    (lambda: _folder(_manifest(design__total_games="4")), [], ["no valid design sizes"]),
    (lambda: _folder(_manifest(design__total_games=3)), [],
     ["design.total_games = 3", "conditions add up to 4"]),
    (lambda: _folder(_manifest(design__conditions=[{"games": 9}])), [],
     ["conditions add up to 9"]),
    (lambda: _folder(_manifest(configuration__chunk_size=3)), [],
     ["configuration.chunk_size = 3"]),
    (lambda: _folder(_manifest(design_hash="0" * 64)), [], ["design_hash does not match"]),
    (lambda: "~/" + LONG, [], ["RESULTS", "300 bytes long"]),
    (lambda: "", [], ["RESULTS", "must be a path"]),
    (lambda: _folder(_manifest()), ["--html", "d"], ["--html", "is a folder"]),
    (lambda: _folder(_manifest()), ["--html", "f/r.html"], ["--html", "f is a file"]),
    (lambda: _folder(_manifest()), ["--html", "/proc/hansa-lab/r.html"],
     ["--html", "not writable"]),
    (lambda: _folder(_manifest()), ["--html", LONG + ".html"], ["--html", "bytes long"]),
]


@pytest.mark.parametrize(("make", "extra", "words"), REPORT,
                         ids=[f"{i}:{' '.join(c[2])[:50]}" for i, c in enumerate(REPORT)])
def test_report_arguments(make, extra, words, capsys):
    _fails("report", ["report", make(), *extra], words, capsys)
    assert not list(Path().rglob("*.html"))


# ------------------------------------------------------- run: experiment and sweep files

GOOD = 'games = 3\nplayers = 3\n[arms]\na = ["random"]\n'

FILES = [  # (file text, extra arguments, words)
    ('games = 3\nplayers = 3\n[arms]\na = ["random"]\n[sweep]\ncontrol_points = 3\n', [],
     ["sweep.control_points", "lists the values"]),
    ('games = 3\nplayers = 3\n[arms]\na = ["random"]\n[sweep]\nspeed = [1, 2]\n', [],
     ["sweep.speed", "unknown rule option"]),
    ('games = 3\nplayers = 3\n[arms]\na = ["random"]\n[sweep]\ncontrol_points = [3, 99]\n',
     [], ["sweep", "control_points", "99"]),
    ('games = 3\nplayers = 3\n[arms]\na = ["random"]\n[sweep]\ncontrol_points = []\n', [],
     ["sweep"]),
    ('games = 3\nplayers = 3\n[arms]\na = ["random"]\n[variants]\nx = 3\n', [],
     ["variants.x", "table of rule options"]),
    ('games = 3\nplayers = 3\n[arms]\na = ["random"]\n[variants]\nx = {speed = 1}\n', [],
     ["variants.x.speed"]),
    ('games = 3\nplayers = 3\n[arms]\na = ["random"]\n[variants]\nx = {control_points = 3}\n'
     'y = {control_points = 3}\n', [], ["variants", "the same game"]),
    ('games = 3\nplayers = 3\n[arms]\na = ["random"]\n[variants]\nx = {control_points = 3}\n'
     '[sweep]\ncontrol_points = [4]\n', [], ["sweep", "not both"]),
    ('games = 1000000000000\nplayers = 3\n[arms]\na = ["random"]\n', [],
     ["--games", "years", "--yes"]),
    ('games = 100000000\nplayers = [3, 4, 5]\n[arms]\na = ["random"]\nb = ["greedy"]\n', [],
     ["--games", "would take at least", "--yes"]),
    (GOOD, ["--games", "0"], ["--games", ">= 1"]),
    (GOOD, ["--games", "1000000000000"], ["--games", "years"]),
    (GOOD, ["--chunk-size", "0"], ["--chunk-size", ">= 1"]),
    (GOOD, ["--precision", "-1"], ["--precision", "positive number"]),
    (GOOD, ["--precision", "nan"], ["--precision", "nan"]),
    (GOOD, ["--precision", "0"], ["--precision", "got 0.0"]),
    (GOOD, ["--precision", "inf"], ["--precision"]),
    (GOOD, ["--out", "f"], ["--out", "f is a file, not a folder"]),
    (GOOD, ["--out", "f/x"], ["--out", "f is a file"]),
    (GOOD, ["--out", "/proc/hansa-lab-run"], ["--out", "not writable"]),
    (GOOD, ["--out", LONG], ["--out", "300 bytes long"]),
    (GOOD, ["--out", ""], ["--out", "must be a path"]),
    (GOOD, ["--jobs", "0"], ["--jobs"]),
    (GOOD, ["--players", "x"], ["--players"]),
    (GOOD, ["--arms", ","], ["--arms", "at least one"]),
]


@pytest.mark.parametrize(("text", "extra", "words"), FILES,
                         ids=[f"{i}:{' '.join(c[2])[:50]}" for i, c in enumerate(FILES)])
def test_experiment_and_sweep_files(text, extra, words, capsys):
    Path("exp.toml").write_text(text)
    _fails("run", ["run", "exp.toml", "--no-progress", *extra], words, capsys)
    assert not list(Path().rglob("manifest.json"))


# ------------------------------------------------- simulate and play: paths and checks

SIMULATE = [
    (["--precision", "-1"], ["--precision", "positive number"]),
    (["--precision", "nan"], ["--precision"]),
    (["--precision", "0"], ["--precision"]),
    (["--precision", "-inf"], ["--precision"]),
    (["--games", "1000000000000"], ["--games", "years", "--yes"]),
    (["--games", "1000000000", "--jobs", "2"], ["--games", "days", "2 workers"]),
    (["--out", LONG], ["--out", "300 bytes long"]),
    (["--out", "d/" + "x" * 256], ["--out", "256 bytes long"]),
    (["--out", "/proc/hansa-lab-sim"], ["--out", "not writable"]),
    (["--out", "a b"], ["--out", "folder name 'a b'", "--name"]),
    (["--out", "d/.hidden"], ["--out", "folder name '.hidden'"]),
    (["--out", "d/x!"], ["--out", "folder name 'x!'"]),
    (["--out", "f", "--name", "ok"], ["--out", "f is a file, not a folder"]),
]


@pytest.mark.parametrize(("extra", "words"), SIMULATE,
                         ids=[" ".join(c[0])[:60] for c in SIMULATE])
def test_simulate_paths_and_sizes(extra, words, capsys):
    argv = ["simulate", "--players", "3", "--no-progress", *extra]
    if "--games" not in extra:
        argv[1:1] = ["--games", "3"]
    _fails("simulate", argv, words, capsys)
    assert not list(Path().rglob("manifest.json"))


PLAY = [
    (["play", "--players", "3", "--strategies", ""], ["--strategies", "at least one"]),
    (["play", "--players", "3", "--strategies", ", ,"], ["--strategies", "at least one"]),
    (["play", "--players", "0"], ["--players", ">= 2"]),
    (["replay", "--players", "3", "--strategies", "", "--html", "o.html"],
     ["--strategies", "at least one"]),
    (["main", "--jobs", "0"], ["--jobs", "non-zero"]),
]


@pytest.mark.parametrize(("argv", "words"), PLAY, ids=[" ".join(c[0])[:60] for c in PLAY])
def test_play_checks_like_simulate(argv, words, capsys):
    _fails("play", argv, words, capsys)


def test_the_corpus_is_big_enough():
    n = (len(TUNE) + len(CHECKPOINTS) + len(LADDER) + len(LENGTHS) + len(REPORT)
         + len(FILES) + len(SIMULATE) + len(PLAY))
    assert n >= 150, n
