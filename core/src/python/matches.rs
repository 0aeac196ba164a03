//! `CoreMatch`: one game in progress, the core playing its seats and stopping for the
//! seats decided in Python.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::boundary::{apply_from_py, bounded_list, event_row, guard, to_py, PyAction, MAX_SEATS};
use super::policy::PyPolicy;
use super::position::PyState;
use crate::play::Match;

/// One game in progress (`Match`): the core plays the seats it has a strategy for and
/// stops for the others, whose actions come through `apply`.
#[pyclass(name = "CoreMatch", module = "hansa_lab._core")]
pub struct PyMatch {
    m: Match,
}

#[pymethods]
impl PyMatch {
    /// From `state` (copied); `seats[p]`: a CorePolicy, or None for a seat decided in
    /// Python; seat streams from `seed`; `log`: build the turns and events rows.
    #[new]
    fn py_new(
        state: &PyState,
        seats: &Bound<'_, PyAny>,
        seed: u64,
        max_actions: usize,
        log: bool,
    ) -> PyResult<Self> {
        let seats: Vec<Option<PyPolicy>> = bounded_list("CoreMatch", "seats", seats, MAX_SEATS)?;
        let seats = seats.into_iter().map(|p| p.map(|p| p.p)).collect();
        guard("CoreMatch", || {
            Match::new(state.s.clone(), seats, seed, max_actions, log)
                .map(|m| PyMatch { m })
                .map_err(PyValueError::new_err)
        })
    }

    /// Play the core's seats until the game is done (None) or a Python seat must
    /// decide (its index). Runs without the GIL.
    fn advance(&mut self, py: Python<'_>) -> PyResult<Option<usize>> {
        let m = &mut self.m;
        py.allow_threads(|| {
            guard("CoreMatch.advance", || {
                m.advance().map_err(PyRuntimeError::new_err)
            })
        })
    }

    /// Apply a Python seat's action: False (nothing changed) if it is not legal.
    fn apply(
        &mut self,
        kind: &Bound<'_, PyAny>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        apply_from_py("CoreMatch.apply", [kind, a, b, c], |act| {
            self.m.apply_external(act)
        })
    }

    /// Close the logs (the last, possibly partial, turn).
    fn finish(&mut self) -> PyResult<()> {
        guard("CoreMatch.finish", || {
            self.m.finish();
            Ok(())
        })
    }

    /// A copy of the current position.
    fn state(&self) -> PyResult<PyState> {
        guard("CoreMatch.state", || {
            Ok(PyState {
                s: self.m.state.clone(),
            })
        })
    }

    #[getter]
    fn n_actions(&self) -> usize {
        self.m.actions.len()
    }

    #[getter]
    fn is_done(&self) -> PyResult<bool> {
        guard("CoreMatch.is_done", || Ok(self.m.is_done()))
    }

    #[getter]
    fn quiet_rounds(&self) -> i32 {
        self.m.stall.longest
    }

    /// The actions so far as (kind, a, b, c) tuples.
    fn actions(&self) -> PyResult<Vec<PyAction>> {
        guard("CoreMatch.actions", || {
            Ok(self.m.actions.iter().map(to_py).collect())
        })
    }

    /// The `turns` rows so far, as little-endian int32 bytes (rows × TURN_COLUMNS).
    fn turn_rows(&self) -> PyResult<Vec<u8>> {
        guard("CoreMatch.turn_rows", || {
            Ok(match &self.m.log {
                None => Vec::new(),
                Some(log) => log.turns.iter().flat_map(|v| v.to_le_bytes()).collect(),
            })
        })
    }

    /// The `events` rows so far: (action index, round, turn, seat, kind, other seat,
    /// route, city index or -1, detail, value).
    #[allow(clippy::type_complexity)]
    fn events(
        &self,
    ) -> PyResult<Vec<(i32, i32, i32, i32, &'static str, i32, i32, i32, String, i32)>> {
        guard("CoreMatch.events", || {
            let Some(log) = &self.m.log else {
                return Ok(Vec::new());
            };
            Ok(log
                .events
                .iter()
                .map(|(i, rnd, turn, e)| {
                    let (kind, seat, other, route, city, detail, value) = event_row(e);
                    (
                        *i, *rnd, *turn, seat, kind, other, route, city, detail, value,
                    )
                })
                .collect())
        })
    }
}
