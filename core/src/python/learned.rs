//! Python bindings of the learned evaluation (registered in `python/mod.rs` by one
//! line): the feature names and vectors, self-play samples for `hansa-lab learn`,
//! the model's forward pass, and the `learned` player as a `CorePolicy`.

use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::boundary::{bounded_list, guard, value_error, MAX_SEATS};
use super::config::PyConfig;
use super::policy::PyPolicy;
use super::position::PyState;
use crate::strategies::features::{feature_names, features, sample_game};
use crate::strategies::greedy::Tip;
use crate::strategies::learned::{HiddenLayer, Learned, ValueModel, MAX_HIDDEN_UNITS};
use crate::strategies::learned_search::LearnedRollout;
use crate::strategies::weights_with;
use crate::strategies::Policy;

/// One self-play game's samples: (seed, rounds, features flattened sample × seat ×
/// feature, final totals, final ranks, actions played, whether the game ended).
type PySamples = (u64, Vec<i32>, Vec<f64>, Vec<i32>, Vec<i32>, usize, bool);

/// The most seeds (games) one `sample_games` call plays.
const MAX_SAMPLE_GAMES: usize = 1 << 16;

/// The feature vector of `seat` in `state` (`FEATURE_NAMES` order).
#[pyfunction]
fn position_features(state: &PyState, seat: usize) -> PyResult<Vec<f64>> {
    if seat >= state.s.n_players() {
        return Err(PyValueError::new_err(format!(
            "seat {seat} out of range: the game has {} seats",
            state.s.n_players()
        )));
    }
    guard("position_features", || Ok(features(&state.s, seat)))
}

/// Self-play games, one per seed, with `seats` (CorePolicy per seat), each decision point
/// sampled with probability `rate`. Runs without the GIL.
#[pyfunction]
fn sample_games(
    py: Python<'_>,
    config: &PyConfig,
    seats: &Bound<'_, PyAny>,
    seeds: &Bound<'_, PyAny>,
    rate: f64,
    max_actions: usize,
) -> PyResult<Vec<PySamples>> {
    let seeds: Vec<u64> = bounded_list("sample_games", "seeds", seeds, MAX_SAMPLE_GAMES)?;
    if !(0.0..=1.0).contains(&rate) {
        return Err(PyValueError::new_err(format!(
            "sample rate must be within [0, 1], got {rate}"
        )));
    }
    let seats: Vec<PyPolicy> = bounded_list("sample_games", "seats", seats, MAX_SEATS)?;
    if seats.len() != config.c.n_players {
        return Err(PyValueError::new_err(format!(
            "sample_games: seats must hold one CorePolicy per seat ({}), got {}",
            config.c.n_players,
            seats.len()
        )));
    }
    let policies: Vec<Policy> = seats.into_iter().map(|p| p.p).collect();
    let base = config.c.clone();
    py.allow_threads(|| {
        guard("sample_games", || {
            let mut out = Vec::with_capacity(seeds.len());
            for seed in seeds {
                let mut c = base.clone();
                c.seed = seed;
                let g = sample_game(&c, &policies, rate, max_actions)
                    .map_err(|e| PyRuntimeError::new_err(format!("seed {seed}: {e}")))?;
                out.push((
                    seed, g.rounds, g.features, g.totals, g.ranks, g.actions, g.ended,
                ));
            }
            Ok(out)
        })
    })
}

/// The most features a model may list (the core computes far fewer: the model is then
/// refused by name), and the most rows one `model_forward` call evaluates.
const MAX_MODEL_FEATURES: usize = 1 << 12;
const MAX_FORWARD_ROWS: usize = 1 << 20;

