"""The error boundary every ``hansa-lab`` command runs inside (hansa_lab.tools.boundary,
issue 40): output closed early (``| head``) ends quietly with 141 and keeps what a run
saved; Ctrl-C and SIGTERM at any moment of start-up end with one line and 130 / 143; the
long commands say on SIGTERM that their finished work is kept; every command's bad input
is one line naming the option, exit status 2, no traceback; an OSError on a path the user
gave names the option; a real bug keeps its traceback and says so in its last line.

Signals and pipes run the real console script in a subprocess; the rest runs
:func:`hansa_lab.tools.cli.main` in this process.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from run_helpers import forbid_games, run_cli

from hansa_lab.tools import cli

SCRIPT = Path(sys.executable).parent / "hansa-lab"
LONG = "n" * 300  # longer than any file system's name limit
BIG = str(2**70)


def _run_script(argv: list[str], cwd: Path, **kw) -> subprocess.Popen[str]:
    return subprocess.Popen([str(SCRIPT), *argv], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


# -------------------------------------------------------------- start-up stays light


def test_importing_the_command_line_loads_no_engine_and_no_command():
    """The console script imports hansa_lab.tools.cli before main() runs: nothing heavy
    may load there (it did: the engine, the commands, 0.3 s in which Ctrl-C printed a
    traceback)."""
    code = ("import sys, hansa_lab.tools.cli; print(sorted(m for m in sys.modules if "
            "m.startswith(('hansa_lab.', 'numpy', 'pandas', 'argparse'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert json.loads(out.replace("'", '"')) == ["hansa_lab.errors", "hansa_lab.tools",
                                                 "hansa_lab.tools.boundary",
                                                 "hansa_lab.tools.cli"]


def test_the_facade_still_gives_every_name():
    import hansa_lab as hl

    for name in hl.__all__:
        assert getattr(hl, name) is not None, name
    assert cli.MAIN_OUT and cli.CliError.__name__ == "CliError"


# ----------------------------------------------------------------- output closed early

PIPED = [
    ["play", "--players", "3", "--json"],
    ["play", "--players", "3", "--actions"],
    ["play", "--players", "3"],
    ["perft", "--divide", "--depth", "2", "--engine", "core"],
    ["options"],
]


@pytest.mark.parametrize("argv", PIPED, ids=[" ".join(a) for a in PIPED])
def test_output_closed_early_ends_quietly_with_141(argv, tmp_path):
    proc = _run_script(argv, tmp_path)
    proc.stdout.close()  # the reader goes away before the first line (`| head -c 0`)
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert proc.returncode == 128 + signal.SIGPIPE, err
    assert err == ""  # no traceback, no "Exception ignored ... BrokenPipeError"


def test_a_simulate_piped_to_a_closed_reader_keeps_its_chunks(tmp_path):
    out = tmp_path / "run"
    proc = _run_script(["simulate", "--players", "3", "--games", "6", "--chunk-size", "3",
                        "--out", str(out), "--no-progress"], tmp_path)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert proc.returncode == 141 and err == "", err
    assert len(list((out / "games").glob("chunk-*.parquet"))) == 2
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_a_broken_pipe_in_process_is_141_and_says_nothing(monkeypatch, capsys):
    def closed(args):
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr("hansa_lab.tools.commands.inspect.cmd_options", closed)
    assert cli.main(["options"]) == 141
    assert capsys.readouterr().err == ""


# ------------------------------------------------------- Ctrl-C and SIGTERM at start-up

SITECUSTOMIZE = '''
import os, signal, sys
_name, _, _sig = os.environ["HANSA_TEST_SIGNAL_AT"].partition(":")


class _SignalAtImport:
    """Sends the signal to this process as module _name starts to import."""

    def find_spec(self, name, path=None, target=None):
        if name == _name:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), getattr(signal, _sig))
        return None


sys.meta_path.insert(0, _SignalAtImport())
'''

#: modules imported inside main(), in start-up order: the parser's commands, the engine
#: (through them), pandas and the runner (in simulate's own handler)
STARTUP = ["hansa_lab.tools.commands", "hansa_lab.engine.rules",
           "hansa_lab.tools.commands.simulate", "hansa_lab.sim.runner"]
SIGNALS = [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated (SIGTERM)")]


@pytest.mark.parametrize(("signame", "code", "word"), SIGNALS, ids=[s[0] for s in SIGNALS])
@pytest.mark.parametrize("module", STARTUP)
def test_a_signal_during_start_up_ends_in_one_line(module, signame, code, word, tmp_path):
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "hook"),
           "HANSA_TEST_SIGNAL_AT": f"{module}:{signame}"}
    proc = _run_script(["simulate", "--players", "3", "--games", "3", "--out",
                        str(tmp_path / "run"), "--no-progress"], tmp_path, env=env)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert "Traceback" not in err and len(_lines(err)) == 1 and word in err, err
    assert not (tmp_path / "run" / "manifest.json").exists()


@pytest.mark.parametrize("delay", [0.25, 0.5, 1.0])
def test_ctrl_c_after_a_short_delay_ends_in_one_line(delay, tmp_path):
    proc = _run_script(["simulate", "--players", "3", "--games", "30000", "--out",
                        str(tmp_path / "run"), "--no-progress"], tmp_path)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and len(_lines(err)) == 1 and "interrupted" in err, err


def test_a_signal_landing_in_a_finaliser_is_raised_again_after_it_not_lost():
    """Python drops an exception raised in a finaliser or a weakref callback ("ignored");
    the import system runs such a callback after every module it loads, so a Ctrl-C during
    ``import pandas`` was lost about once in 60 starts and the run went on. The handlers
    send the signal again instead, and it is raised just after the finaliser."""
    from hansa_lab.errors import raise_unless_lost

    class Dying:
        def __del__(self) -> None:  # the handler, as if Ctrl-C arrived here
            raise_unless_lost(KeyboardInterrupt(), signal.SIGINT, sys._getframe())

    with pytest.raises(KeyboardInterrupt):
        Dying()  # dropped at once: its finaliser runs
        for _ in range(500):  # the signal comes again 20 ms later
            time.sleep(0.01)


def test_the_places_in_the_import_system_that_lose_an_interruption_are_seen():
    from hansa_lab.errors import lost_if_raised_in

    space: dict[str, object] = {"sys": sys}
    exec(compile("def _get_module_lock():\n"  # the weakref callback dropping a lock
                 "    def cb(ref=None):\n        return sys._getframe()\n"
                 "    return cb()\n"
                 "def _find_spec(then=None):\n"  # elsewhere in the import system
                 "    return then() if then else sys._getframe()\n",
                 "<frozen importlib._bootstrap>", "exec"), space)
    body = compile("frame = _get_module_lock()", "<a module>", "exec")

    def a_module_body() -> object:  # a module whose body takes a lock
        found: dict[str, object] = {"sys": sys, **space}
        exec(body, found)
        return found["frame"]

    assert lost_if_raised_in(space["_get_module_lock"]())  # type: ignore[operator]
    assert not lost_if_raised_in(space["_find_spec"]())  # type: ignore[operator]
    assert lost_if_raised_in(space["_find_spec"](a_module_body))  # type: ignore[operator]
    assert not lost_if_raised_in(sys._getframe())


# ------------------------------------------------- SIGTERM on the long commands: saved

LONG_RUNS = {  # command → (arguments, folder whose chunks show the run has started)
    "simulate": (["simulate", "--players", "3", "--games", "3000", "--chunk-size", "3",
                  "--out", "out"], "out"),
    "run": (["run", "exp.toml", "--chunk-size", "3", "--out", "out"], "out"),
    "ladder": (["ladder", "--players", "2", "--strategies", "random,greedy", "--deals",
                "3000", "--jobs", "1", "--out", "out"], "out"),
    "lengths": (["lengths", "--strategies", "random", "--games", "3000", "--jobs", "1",
                 "--out", "out"], "out"),
    "populations": (["populations", "--populations", "random", "--reference", "random",
                     "--questions", "seats", "--games", "3000", "--jobs", "1", "--out",
                     "out"], "out"),
}


@pytest.mark.parametrize("command", list(LONG_RUNS))
def test_sigterm_on_a_long_command_says_its_work_is_saved(command, tmp_path):
    argv, folder = LONG_RUNS[command]
    (tmp_path / "exp.toml").write_text(
        'games = 3000\nplayers = 3\n[arms]\na = ["random"]\nb = ["random"]\n')
    proc = _run_script([*argv, "--no-progress"], tmp_path)
    try:
        t0 = time.monotonic()
        while not list((tmp_path / folder).rglob("chunk-*.parquet")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() - t0 < 120, "no chunk was saved"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 143, err
    assert "Traceback" not in err and len(_lines(err)) == 1, err
    assert "terminated (SIGTERM)" in err and "saved" in err, err
    assert list((tmp_path / folder).rglob("chunk-*.parquet"))


# --------------------------------------------------------------- the boundary in-process


def test_argparse_errors_are_one_line_naming_the_argument(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["play", "--players", "x"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert _lines(err) == [
        "hansa-lab play: error: argument --players: --players must be an integer, got 'x' "
        "(see hansa-lab play --help)"]


OS_ERRORS = [  # (errno, the user's path or another, exit status, words)
    (errno.EACCES, "out/x", 2, ["--out", "Permission denied"]),
    (errno.EISDIR, "out", 2, ["--out", "Is a directory"]),
    (errno.ENOTDIR, "out/chunk", 2, ["--out", "Not a directory"]),
    (errno.ENAMETOOLONG, "out/" + LONG, 2, ["--out", "File name too long"]),
    (errno.ENOENT, "/elsewhere/x", 2, ["/elsewhere/x", "No such file"]),
    (errno.ENOSPC, "out/x", 1, ["No space left on device"]),
    (errno.EIO, None, 1, ["Input/output error"]),
]


@pytest.mark.parametrize(("code", "path", "status", "words"), OS_ERRORS,
                         ids=[errno.errorcode[c[0]] for c in OS_ERRORS])
def test_an_os_error_is_one_line_naming_the_option(code, path, status, words, monkeypatch,
                                                   tmp_path, capsys):
    monkeypatch.chdir(tmp_path)

    def failing(*args, **kwargs):
        raise OSError(code, os.strerror(code), path)

    monkeypatch.setattr("hansa_lab.sim.runner.simulate", failing)
    assert cli.main(["simulate", "--players", "3", "--games", "3", "--out", "out",
                     "--no-progress"]) == status
    err = capsys.readouterr().err
    assert len(_lines(err)) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)


def _project_error(kind: str) -> Exception:
    from hansa_lab.engine.position import PositionError
    from hansa_lab.errors import ActionParseError, ExperimentError, IllegalActionError

    return {"position": PositionError("position text: column 3: bad"),
            "action": ActionParseError("'place r99' is not an action"),
            "illegal": IllegalActionError("'pass' is not legal here"),
            "experiment": ExperimentError("chunk_size", "must be >= 1")}[kind]


@pytest.mark.parametrize(("kind", "words"), [
    ("position", ["column 3"]), ("action", ["place r99"]), ("illegal", ["not legal"]),
    ("experiment", ["--chunk-size: must be >= 1"])])
def test_the_projects_bad_input_errors_are_exit_2(kind, words, monkeypatch, capsys):
    def failing(*args, **kwargs):
        raise _project_error(kind)

    monkeypatch.setattr("hansa_lab.sim.runner.simulate", failing)
    assert cli.main(["simulate", "--players", "3", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert len(_lines(err)) == 1 and err.startswith("hansa-lab simulate: error: "), err
    assert all(w in err for w in words), err


def test_a_bug_keeps_its_traceback_and_says_so(monkeypatch, capsys):
    def buggy(args):
        return {}["missing"]

    monkeypatch.setattr("hansa_lab.tools.commands.inspect.cmd_options", buggy)
    assert cli.main(["options"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and "KeyError" in err
    assert _lines(err)[-1].startswith("hansa-lab options: internal error (a bug in hansa-lab")


def test_ctrl_c_in_a_short_command_is_one_line_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr("hansa_lab.tools.commands.inspect.cmd_options", interrupted)
    assert cli.main(["options"]) == 130
    assert _lines(capsys.readouterr().err) == ["hansa-lab options: interrupted"]


def test_sigterm_is_restored_after_main(capsys):
    before = signal.getsignal(signal.SIGTERM)
    assert cli.main(["options"]) == 0
    assert signal.getsignal(signal.SIGTERM) == before


def test_the_env_thread_limit_is_the_cores():
    from hansa_lab.compiled.bridge import core_module
    from hansa_lab.tools.commands.measure import MAX_THREADS

    assert core_module().MAX_THREADS == MAX_THREADS


# ------------------------------------------------ the corpus: every command, bad input


@pytest.fixture
def workdir(monkeypatch, tmp_path):
    """In tmp_path, with a file ``f``, a folder ``d``, an experiment ``exp.toml`` and no
    game allowed to be played."""
    forbid_games(monkeypatch)
    monkeypatch.chdir(tmp_path)
    Path("f").write_text("a file")
    Path("d").mkdir()
    Path("exp.toml").write_text('games = 3\nplayers = 3\n[arms]\na = ["random"]\n')
    return tmp_path


CORPUS = [  # (arguments, words of the one line); not in the older corpora
    # parity: seeds and durations were taken as given (a traceback, or forever)
    (["parity", "--seed", "-1"], ["--seed", ">= 0"]),
    (["parity", "--seed", BIG], ["--seed", "at most"]),
    (["parity", "--seed", "nan"], ["--seed", "'nan'"]),
    (["parity", "--seconds", "0"], ["--seconds", "positive number of seconds"]),
    (["parity", "--seconds", "-1"], ["--seconds"]),
    (["parity", "--seconds", "nan"], ["--seconds", "nan"]),
    (["parity", "--seconds", "inf"], ["--seconds", "inf"]),
    (["parity", "--seconds", "1e999"], ["--seconds"]),
    (["parity", "--seconds", BIG], ["--seconds", "at most 86400 (a day)"]),
    (["parity", "--seconds", ""], ["--seconds", "''"]),
    (["parity", "--games", "0"], ["--games", ">= 1"]),
    (["parity", "--games", "1e999"], ["--games", "'1e999'"]),
    # bench
    (["bench", "--seconds", BIG], ["--seconds", "at most 86400 (a day)"]),
    (["bench", "--seconds", "1e999"], ["--seconds"]),
    (["bench", "--suite", "env", "--seconds", "inf"], ["--seconds"]),
    (["bench", "--suite", "env", "--threads", "0"], ["--threads", ">= 1"]),
    (["bench", "--suite", "env", "--threads", "257"], ["--threads", "at most 256"]),
    (["bench", "--suite", "env", "--threads", BIG], ["--threads", "at most 256"]),
    (["bench", "--suite", "env", "--envs", BIG], ["--envs", "at most"]),
    (["bench", "--suite", "env", "--rounds", "0"], ["--rounds", ">= 1"]),
    (["bench", "--engine", "gpu"], ["--engine", "'gpu'"]),
    (["bench", "--suite", "runner", "--engine", "both"], ["--engine", "one engine"]),
    # populations: each message names its flag
    (["populations", "--tips", "nope"], ["--tips", "'nope'"]),
    (["populations", "--tips", "greedy"], ["--tips", "not a strategy tip"]),
    (["populations", "--tips", ","], ["--tips", "at least one"]),
    (["populations", "--questions", ""], ["--questions", "at least one"]),
    (["populations", "--questions", "x"], ["--questions", "'x'"]),
    (["populations", "--populations", ""], ["--populations", "at least one"]),
    (["populations", "--populations", "nope"], ["--populations", "'nope'"]),
    (["populations", "--populations", "greedy,greedy"], ["--populations", "more than once"]),
    (["populations", "--reference", "nope"], ["--reference", "'nope'"]),
    (["populations", "--games", "random=3"], ["--games", "no count", "'greedy'"]),
    (["populations", "--games", "greedy=0"], ["--games", ">= 1"]),
    (["populations", "--games", "=3"], ["--games", "NAME=N"]),
    (["populations", "--board", "moon"], ["--board", "'moon'"]),
    (["populations", "--edition", "x"], ["--edition", "'x'"]),
    (["populations", "--players", "1"], ["--players", ">= 2"]),
    (["populations", "--seed", "-1"], ["--seed", ">= 0"]),
    (["populations", "--jobs", "0"], ["--jobs", "non-zero"]),
    (["populations", "--out", ""], ["--out", "must be a path"]),
    (["populations", "--out", "f"], ["--out", "is a file"]),
    (["populations", "--out", LONG], ["--out", "300 bytes long"]),
    # sizes refused before the first question is played (the seats were played first)
    (["populations", "--tip-games", BIG], ["--tip-games", "within 2**63"]),
    (["populations", "--tip-games", "100000000000"], ["--tip-games", "pass --yes"]),
    (["populations", "--games", "100000000000"], ["--games", "pass --yes"]),
    (["populations", "--games", f"greedy={BIG},planner=5"], ["--games", "within 2**63"]),
    (["populations", "--seed", str(2**63 - 2), "--games", "3"], ["--games", "within 2**63"]),
    # replay without a results folder, and with a bad one
    (["replay", "--players", "3"], ["--html", "give the file"]),
    (["replay", "--players", "3", "--html", "d"], ["--html", "is a directory"]),
    (["replay", "--players", "3", "--html", "f/x.html"], ["--html", "f is a file"]),
    (["replay", "--players", "3", "--html", LONG + ".html"], ["--html", "too long"]),
    (["replay", "--players", "3", "--seed", "-1", "--html", "o.html"], ["--seed"]),
    (["replay", "--players", "3", "--strategies", "nope", "--html", "o.html"],
     ["--strategies", "'nope'"]),
    (["replay", "--game", "0"], ["--game", "results folder first"]),
    (["replay", "missing", "--game", "0"], ["RESULTS", "no manifest.json"]),
    (["replay", "d", "--game", "0"], ["RESULTS", "no manifest.json"]),
    # perft
    (["perft", "--depth", "0"], ["--depth", "1-8"]),
    (["perft", "--depth", BIG], ["--depth", "1-8"]),
    (["perft", "--depth", "nan"], ["--depth", "'nan'"]),
    (["perft", "--file", "missing.txt"], ["--file", "missing.txt"]),
    (["perft", "--file", "d"], ["--file", "Is a directory"]),
    (["perft", "--file", "f"], ["perft file line 1"]),
    (["perft", "garbage"], ["position text", "'garbage'"]),
    (["perft", "--name", "x"], ["--name", "give --file too"]),
    # play, run, main, options, the top level
    (["play", "--players", "3", "--seed", BIG], ["--seed", "at most"]),
    (["play", "--players", "3", "--engine", "gpu"], ["--engine", "'gpu'"]),
    (["play", "--players", "3", "--board", ""], ["--board", "''"]),
    (["play", "--players", "3", "--option", "control_points=1e999"],
     ["--option", "control_points"]),
    (["play", "--players", "3", "--strategies", "greedy:depth=nan"], ["--strategies", "depth"]),
    (["run", "exp.toml", "--until-decided", "--effect", "1e999"], ["--effect"]),
    (["run", "exp.toml", "--until-decided", "--effect", "nan"], ["--effect"]),
    (["run", "d"], ["d", "Is a directory"]),
    (["run", "f"], ["f", "invalid TOML"]),
    (["run", "missing.toml"], ["missing.toml", "No such file"]),
    (["main", "--out", ""], ["--out", "must be a path"]),
    (["main", "--out", "f", "--jobs", "1"], ["--out", "is a file"]),
    (["simulate", "--players", "3", "--games", "3", "--log", "x"], ["--log", "'x'"]),
    (["options", "--markdown", "x"], ["unrecognized arguments: x"]),
    ([], ["required: command"]),
    (["nope"], ["invalid choice: 'nope'"]),
]


@pytest.mark.parametrize(("argv", "words"), CORPUS,
                         ids=[f"{i}:{' '.join(c[0])[:50]}" for i, c in enumerate(CORPUS)])
def test_bad_input_is_one_line_naming_it(argv, words, workdir, capsys):
    code, err = run_cli("cli", argv, capsys)
    assert code == 2, (argv, err)
    assert "Traceback" not in err, err
    assert len(_lines(err)) == 1, err
    assert all(w in err for w in words), (words, err)
    assert not list(Path().rglob("*.html")) and not list(Path().rglob("manifest.json"))


def test_the_corpus_is_big_enough():
    assert len(CORPUS) >= 60, len(CORPUS)
