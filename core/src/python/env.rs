//! Python bindings of the environment for learning agents (`core/src/env/`): the action
//! index, observations of a core position, and the vector environment. The user-facing
//! wrappers are in `hansa_lab/env/`.
//!
//! Arrays cross the boundary through the buffer protocol (numpy arrays the caller owns):
//! the core writes into them, with the GIL released for the vector environment.

use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::boundary::{check_len, guard, to_py, CoreError, PyAction};
use super::config::PyConfig;
use super::position::PyState;
use crate::actions::{kind_index, Action, ACTION_KINDS};
use crate::board::board;
use crate::env::action_index::ActionIndex;
use crate::env::observation::{observe_into, Layout, FIELD_NAMES};
use crate::env::vector::{rank_rewards, Buffers, VectorEnv};
use crate::rules::{apply_unchecked, legal};

/// A legal action the index lacks: a bug in the core, never the caller's input.
fn internal() -> PyErr {
    CoreError::new_err(
        "hansa_lab._core: a legal action has no index (a bug in the compiled core; please report)",
    )
}

/// A writable C-contiguous buffer as a slice of `T` (numpy array of the matching dtype).
// the memory belongs to the Python object behind the buffer handle, not to the handle
#[allow(clippy::mut_from_ref)]
fn slice_mut<'a, T: Element>(buf: &'a PyBuffer<T>, name: &str) -> PyResult<&'a mut [T]> {
    if buf.readonly() || !buf.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "buffer {name} must be a writable C-contiguous array"
        )));
    }
    // SAFETY: the buffer is writable, contiguous, holds item_count() items of T (checked
    // by PyBuffer::get) and stays alive (and exported) while `buf` lives.
    Ok(unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr() as *mut T, buf.item_count()) })
}

fn board_of(side: &str, alternative: bool) -> PyResult<&'static crate::board::Board> {
    board(side, alternative).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown board side {side:?}{}",
            if alternative {
                " with east_alternative"
            } else {
                ""
            }
        ))
    })
}

/// The most environments one `CoreVectorEnv` steps (its slots, and the caller's buffers
/// of `n_envs` × the action index, are allocated up front).
pub const MAX_ENVS: usize = 16_384;
/// The most threads one `CoreVectorEnv` steps its environments on.
pub const MAX_THREADS: usize = 256;
/// The player counts of the game (what an observation layout is defined for).
const PLAYERS: std::ops::RangeInclusive<usize> = 2..=5;

/// ValueError unless `lo <= v <= hi`, naming the call, the argument and the range.
fn check_count(call: &str, name: &str, v: usize, lo: usize, hi: usize) -> PyResult<()> {
    if (lo..=hi).contains(&v) {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "{call}: {name} must be {lo}-{hi}, got {v}"
    )))
}

/// The dense action index of one board side.
#[pyclass(name = "CoreActionIndex", module = "hansa_lab._core", frozen)]
pub struct PyActionIndex {
    ix: ActionIndex,
}

#[pymethods]
impl PyActionIndex {
    #[new]
    #[pyo3(signature = (side, alternative=false))]
    fn py_new(side: &str, alternative: bool) -> PyResult<Self> {
        Ok(PyActionIndex {
            ix: ActionIndex::new(board_of(side, alternative)?),
        })
    }

    #[getter]
    fn size(&self) -> usize {
        self.ix.size()
    }

    /// (kind, start, size) of every kind's range, in `ACTION_KINDS` order.
    fn ranges(&self) -> Vec<(&'static str, usize, usize)> {
        (0..ACTION_KINDS.len())
            .map(|k| {
                (
                    ACTION_KINDS[k],
                    self.ix.start[k],
                    self.ix.start[k + 1] - self.ix.start[k],
                )
            })
            .collect()
    }

    /// The integer of an action, None if it has none on this board.
    fn index(&self, kind: &str, a: i32, b: i32, c: i32) -> Option<usize> {
        let k = kind_index(kind)?;
        self.ix.index(&Action::new(k, a, b, c))
    }

    /// The action of an integer, None outside `[0, size)`.
    fn action(&self, i: usize) -> Option<PyAction> {
        self.ix.action(i).map(|a| to_py(&a))
    }
}

/// (name, size) of every observation field of `n_players` on a board side.
#[pyfunction]
#[pyo3(signature = (side, n_players, alternative=false))]
fn observation_fields(
    side: &str,
    n_players: usize,
    alternative: bool,
) -> PyResult<Vec<(&'static str, usize)>> {
    check_count(
        "observation_fields",
        "n_players",
        n_players,
        *PLAYERS.start(),
        *PLAYERS.end(),
    )?;
    let lay = Layout::new(board_of(side, alternative)?, n_players);
    Ok(FIELD_NAMES.iter().copied().zip(lay.sizes).collect())
}