fn model(
    call: &str,
    names: &Bound<'_, PyAny>,
    mean: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    bias: f64,
    hidden: Option<&Bound<'_, PyAny>>,
) -> PyResult<ValueModel> {
    let list = |name: &str, v: &Bound<'_, PyAny>| -> PyResult<Vec<f64>> {
        bounded_list(call, name, v, MAX_MODEL_FEATURES)
    };
    let names: Vec<String> = bounded_list(call, "names", names, MAX_MODEL_FEATURES)?;
    let (mean, scale, weights) = (
        list("mean", mean)?,
        list("scale", scale)?,
        list("weights", weights)?,
    );
    let m = ValueModel::new(&names, mean, scale, weights, bias).map_err(PyValueError::new_err)?;
    let Some(hidden) = hidden.filter(|h| !h.is_none()) else {
        return Ok(m);
    };
    // (weights unit by unit, one flat list; bias; output)
    let (w, b, o): (Bound<'_, PyAny>, Bound<'_, PyAny>, Bound<'_, PyAny>) =
        hidden.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "{call}: hidden must be (weights, bias, output), three lists of numbers"
            ))
        })?;
    let layer = HiddenLayer {
        weights: bounded_list(
            call,
            "hidden weights",
            &w,
            MAX_HIDDEN_UNITS * MAX_MODEL_FEATURES,
        )?,
        bias: bounded_list(call, "hidden bias", &b, MAX_HIDDEN_UNITS)?,
        output: bounded_list(call, "hidden output", &o, MAX_HIDDEN_UNITS)?,
    };
    m.with_hidden(layer).map_err(value_error(call))
}

/// The model's value of each feature vector of `rows` (the core's forward pass);
/// `hidden`: the model's hidden layer, (weights unit by unit in one list, bias, output).
#[pyfunction]
#[pyo3(signature = (names, mean, scale, weights, bias, rows, hidden=None))]
fn model_forward(
    names: &Bound<'_, PyAny>,
    mean: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    bias: f64,
    rows: &Bound<'_, PyAny>,
    hidden: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<f64>> {
    let m = model("model_forward", names, mean, scale, weights, bias, hidden)?;
    let rows: Vec<Bound<'_, PyAny>> =
        bounded_list("model_forward", "rows", rows, MAX_FORWARD_ROWS)?;
    let rows = rows
        .iter()
        .map(|r| bounded_list::<f64>("model_forward", "each row", r, MAX_MODEL_FEATURES))
        .collect::<PyResult<Vec<_>>>()?;
    if let Some(i) = rows.iter().position(|r| r.len() != m.weights.len()) {
        return Err(PyValueError::new_err(format!(
            "row {i} has {} features, the model {}",
            rows[i].len(),
            m.weights.len()
        )));
    }
    Ok(rows.iter().map(|r| m.forward(r)).collect())
}

/// Refuse a knob of `group` (a group of the range table, limits.json) outside its range,
/// naming the player, the knob and the range.
fn check_knobs(group: &str, knobs: &[(&str, f64)]) -> PyResult<()> {
    for &(name, v) in knobs {
        let limit = crate::limits::parameter_limit(&[group], name)
            .expect("limits.json declares the learned players' knobs");
        limit
            .check(&format!("{group}: {name}"), v)
            .map_err(PyValueError::new_err)?;
    }
    Ok(())
}

/// The `learned` player on a model (ValueError if its features are not the core's;
/// `hidden` as for `model_forward`): `model_weight` × the model's value +
/// `greedy_weight` × greedy's evaluation with its default weights changed by
/// `evaluation` ((name, value) pairs: another greedy-family player's weights);
/// `explore`: the chance of a random active action when nothing improves the position;
/// `tip`: a tip the player carries (`"none"`, or a name of `TIP_NAMES`), weighted
/// `tip_weight` (`tip_threshold`: `keep_supply`'s threshold); `reply`: how many of the
/// following seats' turns each decision looks at (0: the one-ply choice); `temperature`:
/// 0, the best candidate; above 0, a candidate that improves the position drawn with
/// weight exp((value − best) / temperature).
#[pyfunction]
#[pyo3(signature = (names, mean, scale, weights, bias, model_weight=1.0, greedy_weight=0.0,
    explore=0.0, evaluation=Vec::new(), hidden=None, tip="none", tip_weight=1.0,
    tip_threshold=3, reply=0.0, temperature=0.0))]
