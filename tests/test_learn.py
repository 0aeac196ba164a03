"""The learned evaluation: features named and computed in the core (a Python reference
for some), the learner's data set (reproducible, resumable), the core's forward pass equal
to the trainer's, and the learned player's legality and reproducibility."""

from __future__ import annotations

import json

import numpy as np
import pytest

from hansa_lab.compiled.bridge import CoreGame, core_module
from hansa_lab.engine.rules import apply, legal_actions
from hansa_lab.engine.scoring import largest_network, score_rows
from hansa_lab.engine.state import GameConfig, new_game
from hansa_lab.errors import ExperimentError
from hansa_lab.play import play_game
from hansa_lab.strategies import make_strategy
from hansa_lab.strategies.learned import (
    HIDDEN_MODEL_FORMAT,
    MODEL_FORMAT,
    find_model,
    load_model,
    shipped_models,
)
from hansa_lab.studies.learn import (
    HIDDEN_UNITS,
    TEMPO_FEATURES,
    LearnSettings,
    build_dataset,
    feature_names,
    fit_model,
    write_model,
)

core = core_module()
NAMES = feature_names()
SETTINGS = LearnSettings(lineups=(("greedy",) * 3, ("planner", "greedy", "random")),
                         n_players=3, games=6, seed=7, rate=0.1, chunk=4)


#: how the retrain recipe (``compare --retrain``) records the call that reproduces a model
RETRAIN_CALL = "hansa_lab.studies.retrain.retrained_model "


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    folder = tmp_path_factory.mktemp("learn")
    return folder, build_dataset(SETTINGS, folder)


@pytest.fixture(scope="module")
def report(dataset):
    return fit_model(dataset[1], 3, "learned_test")


def test_feature_names_are_fixed_unique_and_in_three_parts():
    n_seat = sum(n.startswith("own_") for n in NAMES)
    assert len(NAMES) == len(set(NAMES)) == 2 * n_seat + 9
    assert [n[4:] for n in NAMES if n.startswith("own_")] == \
        [n[6:] for n in NAMES if n.startswith("rival_")]
    assert {"own_score_total", "own_network", "rival_lv_actions", "round",
            "prestige_end_progress"} <= set(NAMES)


def _position(seed: int, steps: int):
    config = GameConfig(4, seed=seed)
    s = new_game(config)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        acts = legal_actions(s)
        if not acts:
            break
        s = apply(s, acts[int(rng.integers(len(acts)))])
    return s


@pytest.mark.parametrize("seed,steps", [(1, 0), (2, 60), (3, 160)])
def test_core_features_match_a_python_reference(seed, steps):
    s = _position(seed, steps)
    g = CoreGame.from_state(s)
    rows = score_rows(s)
    for seat in range(4):
        f = dict(zip(NAMES, core.position_features(g._s, seat), strict=True))
        assert f["own_score_total"] == sum(rows[seat])
        assert f["own_network"] == largest_network(s, seat)
        assert f["own_lv_actions"] == s.levels[seat][0]
        assert f["own_supply_traders"] == s.supply_t[seat]
        assert f["own_stock_merchants"] == s.stock_m[seat]
        assert f["own_markers_held"] == len(s.markers[seat])
        assert f["own_is_active"] == (s.active == seat)
        assert f["rival_score_total"] == max(sum(r) for i, r in enumerate(rows) if i != seat)
        assert f["round"] == s.round and f["n_players"] == 4
        assert f["own_pieces_on_routes"] == sum(1 for o in s.posts if o >= 0 and o >> 1 == seat)
    with pytest.raises(ValueError, match="seat 4 out of range"):
        core.position_features(g._s, 4)


def test_dataset_labels_each_seat_with_its_final_outcome(dataset):
    _, ds = dataset
    assert ds.x.shape == (len(ds), len(NAMES)) and len(ds) > 100
    assert set(np.unique(ds.game)) <= set(range(12))
    for g in np.unique(ds.game):
        rows = ds.game == g
        # the best seat's margin is its lead (> 0, or 0 in a tie); winners have the best
        assert ds.margin[rows].max() >= 0
        assert (ds.margin[rows & ds.win] == ds.margin[rows].max()).all()
    # the label is the final outcome: the same in every sample of a game and seat
    for g, p in {(int(g), int(p)) for g, p in zip(ds.game, ds.seat, strict=True)}:
        assert len(np.unique(ds.margin[(ds.game == g) & (ds.seat == p)])) == 1


