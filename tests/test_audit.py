"""Player audits on small samples: the seat flags on made-up seat records (a planted bad
seat is flagged and only it; no planted seat, or a rule-made difference the reference shows
too, is not), the records of a real tiny run checked against its per-turn table, and the
command end to end, with its refusals (exit 2, one line)."""

from __future__ import annotations

import pandas as pd
import pytest
from run_helpers import run_cli

from hansa_lab.stats.audit import (
    MEASURES,
    audit_report,
    format_audit,
    predecessor_table,
    seat_flags,
    seat_records,
    synthetic_records,
)
from hansa_lab.studies.audit import play_audit, predecessor_of


@pytest.mark.parametrize("bad_seat", [0, 2, 3])
def test_a_planted_bad_seat_is_flagged_and_no_other(bad_seat):
    # fixed seeds: any unplanted flag is a false positive, allowed 5% of the time by the
    # family-wise error rate; these seeds draw none, so a flag here is the logic's
    records = synthetic_records(300, 4, bad_seat=bad_seat, seed=21)
    reference = synthetic_records(300, 4, bad_seat=None, seed=22)
    for flags in (seat_flags(records), seat_flags(records, reference)):
        flagged = flags[flags.flagged]
        assert set(flagged.seat) == {bad_seat}
        assert {"third_action_round", "score_total", "win"} <= set(flagged.measure)
        # the other seats look better than the pooled rest, as a mirror: they differ (Holm)
        # but are not the source
        mirrored = flags[(flags.seat != bad_seat) & (flags.measure == "score_total")]
        assert mirrored.differs.any() and not mirrored.flagged.any()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_planted_seat_flags_nothing(seed):
    records = synthetic_records(300, 4, bad_seat=None, seed=seed)
    reference = synthetic_records(300, 4, bad_seat=None, seed=seed + 100)
    assert not seat_flags(records).flagged.any()
    assert not seat_flags(records, reference).flagged.any()


def test_a_difference_the_reference_shows_too_is_by_rule_not_flagged():
    # the track score grows by 1.5 points per seat in both populations (as a start supply
    # would make it): it differs from the other seats, but no more than in the reference
    records = synthetic_records(400, 4, seed=5, supply_effect=1.5)
    reference = synthetic_records(400, 4, seed=6, supply_effect=1.5)
    without = seat_flags(records)
    assert without[without.measure == "score_track"].flagged.any()
    flags = seat_flags(records, reference)
    track = flags[flags.measure == "score_track"]
    assert track.by_rule.any() and not flags.flagged.any()
    # the same difference with a reference that does not show it is flagged
    flat = synthetic_records(400, 4, seed=6, supply_effect=0.0)
    assert seat_flags(records, flat)[lambda f: f.measure == "score_track"].flagged.any()


def test_seat_flags_refuses_bad_arguments():
    records = synthetic_records(20, 3, seed=1)
    with pytest.raises(ValueError, match="alpha"):
        seat_flags(records, alpha=1.5)
    with pytest.raises(ValueError, match="two seats"):
        seat_flags(records[records.seat == 0])