#[allow(clippy::too_many_arguments)]
fn learned_policy(
    names: &Bound<'_, PyAny>,
    mean: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    bias: f64,
    model_weight: f64,
    greedy_weight: f64,
    explore: f64,
    evaluation: Vec<(String, f64)>,
    hidden: Option<&Bound<'_, PyAny>>,
    tip: &str,
    tip_weight: f64,
    tip_threshold: i64,
    reply: f64,
    temperature: f64,
) -> PyResult<PyPolicy> {
    check_knobs(
        "learned",
        &[
            ("model_weight", model_weight),
            ("greedy_weight", greedy_weight),
            ("explore", explore),
            ("tip_weight", tip_weight),
            ("reply", reply),
            ("temperature", temperature),
        ],
    )?;
    check_knobs("keep_supply", &[("threshold", tip_threshold as f64)])?;
    let tip = Tip::from_name(tip, tip_threshold).map_err(value_error("learned_policy: tip"))?;
    let m = model("learned_policy", names, mean, scale, weights, bias, hidden)?;
    let evaluation =
        weights_with(&evaluation).map_err(value_error("learned_policy: evaluation"))?;
    Ok(PyPolicy {
        p: Policy::Learned(Learned {
            model: Arc::new(m),
            model_weight,
            greedy_weight,
            weights: evaluation,
            explore,
            tip,
            tip_weight,
            reply: reply as u8,
            temperature,
        }),
    })
}

/// `learned_rollout`: the `learned` player's `candidates` best actions, each played out
/// `samples` times by greedy (on the `evaluation` weights) for the turn in progress and
/// `horizon` more turns, the leaves valued by the learned player; only candidates within
/// `gap` of the best one-ply value are played out; `temperature` above 0 draws the
/// candidate played by its playouts' mean value as `learned` draws by its one-ply value
/// (ValueError: a parameter out of its range).
#[pyfunction]
#[pyo3(signature = (names, mean, scale, weights, bias, model_weight=1.0, greedy_weight=0.0,
    explore=0.0, candidates=4.0, samples=2.0, horizon=0.0, evaluation=Vec::new(),
    gap=1e9, hidden=None, tip="none", tip_weight=1.0, tip_threshold=3, temperature=0.0))]
#[allow(clippy::too_many_arguments)]
fn learned_rollout_policy(
    names: &Bound<'_, PyAny>,
    mean: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    weights: &Bound<'_, PyAny>,
    bias: f64,
    model_weight: f64,
    greedy_weight: f64,
    explore: f64,
    candidates: f64,
    samples: f64,
    horizon: f64,
    evaluation: Vec<(String, f64)>,
    gap: f64,
    hidden: Option<&Bound<'_, PyAny>>,
    tip: &str,
    tip_weight: f64,
    tip_threshold: i64,
    temperature: f64,
) -> PyResult<PyPolicy> {
    check_knobs(
        "learned_rollout",
        &[
            ("candidates", candidates),
            ("samples", samples),
            ("horizon", horizon),
            ("gap", gap),
        ],
    )?;
    let one_ply = learned_policy(
        names,
        mean,
        scale,
        weights,
        bias,
        model_weight,
        greedy_weight,
        explore,
        evaluation,
        hidden,
        tip,
        tip_weight,
        tip_threshold,
        0.0,
        temperature,
    )?;
    let Policy::Learned(learned) = one_ply.p else {
        unreachable!("learned_policy builds a Learned policy")
    };
    Ok(PyPolicy {
        p: Policy::LearnedRollout(LearnedRollout {
            learned,
            candidates: candidates as usize,
            samples: samples as usize,
            horizon: horizon as i32,
            gap,
        }),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("FEATURE_NAMES", feature_names())?;
    m.add_function(wrap_pyfunction!(position_features, m)?)?;
    m.add_function(wrap_pyfunction!(sample_games, m)?)?;
    m.add_function(wrap_pyfunction!(model_forward, m)?)?;
    m.add_function(wrap_pyfunction!(learned_policy, m)?)?;
    m.add_function(wrap_pyfunction!(learned_rollout_policy, m)?)?;
    Ok(())
}