/// Write `seat`'s observation of a core position into `out` (float32, the layout's size).
#[pyfunction]
fn env_observe(state: &PyState, seat: usize, out: PyBuffer<f32>) -> PyResult<()> {
    let s = &state.s;
    if seat >= s.n_players() {
        return Err(PyValueError::new_err(format!(
            "seat {seat} is not a seat of this {}-player game",
            s.n_players()
        )));
    }
    let lay = Layout::new(s.board, s.n_players());
    let out = slice_mut(&out, "out")?;
    check_len("buffer out", out.len(), lay.size(), "observation")?;
    guard("env_observe", || {
        observe_into(s, seat, &lay, out);
        Ok(())
    })
}

/// The integers of a core position's legal actions, in the legal list's order.
#[pyfunction]
fn env_legal_indices(state: &PyState) -> PyResult<Vec<usize>> {
    let ix = ActionIndex::new(state.s.board);
    guard("env_legal_indices", || {
        legal(&state.s)
            .iter()
            .map(|a| ix.index(a).ok_or_else(internal))
            .collect()
    })
}

/// Zero `mask` (uint8, the index's size) and set a 1 at every legal action; returns how
/// many are legal.
#[pyfunction]
fn env_mask(state: &PyState, mask: PyBuffer<u8>) -> PyResult<usize> {
    let ix = ActionIndex::new(state.s.board);
    let mask = slice_mut(&mask, "mask")?;
    check_len("buffer mask", mask.len(), ix.size(), "action index")?;
    guard("env_mask", || {
        mask.fill(0);
        let acts = legal(&state.s);
        for a in &acts {
            mask[ix.index(a).ok_or_else(internal)?] = 1;
        }
        Ok(acts.len())
    })
}

/// Apply the action of integer `i` if it is legal (True); otherwise change nothing (False).
#[pyfunction]
fn env_apply_index(mut state: PyRefMut<'_, PyState>, i: i64) -> PyResult<bool> {
    let s = &mut state.s;
    let ix = ActionIndex::new(s.board);
    let Some(act) = usize::try_from(i).ok().and_then(|i| ix.action(i)) else {
        return Ok(false);
    };
    guard("env_apply_index", || {
        if !legal(s).contains(&act) {
            return Ok(false);
        }
        apply_unchecked(s, &act);
        Ok(true)
    })
}

/// The rank rewards of a finished core position ((n - rank) / (n - 1) per seat).
#[pyfunction]
fn env_rank_rewards(state: &PyState) -> PyResult<Vec<f32>> {
    let s = &state.s;
    if !s.is_over() {
        return Err(PyValueError::new_err(
            "the game is not over: no rewards yet",
        ));
    }
    guard("env_rank_rewards", || {
        let mut out = vec![0.0; s.n_players()];
        rank_rewards(s, &mut out);
        Ok(out)
    })
}

/// Many games stepped in one call (`core/src/env/vector.rs`); the Python side is
/// `hansa_lab.env.VectorEnv`, which owns the buffers.
#[pyclass(name = "CoreVectorEnv", module = "hansa_lab._core")]
pub struct PyVectorEnv {
    env: VectorEnv,
}

/// The caller's six arrays of one call (held, with their buffer exports, for the call).
struct Views {
    obs: PyBuffer<f32>,
    mask: PyBuffer<u8>,
    rewards: PyBuffer<f32>,
    terminated: PyBuffer<u8>,
    truncated: PyBuffer<u8>,
    to_act: PyBuffer<i32>,
}

impl Views {
    fn buffers(&self) -> PyResult<Buffers<'_>> {
        if self.terminated.buf_ptr() == self.truncated.buf_ptr() {
            return Err(PyValueError::new_err(
                "terminated and truncated must be two arrays",
            ));
        }
        Ok(Buffers {
            obs: slice_mut(&self.obs, "obs")?,
            mask: slice_mut(&self.mask, "mask")?,
            rewards: slice_mut(&self.rewards, "rewards")?,
            terminated: slice_mut(&self.terminated, "terminated")?,
            truncated: slice_mut(&self.truncated, "truncated")?,
            to_act: slice_mut(&self.to_act, "to_act")?,
        })
    }
}

