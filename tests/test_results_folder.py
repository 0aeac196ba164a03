"""Crash-safe results folders: verified done-markers, damaged chunks replayed or named, a
corrupt manifest reported (and recovered with force), a run whose chunks are all done
marked complete, a forced clear that never leaves a folder that looks complete, and a
lock with exactly one holder. (Kills at every transition: tests/test_faults.py.)"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import warnings

import pytest
from run_helpers import assert_same_tables, forbid_games

from hansa_lab.sim.logs import SCHEMA
from hansa_lab.sim.runner import open_results, simulate
from hansa_lab.sim.store import FolderBusy, ManifestError, ResultStore
from hansa_lab.tools import cli

TABLES = list(SCHEMA)
LINEUP = ["random", "random:gather=false", "random"]
KW = {"n_games": 6, "n_players": 3, "chunk_size": 2, "progress": False}


@pytest.fixture(scope="module")
def reference():
    """The uninterrupted run every damaged folder must come back to."""
    return simulate(LINEUP, name="run", **KW)


def test_markers_record_rows_bytes_and_checksums(tmp_path):
    out = tmp_path / "run"
    simulate(LINEUP, out=out, **KW)
    marker = json.loads((out / "_chunks" / "chunk-000001.json").read_text())
    assert set(marker["files"]) == set(TABLES)
    for table, rec in marker["files"].items():
        data = (out / table / "chunk-000001.parquet").read_bytes()
        assert rec["bytes"] == len(data)
        assert rec["sha256"] == hashlib.sha256(data).hexdigest()
        assert rec["rows"] == marker["rows"][table]
    assert marker["files"]["games"]["rows"] == 2


@pytest.mark.parametrize("damage", ["truncate", "empty", "delete", "rewrite"])
def test_a_damaged_chunk_is_named_by_open_results_and_replayed_on_resume(
        damage, tmp_path, reference):
    out = tmp_path / "run"
    simulate(LINEUP, out=out, **KW)
    victim = out / "turns" / "chunk-000001.parquet"
    if damage == "truncate":
        victim.write_bytes(victim.read_bytes()[:-100])
    elif damage == "empty":
        victim.write_bytes(b"")
    elif damage == "delete":
        victim.unlink()
    else:  # same size, other bytes
        data = bytearray(victim.read_bytes())
        data[len(data) // 2] ^= 0xFF
        victim.write_bytes(bytes(data))
    with pytest.warns(UserWarning, match=r"chunk 1: turns/chunk-000001.parquet"):
        damaged = open_results(out)
    assert not damaged.complete and list(damaged.bad_chunks) == [1]
    assert sorted(damaged.games.game_id) == [0, 1, 4, 5]  # no pyarrow error, no silent loss
    resumed = simulate(LINEUP, out=out, **KW)
    assert resumed.complete
    assert resumed.manifest["sessions"][-1]["chunks_run"] == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = open_results(out)
    assert again.complete and not again.bad_chunks
    assert_same_tables(again, reference)


def test_a_marker_for_the_wrong_number_of_games_is_not_trusted(tmp_path, reference):
    out = tmp_path / "run"
    simulate(LINEUP, out=out, **KW)
    path = out / "_chunks" / "chunk-000002.json"
    marker = json.loads(path.read_text())
    path.write_text(json.dumps({**marker, "games": 1}))
    resumed = simulate(LINEUP, out=out, **KW)
    assert resumed.manifest["sessions"][-1]["chunks_run"] == 1
    assert_same_tables(resumed, reference)


@pytest.mark.parametrize("text", [b"{\"name\": ", b"", b"\xff\xfe not utf-8", b"[1, 2]",
                                  b"{\"status\": \"complete\"}"])
def test_a_corrupt_manifest_is_reported_and_force_recovers(text, tmp_path, capsys,
                                                           monkeypatch, reference):
    out = tmp_path / "run"
    simulate(LINEUP, out=out, **KW)
    (out / "manifest.json").write_bytes(text)
    with pytest.raises(ManifestError, match=r"manifest.json: .*pass --force") as e:
        simulate(LINEUP, out=out, **KW)
    assert str(e.value).startswith(str(out))
    with pytest.raises(ManifestError):
        open_results(out)
    argv = ["simulate", "--players", "3", "--games", "6", "--chunk-size", "2",
            "--strategies", ",".join(LINEUP), "--out", str(out), "--no-progress"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "manifest.json" in err and "--force" in err and "Traceback" not in err
    assert cli.main([*argv, "--force"]) == 0
    assert_same_tables(open_results(out), reference)


def test_a_run_with_every_chunk_done_is_marked_complete_by_the_next_command(
        tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    simulate(LINEUP, out=out, **KW)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["status"] = manifest["sessions"][-1]["status"] = "running"  # killed right there
    manifest["finished"] = None
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert not open_results(out).complete
    forbid_games(monkeypatch)
    res = simulate(LINEUP, out=out, **{**KW, "progress": True})
    assert "marked it now" in capsys.readouterr().err
    assert res.complete and open_results(out).complete
    stored = json.loads((out / "manifest.json").read_text())
    assert stored["status"] == "complete" and stored["sessions"][-1]["status"] == "killed"
    assert stored["progress"]["games_done"] == 6


def test_a_forced_clear_stopped_after_the_markers_never_looks_complete(tmp_path,
                                                                       reference):
    out = tmp_path / "run"
    simulate(LINEUP, out=out, **KW)
    store = ResultStore(out)
    os.rename(out / "_chunks", out / ".discarded-1-1")  # the clear's first step, then killed
    assert not open_results(out).chunks
    res = simulate(LINEUP, out=out, **KW)
    assert res.manifest["sessions"][-1]["chunks_run"] == 3
    assert not (out / ".discarded-1-1").exists()
    assert_same_tables(res, reference)
    store.clear()
    assert sorted(p.name for p in out.iterdir()) == []


def test_a_held_folder_is_refused_and_a_stale_lock_is_taken_over(tmp_path):
    out = tmp_path / "busy"
    with ResultStore(out).lock(), pytest.raises(FolderBusy, match=f"pid {os.getpid()}"):
        simulate(["random"], n_games=3, n_players=3, out=out, progress=False)
    (out / ".lock").write_text(json.dumps({"pid": 2**22 + 12345, "host": "elsewhere"}))
    assert len(simulate(["random"], n_games=3, n_players=3, out=out, progress=False).games) == 3
    assert not (out / ".lock").exists()


_RACER = """
import json, os, socket, sys, time
from pathlib import Path
from hansa_lab.sim.store import FolderBusy, ResultStore
out, start, rounds = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
held = overlaps = 0
while time.time() < start:
    pass