def test_dataset_resumes_and_is_reproducible(dataset, tmp_path):
    _, ds = dataset
    again = build_dataset(SETTINGS, tmp_path / "fresh")
    assert np.array_equal(again.x, ds.x) and np.array_equal(again.margin, ds.margin)
    # an interrupted build: a chunk missing, and a left-over temporary file
    chunks = sorted((tmp_path / "fresh").glob("chunk_*.npz"))
    chunks[1].unlink()
    (tmp_path / "fresh" / "chunk_00_000000.npz.tmp.npz").write_bytes(b"partial")
    kept = chunks[0].stat().st_mtime_ns
    resumed = build_dataset(SETTINGS, tmp_path / "fresh")
    assert np.array_equal(resumed.x, ds.x) and np.array_equal(resumed.win, ds.win)
    assert chunks[0].stat().st_mtime_ns == kept  # finished chunks are not played again
    other = LearnSettings(lineups=SETTINGS.lineups, n_players=3, games=6, seed=8, rate=0.1,
                          chunk=4)
    with pytest.raises(ExperimentError, match="seed"):
        build_dataset(other, tmp_path / "fresh")


def test_core_forward_pass_equals_the_trainer(dataset, report):
    _, ds = dataset
    m = report.model
    x = ds.x[::7]
    trainer = ((x - np.array(m.mean)) / np.array(m.scale)) @ np.array(m.weights) + m.bias
    got = core.model_forward(*m.core_args(), x.tolist())
    assert np.allclose(got, trainer, rtol=1e-10, atol=1e-9)
    assert np.allclose([m.forward(list(r)) for r in x], trainer, rtol=1e-10, atol=1e-9)
    assert report.split["test_games"] >= 2 and "winner_accuracy" in report.test


def test_model_file_round_trips_and_bad_models_are_refused(report, tmp_path):
    path = write_model(report, SETTINGS, tmp_path / "m.json", command=["hansa-lab", "learn"])
    m = load_model(path)
    assert m.weights == report.model.weights and m.features == tuple(NAMES)
    d = json.loads(path.read_text())
    assert d["training"]["command"] == "hansa-lab learn" and d["training"]["seed"] == 7
    assert d["training"]["data"]["lineups"] == ["greedy,greedy,greedy", "planner,greedy,random"]
    names = list(NAMES)
    names[5] = "own_something"
    with pytest.raises(ValueError, match='model feature 5 is "own_something"'):
        core.learned_policy(names, *m.core_args()[1:])
    d["weights"] = d["weights"][:-1]
    (tmp_path / "bad.json").write_text(json.dumps(d))
    with pytest.raises(ValueError, match="weights: must list"):
        load_model(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="no learned model 'nope'"):
        make_strategy("learned:model=nope")


def test_learned_player_is_legal_and_reproducible_in_both_engines(report, tmp_path):
    path = write_model(report, SETTINGS, tmp_path / "m.json")
    spec = f"learned:model={path}"
    config = GameConfig(3, seed=404)
    lineup = [spec, "greedy", "greedy"]
    a = play_game(config, lineup, check=True, engine="core")
    b = play_game(config, lineup, engine="core")
    assert a.actions == b.actions and a.final.end_reason
    assert play_game(GameConfig(3, seed=405), lineup, engine="core").actions != a.actions
    # the Python engine (which asks the core for the learned seat's decisions) plays the
    # same game, every action checked legal by its rules
    py = play_game(config, lineup, check=True)
    assert py.actions == a.actions


