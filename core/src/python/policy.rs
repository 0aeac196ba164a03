//! `CorePolicy`: a strategy the core plays, from its name and parameters.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::boundary::{bounded_list, guard, to_py, PyAction};
use super::position::PyState;
use crate::rng::Rng;
use crate::rules::legal;
use crate::strategies::Policy;

/// The most (name, value) pairs a `CorePolicy` takes (its strategy has a few dozen).
const MAX_POLICY_PARAMS: usize = 1 << 10;

/// A strategy the core plays (`Policy`): its name and every parameter by name.
#[pyclass(name = "CorePolicy", module = "hansa_lab._core", frozen)]
#[derive(Clone)]
pub struct PyPolicy {
    pub(crate) p: Policy,
}

#[pymethods]
impl PyPolicy {
    /// ValueError for a strategy or parameter the core does not have.
    #[new]
    fn py_new(name: &str, params: &Bound<'_, PyAny>) -> PyResult<Self> {
        let params: Vec<(String, f64)> =
            bounded_list("CorePolicy", "params", params, MAX_POLICY_PARAMS)?;
        guard("CorePolicy", || {
            Policy::new(name, &params)
                .map(|p| PyPolicy { p })
                .map_err(PyValueError::new_err)
        })
    }

    /// The action this strategy chooses in `state`, drawing from a SplitMix64 stream
    /// with the given state: (action, the stream's state after), None once over.
    fn choose(&self, state: &PyState, rng_state: u64) -> PyResult<Option<(PyAction, u64)>> {
        guard("CorePolicy.choose", || {
            let acts = legal(&state.s);
            if acts.is_empty() {
                return Ok(None);
            }
            let mut rng = Rng::new(rng_state);
            let a = self.p.choose(&state.s, &acts, &mut rng);
            Ok(Some((to_py(&a), rng.state)))
        })
    }

    /// A search decision with what its search did: (action, the stream's state after,
    /// then for `rollout` playouts, playout actions and the most turns a playout
    /// advanced, for `ismcts` iterations, tree nodes and the deepest node); ValueError for
    /// another strategy, None once the game is over.
    #[allow(clippy::type_complexity)]
    fn search(
        &self,
        state: &PyState,
        rng_state: u64,
    ) -> PyResult<Option<(PyAction, u64, usize, usize, i32)>> {
        if !matches!(self.p, Policy::Rollout(_) | Policy::Ismcts(_)) {
            return Err(PyValueError::new_err(
                "search() is for the rollout and ismcts strategies",
            ));
        }
        guard("CorePolicy.search", || {
            let acts = legal(&state.s);
            if acts.is_empty() {
                return Ok(None);
            }
            let mut rng = Rng::new(rng_state);
            let (a, x, y, z) = match &self.p {
                Policy::Rollout(r) => {
                    let (a, st) = r.search(&state.s, &acts, &mut rng);
                    (a, st.playouts, st.actions, st.max_turns)
                }
                Policy::Ismcts(m) => {
                    let (a, st) = m.search(&state.s, &acts, &mut rng);
                    (a, st.iterations, st.nodes, st.max_depth as i32)
                }
                _ => unreachable!("checked above"),
            };
            Ok(Some((to_py(&a), rng.state, x, y, z)))
        })
    }
}