for _ in range(rounds):
    try:
        with ResultStore(out).lock():
            try:
                fd = os.open(out / "holder", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                overlaps += 1
                continue
            held += 1
            time.sleep(0.002)
            os.close(fd)
            os.unlink(out / "holder")
    except FolderBusy:
        pass
    # a stale lock left by a killed run: every racer finds it and takes it over at once
    (out / ".lock").write_text(json.dumps({"pid": 999999999, "host": socket.gethostname()}))
print(json.dumps({"held": held, "overlaps": overlaps}))
"""


def test_racing_processes_never_hold_the_lock_together(tmp_path):
    import time

    out = tmp_path / "race"
    out.mkdir()
    (out / ".lock").write_text(json.dumps({"pid": 999999999, "host": "gone"}))
    start = time.time() + 1.5
    procs = [subprocess.Popen([sys.executable, "-c", _RACER, str(out), str(start), "40"],
                              stdout=subprocess.PIPE, text=True) for _ in range(6)]
    results = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
    assert sum(r["overlaps"] for r in results) == 0, results
    assert sum(r["held"] for r in results) >= 10, results  # and it was taken


@pytest.mark.parametrize("where", ["file", "under_file", "read_only"])
def test_an_unusable_out_is_named_before_any_game(where, tmp_path, monkeypatch, capsys):
    if where == "read_only" and os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    forbid_games(monkeypatch)
    target = tmp_path / "f"
    target.write_text("x")
    if where == "under_file":
        target = target / "sub"
    elif where == "read_only":
        parent = tmp_path / "ro"
        parent.mkdir()
        parent.chmod(0o500)
        target = parent / "out"
    code = cli.main(["simulate", "--players", "3", "--games", "3", "--out", str(target),
                     "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "--out" in err and str(target) in err and "Traceback" not in err


def test_leftovers_of_a_killed_start_do_not_make_a_folder_foreign(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / ".probe-12345").write_bytes(b"")  # killed between the write check and its cleanup
    (out / ".lock").write_text("{}")  # and before its lock was released
    res = simulate(LINEUP, out=out, **KW)
    assert res.complete and not (out / ".probe-12345").exists()
