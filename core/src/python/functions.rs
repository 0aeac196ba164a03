//! The module's functions: random games, timings and the generator's outputs.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::boundary::{bounded_list, guard, to_py, PyAction};
use super::config::PyConfig;
use super::position::PyState;
use crate::play::play_random;
use crate::rng::Rng;

/// The most seeds (games) [`play_random_games`] plays in one call.
const MAX_RANDOM_GAMES: usize = 1 << 20;
/// The most outputs [`rng_outputs`] returns (a test helper: about 40 MB as Python ints).
const MAX_RNG_OUTPUTS: usize = 1 << 20;
/// The most games [`timings`] plays (it keeps every 5th position of them in memory:
/// some 100 MB at most; the benchmark plays 50).
const MAX_TIMING_GAMES: u64 = 200;

/// Play random games in the core: returns (games, actions, capped games) for the seeds
/// (the configuration's own seed is not used).
#[pyfunction]
fn play_random_games(
    py: Python<'_>,
    config: &PyConfig,
    seeds: &Bound<'_, PyAny>,
    max_actions: usize,
) -> PyResult<(usize, usize, usize)> {
    let seeds: Vec<u64> = bounded_list("play_random_games", "seeds", seeds, MAX_RANDOM_GAMES)?;
    let mut config = config.c.clone();
    py.allow_threads(|| {
        guard("play_random_games", || {
            let (mut games, mut actions, mut capped) = (0, 0, 0);
            for seed in seeds {
                config.seed = seed;
                let (s, _, n) =
                    play_random(&config, max_actions, false).map_err(PyRuntimeError::new_err)?;
                games += 1;
                actions += n;
                capped += usize::from(!s.is_over());
            }
            Ok((games, actions, capped))
        })
    })
}

/// One random game in the core: (final state, actions as tuples).
#[pyfunction]
fn play_random_game(config: &PyConfig, max_actions: usize) -> PyResult<(PyState, Vec<PyAction>)> {
    guard("play_random_game", || {
        let (s, actions, _) =
            play_random(&config.c, max_actions, true).map_err(PyRuntimeError::new_err)?;
        Ok((PyState { s }, actions.iter().map(to_py).collect()))
    })
}

/// (copy, legal list, score) in nanoseconds per position, over random games' positions.
#[pyfunction]
fn timings(config: &PyConfig, games: u64) -> PyResult<(f64, f64, f64)> {
    if games > MAX_TIMING_GAMES {
        return Err(PyValueError::new_err(format!(
            "timings: games must be 0-{MAX_TIMING_GAMES}, got {games}"
        )));
    }
    guard("timings", || {
        crate::play::timings(&config.c, games).map_err(PyRuntimeError::new_err)
    })
}

/// SplitMix64 outputs from a state (for the generator's cross-language test).
#[pyfunction]
fn rng_outputs(state: u64, n: usize) -> PyResult<Vec<u64>> {
    if n > MAX_RNG_OUTPUTS {
        return Err(PyValueError::new_err(format!(
            "rng_outputs: n must be 0-{MAX_RNG_OUTPUTS}, got {n}"
        )));
    }
    guard("rng_outputs", || {
        let mut r = Rng::new(state);
        Ok((0..n).map(|_| r.next_u64()).collect())
    })
}

/// Add the functions to the module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_random_games, m)?)?;
    m.add_function(wrap_pyfunction!(play_random_game, m)?)?;
    m.add_function(wrap_pyfunction!(timings, m)?)?;
    m.add_function(wrap_pyfunction!(rng_outputs, m)?)?;
    Ok(())
}
