//! Python bindings of positions as text and perft (`core/src/position/`,
//! `core/src/perft.rs`); the Python side is `hansa_lab.compiled.bridge` (`core_from_text`,
//! `core_to_text`, `core_perft`, `core_divide`).

use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

use super::boundary::guard;
use super::config::PyConfig;
use super::position::PyState;
use crate::actions::ACTION_KINDS;
use crate::perft::{divide_until, perft_until};
use crate::position::{from_text, to_text};

/// The deepest perft a call runs (the tree grows about 50-fold per ply).
pub const MAX_PERFT_DEPTH: u32 = 8;
/// The longest position text accepted (a real one is about 1,000 characters).
const MAX_TEXT: usize = 1 << 16;

fn check_depth(call: &str, depth: u32) -> PyResult<()> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PyValueError::new_err(format!(
            "{call}: depth must be 0-{MAX_PERFT_DEPTH}, got {depth}"
        )));
    }
    Ok(())
}

/// The position a text describes, in the game `config` (ValueError naming the field
/// and its column for malformed text).
#[pyfunction]
fn position_from_text(config: &PyConfig, text: &str) -> PyResult<PyState> {
    guard("position_from_text", || {
        if text.len() > MAX_TEXT {
            return Err(PyValueError::new_err(format!(
                "position text: {} characters, more than {MAX_TEXT}",
                text.len()
            )));
        }
        from_text(text, &config.c)
            .map(|s| PyState { s })
            .map_err(|e| PyValueError::new_err(e.0))
    })
}

/// The position as text; `options`: the rule options' compact JSON (`{}` by default).
#[pyfunction]
fn position_to_text(state: &PyState, options: &str) -> PyResult<String> {
    guard("position_to_text", || Ok(to_text(&state.s, options)))
}

/// Whether a signal handler raised (Ctrl-C's KeyboardInterrupt, a SIGTERM handler's
/// exception): the handlers run here, with the GIL taken back for a moment; the exception
/// is kept in `raised`.
fn signalled(raised: &mut Option<PyErr>) -> bool {
    match Python::with_gil(|py| py.check_signals()) {
        Ok(()) => false,
        Err(e) => {
            *raised = Some(e);
            true
        }
    }
}

/// The exception that stopped a count (KeyboardInterrupt if none was kept).
fn stop_error(raised: Option<PyErr>) -> PyErr {
    raised.unwrap_or_else(|| PyKeyboardInterrupt::new_err("perft stopped"))
}

/// The number of action sequences of length `depth` from `state`; Ctrl-C (or another
/// signal whose handler raises) stops it with that exception.
#[pyfunction]
fn position_perft(py: Python<'_>, state: &PyState, depth: u32) -> PyResult<u64> {
    check_depth("position_perft", depth)?;
    let s = state.s.clone();
    guard("position_perft", || {
        let mut raised = None;
        py.allow_threads(|| perft_until(&s, depth, &mut || signalled(&mut raised)))
            .ok_or_else(|| stop_error(raised))
    })
}

/// perft below each legal action, in the legal order: ((kind, a, b, c), count); stops
/// on a signal as `position_perft`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn position_divide(
    py: Python<'_>,
    state: &PyState,
    depth: u32,
) -> PyResult<Vec<((&'static str, i32, i32, i32), u64)>> {
    check_depth("position_divide", depth)?;
    let s = state.s.clone();
    guard("position_divide", || {
        let mut raised = None;
        let rows = py
            .allow_threads(|| divide_until(&s, depth, &mut || signalled(&mut raised)))
            .ok_or_else(|| stop_error(raised))?;
        Ok(rows
            .into_iter()
            .map(|(a, n)| ((ACTION_KINDS[a.kind as usize], a.a, a.b, a.c), n))
            .collect())
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_PERFT_DEPTH", MAX_PERFT_DEPTH)?;
    m.add_function(wrap_pyfunction!(position_from_text, m)?)?;
    m.add_function(wrap_pyfunction!(position_to_text, m)?)?;
    m.add_function(wrap_pyfunction!(position_perft, m)?)?;
    m.add_function(wrap_pyfunction!(position_divide, m)?)?;
    Ok(())
}
