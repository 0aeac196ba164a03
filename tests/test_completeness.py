"""A results folder is complete only when its design and its verified done-markers say so:
missing, extra or mismatched markers make it "incomplete: N of M chunks" in
``open_results``, in ``report`` and in the runner, a rerun replays exactly the chunks that
are missing, a hand-edited design is refused, and a finished run grows by more deals
without replaying the games it has (issue 23 item 1; issue 22 item 6)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from run_helpers import assert_same_tables, counting_chunks, forbid_games

from hansa_lab.sim import runner
from hansa_lab.sim.runner import open_results, simulate
from hansa_lab.sim.store import FAULT_ENV, ManifestError
from hansa_lab.tools import cli

ROOT = Path(__file__).resolve().parents[1]
LINEUP = ["random", "random:gather=false", "random"]  # 3 rotations per deal
KW = {"n_games": 12, "n_players": 3, "chunk_size": 3, "progress": False}  # 4 chunks


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished 4-chunk run, copied by each test that damages it."""
    out = tmp_path_factory.mktemp("finished") / "run"
    simulate(LINEUP, out=out, **KW)
    return out


@pytest.fixture
def run(finished, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(finished, out)
    return out


def _open(out: Path) -> runner.Results:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return open_results(out)


def _marker(out: Path, i: int) -> Path:
    return out / "_chunks" / f"chunk-{i:06d}.json"


def _edit_marker(out: Path, i: int, edit) -> None:
    path = _marker(out, i)
    marker = json.loads(path.read_text())
    edit(marker)
    path.write_text(json.dumps(marker))


def _edit_manifest(out: Path, edit) -> None:
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    edit(manifest)
    path.write_text(json.dumps(manifest))


def _report(out: Path, capsys) -> tuple[int, str, str]:
    code = cli.main(["report", str(out), "--html", str(out.parent / "r.html")])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _set(d: dict, path: str, value) -> None:
    *heads, last = path.split(".")
    for h in heads:
        d = d[h]
    d[last] = value


def test_a_finished_run_is_complete_with_its_design_recorded(run, capsys):
    res = open_results(run)
    assert res.complete and res.completeness.text() == "complete"
    assert res.completeness.games_done == res.completeness.total_games == 12
    marker = json.loads(_marker(run, 0).read_text())
    assert marker["design"] == res.manifest["design_hash"] and len(marker["specs"]) == 64
    code, out, _ = _report(run, capsys)
    assert code == 0 and "12 of 12 games" in out and "incomplete" not in out


#: (what is done to the folder, the chunks it takes away, words of the reason)
DAMAGE = [
    ("delete two markers", lambda out: [_marker(out, i).unlink() for i in (0, 2)], [0, 2],
     None),
    ("empty a marker", lambda out: _marker(out, 1).write_text(""), [1], "cannot be read"),
    ("a marker that is a list", lambda out: _marker(out, 1).write_text("[]"), [1],
     "not a JSON object"),
    ("an extra marker", lambda out: shutil.copy(_marker(out, 1), _marker(out, 7)), [7],
     "beyond the design's 4 chunks"),
    ("a marker of another design", lambda out: _edit_marker(
        out, 3, lambda m: m.update(design="0" * 64)), [3], "another design"),
    ("a marker with the wrong games", lambda out: _edit_marker(
        out, 2, lambda m: m.update(games=1)), [2], "records 1 games, the design 3"),
    ("a marker with the wrong row count", lambda out: _edit_marker(
        out, 1, lambda m: m["files"]["players"].update(rows=5)), [1],
     "holds 9 rows, its marker records 5 and 9"),
    ("a marker whose rows disagree with its files", lambda out: _edit_marker(
        out, 0, lambda m: m["rows"].update(games=2)), [0],
     "holds 3 rows, its marker records 3 and 2"),
    ("a truncated table file", lambda out: (out / "games" / "chunk-000002.parquet")
     .write_bytes(b"PAR1"), [2], "bytes"),
    ("a marker naming an unknown table", lambda out: _edit_marker(
        out, 3, lambda m: m["files"].update(extra=m["files"]["games"])), [3],
     "unknown table 'extra'"),
]


@pytest.mark.parametrize("what,damage,lost,reason", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_missing_extra_or_mismatched_markers_make_the_folder_incomplete(
        run, capsys, what, damage, lost, reason):
    damage(run)
    res = _open(run)
    kept = len([i for i in range(4) if i not in lost])
    assert not res.complete
    assert res.completeness.text() == f"incomplete: {kept} of 4 chunks"
    assert res.completeness.games_done == 3 * kept == len(res.games)
    if reason:
        assert reason in " ".join(res.bad_chunks.values()), res.bad_chunks
    text = res.report()
    assert f"{3 * kept} of 12 games" in text and f"incomplete: {kept} of 4 chunks" in text
    if what in ("delete two markers", "an extra marker"):  # the command and its page too
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            code, out, _ = _report(run, capsys)
        left_out = [str(w.message) for w in seen if "left out" in str(w.message)]
        # a marker beyond the design is a bad chunk the command warns about; a deleted one
        # is a chunk still to play, not a warning
        assert bool(left_out) == (what == "an extra marker"), left_out
        assert code == 0 and f"incomplete: {kept} of 4 chunks" in out
        html = (run.parent / "r.html").read_text()
        assert f"incomplete: {kept} of 4 chunks" in html and f"{3 * kept} of 12 (" in html


def test_a_rerun_replays_exactly_the_missing_chunks(run, finished, capsys):
    for i in (0, 2):
        _marker(run, i).unlink()
    kept = {i: os.stat(run / "players" / f"chunk-{i:06d}.parquet").st_ino for i in (1, 3)}
    with counting_chunks() as played:
        res = simulate(LINEUP, out=run, name="run", **KW)
    assert sorted(played) == [0, 2]
    assert {i: os.stat(run / "players" / f"chunk-{i:06d}.parquet").st_ino
            for i in (1, 3)} == kept
    assert res.complete
    assert_same_tables(open_results(run), open_results(finished))
    assert "incomplete: 2 of 4 chunks done" in capsys.readouterr().err


#: hand edits of the manifest that must be refused, and words of the refusal
EDITS = [
    ("design.n_chunks", 1, "says design.n_chunks = 1, but 12 games in chunks of 3 make 4"),
    ("design.n_chunks", 0, "no valid design sizes"),
    ("design.n_chunks", "4", "no valid design sizes"),
    ("design.total_games", 6, "6 games in chunks of 3 make 2"),
    ("design.chunk_size", 4, "chunks of 4 make 3"),
    ("configuration.chunk_size", 6, "configuration.chunk_size = 6"),
    ("configuration.seed", 99, "design_hash does not match"),
    ("design.conditions", [], "its conditions add up to 0"),
    ("design", None, "has no design"),
]


@pytest.mark.parametrize("field,value,words", EDITS, ids=[f"{e[0]}={e[1]!r}" for e in EDITS])
def test_a_hand_edited_design_is_refused_by_every_command(run, capsys, field, value, words):
    _edit_manifest(run, lambda m: _set(m, field, value))
    with pytest.raises(ManifestError) as e:
        open_results(run)
    assert words in str(e.value) and "manifest.json" in str(e.value)
    code, _, err = _report(run, capsys)
    assert code == 2 and words in err and "Traceback" not in err
    before = sorted(p.name for p in (run / "_chunks").iterdir())
    code = cli.main(["simulate", "--players", "3", "--strategies", ",".join(LINEUP),
                     "--games", "12", "--chunk-size", "3", "--name", "run", "--out",
                     str(run), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and words in err
    assert sorted(p.name for p in (run / "_chunks").iterdir()) == before  # nothing dropped


def test_a_hand_edited_design_is_replayed_whole_with_force(run, finished):
    _edit_manifest(run, lambda m: _set(m, "design.n_chunks", 1))
    res = simulate(LINEUP, out=run, name="run", force=True, **KW)
    assert res.complete and len(res.games) == 12
    assert_same_tables(open_results(run), open_results(finished))


# --- a finished run extended by more deals --------------------------------------------


def _sim_args(out: Path, games: int) -> list[str]:
    return ["simulate", "--players", "3", "--strategies", ",".join(LINEUP), "--games",
            str(games), "--chunk-size", "3", "--name", "run", "--out", str(out),
            "--no-progress"]


@pytest.fixture(scope="module")
def bigger(tmp_path_factory):
    """The same run planned at 24 games from the start (the reference of an extension)."""
    out = tmp_path_factory.mktemp("bigger") / "run"
    simulate(LINEUP, out=out, **{**KW, "n_games": 24})
    return open_results(out)


def test_more_games_extend_a_finished_run_and_keep_its_chunks(run, bigger, capsys,
                                                             monkeypatch):
    files = {p: os.stat(p).st_ino for p in sorted((run / "players").glob("*.parquet"))}
    with counting_chunks() as played:
        assert cli.main(_sim_args(run, 24)) == 0
    assert sorted(played) == [4, 5, 6, 7]  # only the new deals
    assert {p: os.stat(p).st_ino for p in files} == files  # the old files untouched
    assert "extending from 12 to 24 games per arm; 4 of 8 chunks kept" in \
        capsys.readouterr().err
    res = open_results(run)
    assert res.complete and res.manifest["configuration"]["games"] == 24
    assert_same_tables(res, bigger)
    # and again: nothing to play
    forbid_games(monkeypatch)
    assert cli.main(_sim_args(run, 24)) == 0
    assert "24 of 24 games" in capsys.readouterr().out


def test_an_extension_killed_midway_resumes_to_theassert_same_tables(run, bigger):
    env = {**os.environ, FAULT_ENV: "chunk_marked@2:KILL"}
    proc = subprocess.run([sys.executable, "-m", "hansa_lab.tools.cli", *_sim_args(run, 24)],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    half = _open(run)
    assert not half.complete and half.completeness.text() == "incomplete: 6 of 8 chunks"
    assert cli.main(_sim_args(run, 24)) == 0  # resume the extension
    res = open_results(run)
    assert res.complete
    assert_same_tables(res, bigger)


def test_a_kill_between_the_new_manifest_and_the_stamps_is_resumed(run, bigger, monkeypatch):
    from hansa_lab.sim import store

    writes = []
    real = store.write_json

    def dying(path, data):
        if path.parent.name == "_chunks" and "files" in data and not writes:
            writes.append(path)
            raise KeyboardInterrupt  # the extension stops after its manifest
        real(path, data)

    monkeypatch.setattr(runner, "write_json", dying)
    with pytest.raises(KeyboardInterrupt):
        simulate(LINEUP, out=run, name="run", **{**KW, "n_games": 24})
    monkeypatch.setattr(runner, "write_json", real)
    assert not _open(run).complete  # markers of the old design are not counted
    simulate(LINEUP, out=run, name="run", **{**KW, "n_games": 24})
    assert_same_tables(open_results(run), bigger)


def test_an_extension_through_run_with_an_experiment_file(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    # two arms of three rotations each: the old games keep their ids in the larger design
    path.write_text('name = "grow"\ngames = 6\nplayers = 3\nchunk_size = 3\n'
                    'base_arm = "base"\n[arms]\nbase = ["random:gather=false", "random", '
                    '"random"]\ntip = ["random", "random:gather=false", "random"]\n')
    out = tmp_path / "grow"
    assert cli.main(["run", str(path), "--out", str(out), "--no-progress"]) == 0
    first = open_results(out)
    assert first.complete and len(first.games) == 12
    assert cli.main(["run", str(path), "--games", "12", "--out", str(out),
                     "--no-progress"]) == 0
    res = open_results(out)
    assert res.complete and len(res.games) == 24
    err = capsys.readouterr().err
    assert "extending from 6 to 12 games per arm; 4 of 8 chunks kept" in err
    assert "played again" not in err
    fresh = tmp_path / "fresh"
    assert cli.main(["run", str(path), "--games", "12", "--out", str(fresh),
                     "--no-progress"]) == 0
    assert_same_tables(res, open_results(fresh))


def test_fewer_games_than_recorded_are_refused(run, capsys):
    assert cli.main(_sim_args(run, 6)) == 2
    err = capsys.readouterr().err
    assert "can extend a run, not shrink it" in err
    assert open_results(run).complete