def test_records_of_a_real_run_match_its_turns_table():
    run = play_audit("greedy", n_players=3, games=6, reference="random", seed=3)
    res = run.self_play["base"]
    records = seat_records(res.players, res.games, res.events)
    assert len(records) == 18 and set(MEASURES) <= set(records.columns)
    last = res.turns.sort_values("turn").groupby(["game_id", "seat"]).last()
    for ability in ("actions", "bank", "book", "privilege", "keys"):
        expected = last[f"lv_{ability}"].to_numpy(float)
        got = records.set_index(["game_id", "seat"]).loc[last.index, f"dev_{ability}"]
        assert (got.to_numpy() == expected).all(), ability
    kontors = records.set_index(["game_id", "seat"]).loc[last.index, "kontors"]
    assert (kontors.to_numpy() == last["kontors"].to_numpy(float)).all()
    # the third action's round: the first turn row with an Actions development
    turns = res.turns[res.turns.lv_actions >= 1].groupby(["game_id", "seat"])["round"].min()
    reached = records[records.third_action_reached].set_index(["game_id", "seat"])
    assert (reached.loc[turns.index, "third_action_round"] == turns.to_numpy()).all()
    never = records[~records.third_action_reached]
    rounds = never.game_id.map(res.games.set_index("game_id").rounds)
    assert (never.third_action_round == rounds + 1).all()
    # the reference is played on the next seeds
    assert sorted(run.reference_play["base"].games.seed) == list(range(9, 15))
    report = audit_report("greedy", records, res.games,
                          seat_records(run.reference_play["base"].players,
                                       run.reference_play["base"].games,
                                       run.reference_play["base"].events), "random")
    text = format_audit(report)
    assert "audit of greedy: 6 self-play games" in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_the_predecessor_table_reads_the_rotated_seat():
    players = pd.DataFrame({"game_id": [0, 0, 1, 1], "seat": [0, 1, 0, 1],
                            "win_share": [1.0, 0.0, 1.0, 0.0]})
    games = pd.DataFrame({"game_id": [0, 1], "rotation": [0, 1], "n_players": [2, 2]})
    t = predecessor_table({"base": (players, games)})
    assert t.games.iloc[0] == 2 and t.win_share.iloc[0] == 0.5 and t.fair.iloc[0] == 0.5
    assert predecessor_of("strong") == "strong_v1"
    with pytest.raises(ValueError, match="no known predecessor of 'greedy'"):
        predecessor_of("greedy")


def test_the_command_end_to_end(tmp_path, capsys):
    from hansa_lab.tools.cli import main

    out = tmp_path / "aud"
    assert main(["audit", "greedy", "--players", "3", "--games", "4", "--seed", "7",
                 "--reference", "random", "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "== base, 3 players ==" in text and "audit of greedy: 4 self-play games" in text
    lines = [line for line in text.splitlines() if str(out) not in line]
    assert "seat 2" in text and max(len(line) for line in lines) <= 100
    tables = out / "tables_base_3p"
    flags = pd.read_csv(tables / "flags.csv")
    assert {"seat", "measure", "p_holm", "flagged", "by_rule"} <= set(flags.columns)
    assert set(pd.read_csv(tables / "profile.csv").seat) == {0, 1, 2}
    assert (tables / "end_reasons.csv").is_file()


@pytest.mark.parametrize(("argv", "message"), [
    (["audit", "nosuch"], "PLAYER: unknown strategy 'nosuch'"),
    (["audit", "greedy", "--games", "0"], "--games must be >= 1"),
    (["audit", "greedy", "--board", "moon"], "--board:"),
    (["audit", "greedy", "--players", "9"], "--players must be at most 5"),
    (["audit", "greedy", "--reference", "nosuch"], "--reference: unknown strategy"),
    (["audit", "greedy", "--against-predecessor"], "no known predecessor of 'greedy'"),
])
def test_the_command_refuses_bad_inputs_in_one_line(tmp_path, capsys, argv, message):
    code, err = run_cli("audit", [*argv, "--out", str(tmp_path / "x")], capsys)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_against_the_predecessor_one_seat_rotates(monkeypatch):
    import hansa_lab.studies.audit as sim_audit

    monkeypatch.setitem(sim_audit.PREDECESSORS, "greedy", "random")
    run = play_audit("greedy", n_players=3, games=6, reference=None,
                     against_predecessor=True, seed=40)
    assert run.predecessor == "random" and not run.reference_play
    match = run.against_predecessor["base"]
    assert sorted(match.games.rotation) == [0, 0, 1, 1, 2, 2]
    focal = match.players.merge(match.games[["game_id", "rotation"]], on="game_id")
    focal = focal[focal.seat == focal.rotation]
    assert set(focal.strategy) == {"greedy"} and len(focal) == 6
    table = predecessor_table({"base": (match.players, match.games)})
    assert table.win_share.iloc[0] == pytest.approx(focal.win_share.mean())
    assert table.win_share.iloc[0] > 0.5  # greedy against two random players