impl PyVectorEnv {
    /// Run `call` on the environment and the caller's arrays with the GIL released
    /// (errors as ValueError, a panic as CoreError naming `name`).
    fn call(
        &mut self,
        py: Python<'_>,
        name: &str,
        views: Views,
        call: impl FnOnce(&mut VectorEnv, Buffers<'_>) -> Result<(), String> + Send,
    ) -> PyResult<()> {
        let b = views.buffers()?;
        let env = &mut self.env;
        py.allow_threads(|| guard(name, || call(env, b).map_err(PyValueError::new_err)))
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (config, n_envs, seed, max_actions=20_000, threads=1))]
    fn py_new(
        config: &PyConfig,
        n_envs: usize,
        seed: u64,
        max_actions: i32,
        threads: usize,
    ) -> PyResult<Self> {
        check_count("CoreVectorEnv", "n_envs", n_envs, 1, MAX_ENVS)?;
        check_count("CoreVectorEnv", "threads", threads, 1, MAX_THREADS)?;
        if max_actions < 1 {
            return Err(PyValueError::new_err(format!(
                "CoreVectorEnv: max_actions must be 1-{}, got {max_actions}",
                i32::MAX
            )));
        }
        guard("CoreVectorEnv.__new__", || {
            VectorEnv::new(&config.c, n_envs, seed, max_actions, threads)
                .map(|env| PyVectorEnv { env })
                .map_err(PyValueError::new_err)
        })
    }

    #[getter]
    fn n_envs(&self) -> usize {
        self.env.n_envs()
    }
    #[getter]
    fn n_players(&self) -> usize {
        self.env.n_players()
    }
    #[getter]
    fn obs_size(&self) -> usize {
        self.env.layout.size()
    }
    #[getter]
    fn n_actions(&self) -> usize {
        self.env.index.size()
    }
    /// The threads a call steps the environments on.
    #[getter]
    fn threads(&self) -> usize {
        self.env.threads()
    }
    /// The seed of each environment's game in progress.
    fn game_seeds(&self) -> Vec<u64> {
        self.env.game_seeds()
    }
    /// How many games each environment has started.
    fn games(&self) -> Vec<u64> {
        self.env.games()
    }

    #[allow(clippy::too_many_arguments)]
    fn reset(
        &mut self,
        py: Python<'_>,
        obs: PyBuffer<f32>,
        mask: PyBuffer<u8>,
        rewards: PyBuffer<f32>,
        terminated: PyBuffer<u8>,
        truncated: PyBuffer<u8>,
        to_act: PyBuffer<i32>,
    ) -> PyResult<()> {
        let views = Views {
            obs,
            mask,
            rewards,
            terminated,
            truncated,
            to_act,
        };
        self.call(py, "CoreVectorEnv.reset", views, |env, b| env.reset(b))
    }

    /// One action per environment (int64: an index, or -1 for a random legal action).
    /// `kept=True`: the arrays are the last call's, unchanged since (then only what
    /// changed is written); otherwise every row is written whole.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, obs, mask, rewards, terminated, truncated, to_act, kept=false))]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyBuffer<i64>,
        obs: PyBuffer<f32>,
        mask: PyBuffer<u8>,
        rewards: PyBuffer<f32>,
        terminated: PyBuffer<u8>,
        truncated: PyBuffer<u8>,
        to_act: PyBuffer<i32>,
        kept: bool,
    ) -> PyResult<()> {
        if !actions.is_c_contiguous() {
            return Err(PyValueError::new_err(
                "actions must be a C-contiguous int64 array",
            ));
        }
        // SAFETY: contiguous, item_count() items of i64, alive while `actions` lives; only read.
        let acts: &[i64] = unsafe {
            std::slice::from_raw_parts(actions.buf_ptr() as *const i64, actions.item_count())
        };
        let views = Views {
            obs,
            mask,
            rewards,
            terminated,
            truncated,
            to_act,
        };
        self.call(py, "CoreVectorEnv.step", views, |env, b| {
            env.step(acts, b, kept)
        })
    }
}

/// Register the environment's classes and functions in `hansa_lab._core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_ENVS", MAX_ENVS)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add_class::<PyActionIndex>()?;
    m.add_class::<PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(observation_fields, m)?)?;
    m.add_function(wrap_pyfunction!(env_observe, m)?)?;
    m.add_function(wrap_pyfunction!(env_legal_indices, m)?)?;
    m.add_function(wrap_pyfunction!(env_mask, m)?)?;
    m.add_function(wrap_pyfunction!(env_apply_index, m)?)?;
    m.add_function(wrap_pyfunction!(env_rank_rewards, m)?)?;
    Ok(())
}