def test_the_shipped_models_are_found_by_name_and_match_the_core():
    assert "learned_base4p" in shipped_models()
    for name in shipped_models():
        m = load_model(find_model(name))
        assert m.features == tuple(NAMES), name
        # the command that reproduces it: `hansa-lab learn`, or the retrain recipe's call
        assert m.meta["training"]["command"].startswith(("hansa-lab learn", RETRAIN_CALL)), name
        assert "winner_accuracy" in m.meta["heldout"], name
        core.learned_policy(*m.core_args())  # accepted by the core
    s = make_strategy("learned")
    assert s.params == {"model": "auto", "model_weight": 1.5, "greedy_weight": 1.0,
                        "explore": 0.5, "evaluation": "greedy", "tip": "none",
                        "tip_weight": 1.0, "reply": 0, "temperature": 0.05}


def test_evaluation_hands_another_greedy_players_weights_to_the_blend():
    """``evaluation=planner`` hands the planner's weights to the core, and both learned
    players then decide otherwise; an archetype is accepted; a tip, a search, depth 2 or
    an unknown name is refused naming the player and the parameter; the core refuses a
    weight it does not have and a value outside its range."""
    planner = make_strategy("planner").params
    weights = make_strategy("learned:evaluation=planner")._evaluation
    assert dict(weights)["plan_actions"] == planner["plan_actions"] != 0.0
    assert dict(make_strategy("learned")._evaluation)["plan_actions"] == 0.0
    config = GameConfig(4, seed=406)
    for plain, other in [("learned", "learned:evaluation=planner"),
                         ("learned_rollout:samples=1,horizon=1",
                          "learned_rollout:samples=1,horizon=1,evaluation=planner")]:
        a = play_game(config, [plain] + ["greedy"] * 3, max_actions=300, engine="core")
        b = play_game(config, [other] + ["greedy"] * 3, max_actions=300, engine="core")
        assert a.actions != b.actions, other
    assert make_strategy("learned:evaluation=actions_rush")._evaluation != weights
    for bad in ("blocker", "strong", "greedy:depth=2", "no_such_player"):
        with pytest.raises(ValueError, match="'learned' parameter 'evaluation'"):
            make_strategy(f"learned:evaluation={bad}")
    with pytest.raises(ValueError, match="'strong' parameter 'evaluation'"):
        make_strategy("strong:evaluation=blocker")
    m = load_model(find_model("learned_base4p"))
    with pytest.raises(ValueError, match='no weight "no_such_weight"'):
        core.learned_policy(*m.core_args(), evaluation=[("no_such_weight", 1.0)])
    with pytest.raises(ValueError, match=r"learned_policy: evaluation: .*route"):
        core.learned_policy(*m.core_args(), evaluation=[("route", float("nan"))])


def test_fit_model_refuses_an_unknown_kind(dataset):
    with pytest.raises(ValueError, match="model kinds must be among ridge_margin, "
                                         "logistic_win, mlp_win, got mlp"):
        fit_model(dataset, 1, "x", kinds=("mlp",))


@pytest.fixture(scope="module")
def network(dataset):
    return fit_model(dataset[1], 3, "learned_test_mlp", kinds=("mlp_win",))


def test_a_hidden_layer_runs_alike_in_the_core_the_trainer_and_python(dataset, network):
    """``mlp_win``: the core's forward pass equals the trainer's formula and the Python
    one; the hidden layer changes the values (the linear part alone differs); features
    left out of the fit get no hidden weight; the core refuses a layer of the wrong
    shape, naming the call."""
    _, ds = dataset
    m = network.model
    assert m.kind == "mlp_win" and network.epochs >= 1
    assert m.hidden is not None and len(m.hidden.bias) == HIDDEN_UNITS
    x = ds.x[::5]
    z = (x - np.array(m.mean)) / np.array(m.scale)
    hidden_w = np.array(m.hidden.weights)
    trainer = (m.bias + z @ np.array(m.weights)
               + np.maximum(z @ hidden_w.T + np.array(m.hidden.bias), 0.0)
               @ np.array(m.hidden.output))
    got = core.model_forward(*m.core_args(), x.tolist(), hidden=m.core_hidden())
    assert np.allclose(got, trainer, rtol=1e-10, atol=1e-9)
    assert np.allclose([m.forward(list(r)) for r in x], trainer, rtol=1e-10, atol=1e-9)
    linear = core.model_forward(*m.core_args(), x.tolist())
    assert np.max(np.abs(np.array(linear) - trainer)) > 1e-3
    left_out = [i for i, n in enumerate(NAMES) if n in TEMPO_FEATURES]
    assert left_out and not hidden_w[:, left_out].any()
    flat, bias, output = m.core_hidden()
    with pytest.raises(ValueError, match="learned_policy: model hidden output has 31"):
        core.learned_policy(*m.core_args(), hidden=(flat, bias, output[:-1]))
    with pytest.raises(ValueError, match=r"hidden must be \(weights, bias, output\)"):
        core.learned_policy(*m.core_args(), hidden=(flat, bias))


def test_a_hidden_layer_model_file_plays_in_both_engines(network, tmp_path):
    """The file of an ``mlp_win`` model is of the second format and round-trips; one with
    its layer missing or misshapen is refused naming the field; ``strong`` on it plays
    legal, reproducible games in both engines, and otherwise than on its linear part."""
    path = write_model(network, SETTINGS, tmp_path / "n.json")
    d = json.loads(path.read_text())
    assert d["format"] == HIDDEN_MODEL_FORMAT
    assert f"({HIDDEN_UNITS} hidden units" in d["training"]["choice"]
    m = load_model(path)
    assert m.hidden == network.model.hidden and m.weights == network.model.weights
    for broken, message in [({k: v for k, v in d.items() if k != "hidden"},
                             "needs a 'hidden' field"),
                            ({**d, "hidden": {**d["hidden"], "weights": [
                                *d["hidden"]["weights"][:3], [0.0],
                                *d["hidden"]["weights"][4:]]}},
                             r"hidden.weights\[3\]: must list")]:
        (tmp_path / "bad.json").write_text(json.dumps(broken))
        with pytest.raises(ValueError, match=message):
            load_model(tmp_path / "bad.json")
    linear_only = {**{k: v for k, v in d.items() if k != "hidden"}, "format": MODEL_FORMAT,
                   "kind": "logistic_win"}
    (tmp_path / "linear.json").write_text(json.dumps(linear_only))
    config = GameConfig(3, seed=407)
    lineup = [f"strong:model={path}", "greedy", "greedy"]
    a = play_game(config, lineup, check=True, engine="core")
    assert play_game(config, lineup, engine="core").actions == a.actions and a.final.end_reason
    assert play_game(config, lineup, check=True).actions == a.actions
    other = play_game(config, [f"strong:model={tmp_path / 'linear.json'}", "greedy",
                                    "greedy"], engine="core")
    assert other.actions != a.actions


def test_learn_command_writes_a_model_the_player_loads(tmp_path, capsys):
    from hansa_lab.tools.cli import main

    data = tmp_path / "data"
    argv = ["learn", "--players", "3", "--lineup", "greedy", "--games", "6", "--chunk", "3",
            "--rate", "0.2", "--seed", "3", "--data", str(data), "--name", "learned_t",
            "--json", "--no-progress"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    model = load_model(summary["model"])
    assert model.name == "learned_t" and summary["test_games"] >= 1
    assert model.meta["training"]["command"].startswith("hansa-lab learn")
    assert len(list(data.glob("chunk_*.npz"))) == 2
    assert main(argv) == 0  # resumed: nothing left to play, the same model again
    assert load_model(summary["model"]).weights == model.weights
    assert main(["learn-measure", "--players", "3", "--challenger",
                 f"learned:model={summary['model']}", "--against", "greedy", "--deals", "1",
                 "--json"]) == 0
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert row["games"] == 3 and 0 <= row["win_share"] <= 1 and row["cost_ratio"] > 0
    # one kind forced: fitted from the same data (resumed), and the command records it
    assert main([*argv, "--kind", "ridge_margin"]) == 0
    ridge = load_model(json.loads(capsys.readouterr().out)["model"])
    assert ridge.kind == "ridge_margin"
    assert ridge.meta["training"]["command"].endswith("--kind ridge_margin")
    assert set(ridge.meta["training"]["validation"]) == {
        f"ridge_margin:{a}" for a in ("0.1", "1", "10", "100")}
    bad = ["learn", "--players", "3", "--lineup", "greedy,greedy", "--data", str(data)]
    assert main(bad) == 2
    assert "line-up 1 (greedy,greedy) has 2 seats for 3 players" in capsys.readouterr().err
