//! `CoreState`: a position of the core, its queries, and its fields both ways (every
//! field as plain Python values; a dict of them, size-checked and validated, back).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use super::boundary::{apply_from_py, check_sizes, event_row, guard, to_py, PyAction, PyEvent};
use super::config::PyConfig;
use super::validate::validate;
use crate::decisions::Decision;
use crate::rules::{apply_unchecked, legal};
use crate::scoring::{ranking, score_rows};
use crate::state::{new_game, State};

/// The most items a list of a position's fields may hold (and each list inside it): the
/// largest board has some 150 posts.
const MAX_FIELD_ITEMS: usize = 4096;

/// A game position of the compiled core.
#[pyclass(name = "CoreState", module = "hansa_lab._core")]
#[derive(Clone)]
pub struct PyState {
    pub(crate) s: State,
}

#[pymethods]
impl PyState {
    /// Set up a game (`new_game`); NotImplementedError for a configuration the core does
    /// not cover yet.
    #[new]
    fn py_new(config: &PyConfig) -> PyResult<Self> {
        guard("CoreState", || {
            new_game(&config.c)
                .map(|s| PyState { s })
                .map_err(PyValueError::new_err)
        })
    }

    fn copy(&self) -> PyResult<Self> {
        guard("CoreState.copy", || Ok(self.clone()))
    }

    #[getter]
    fn current_player(&self) -> PyResult<usize> {
        guard("CoreState.current_player", || Ok(self.s.current_player()))
    }

    #[getter]
    fn is_over(&self) -> PyResult<bool> {
        guard("CoreState.is_over", || Ok(self.s.is_over()))
    }

    #[getter]
    fn n_actions(&self) -> i32 {
        self.s.n_actions
    }

    /// Legal actions as (kind, a, b, c) tuples, in the Python engine's order.
    fn legal_actions(&self) -> PyResult<Vec<PyAction>> {
        guard("CoreState.legal_actions", || {
            Ok(legal(&self.s).iter().map(to_py).collect())
        })
    }

    /// Apply an action if it is legal (True); leave the state unchanged and return False
    /// otherwise (any garbage input included).
    fn try_apply(
        &mut self,
        kind: &Bound<'_, PyAny>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        apply_from_py("CoreState.try_apply", [kind, a, b, c], |act| {
            if !legal(&self.s).contains(&act) {
                return false;
            }
            // on a copy: a panic half-way (a bug) leaves the position as it was
            let mut next = self.s.clone();
            apply_unchecked(&mut next, &act);
            self.s = next;
            true
        })
    }

    /// Events of the last applied action: (kind, seat, other, route, city, detail, value).
    fn events(&self) -> PyResult<Vec<PyEvent>> {
        guard("CoreState.events", || {
            Ok(self.s.events.iter().map(event_row).collect())
        })
    }

    /// Score if the game ended now: per player, the categories of CATEGORIES.
    fn score_rows(&self) -> PyResult<Vec<Vec<i32>>> {
        guard("CoreState.score_rows", || {
            Ok(score_rows(&self.s).iter().map(|r| r.to_vec()).collect())
        })
    }

    fn ranking(&self) -> PyResult<Vec<i32>> {
        guard("CoreState.ranking", || {
            let rows = score_rows(&self.s);
            Ok(ranking(&self.s, &rows))
        })
    }

    /// Every field as plain Python values (markers, tiles and end reasons as indices).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        guard("CoreState.to_dict", || self.fields(py))
    }

    /// Overwrite every field from a dict shaped like :meth:`to_dict` (a ValueError names
    /// the first malformed field; the state is unchanged then).
    fn set_fields(&mut self, d: &Bound<'_, PyDict>) -> PyResult<()> {
        guard("CoreState.set_fields", || {
            let mut s = self.s.clone();
            read_fields(&mut s, d)?;
            validate(&s).map_err(PyValueError::new_err)?;
            self.s = s;
            Ok(())
        })
    }
}

impl PyState {
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.s;
        let d = PyDict::new(py);
        d.set_item("posts", s.posts.clone())?;
        d.set_item("offices", s.offices.clone())?;
        d.set_item("extras", s.extras.clone())?;
        d.set_item("supply_t", s.supply_t.clone())?;
        d.set_item("supply_m", s.supply_m.clone())?;
        d.set_item("stock_t", s.stock_t.clone())?;
        d.set_item("stock_m", s.stock_m.clone())?;
        d.set_item("prestige", s.prestige.clone())?;
        d.set_item(
            "levels",
            s.levels.iter().map(|l| l.to_vec()).collect::<Vec<_>>(),
        )?;
        d.set_item("markers", s.markers.clone())?;
        d.set_item("markers_used", s.markers_used.clone())?;
        d.set_item("route_marker", s.route_marker.clone())?;
        d.set_item("bag", s.bag.clone())?;
        d.set_item("drawn", s.drawn.clone())?;
        d.set_item("special", s.special.clone())?;
        d.set_item("special_points", s.special_points.clone())?;
        d.set_item("east_west", s.east_west.clone())?;
        d.set_item("discarded", s.discarded.clone())?;
        d.set_item("permits_used", s.permits_used.clone())?;
        d.set_item("neutral_pool", s.neutral_pool)?;
        d.set_item("favour_display", s.favour_display.clone())?;
        d.set_item("favours", s.favours.clone())?;
        d.set_item("turn_start", s.turn_start)?;
        d.set_item("active", s.active)?;
        d.set_item("actions_left", s.actions_left)?;
        d.set_item("round", s.round)?;
        d.set_item("turn", s.turn)?;
        d.set_item("n_actions", s.n_actions)?;
        d.set_item("completed", s.completed)?;
        let pending = PyList::empty(py);
        for f in &s.pending {
            let mut items = vec![f.kind().into_pyobject(py)?.into_any()];
            for v in f.values() {
                items.push(v.into_pyobject(py)?.into_any());
            }
            let t = PyTuple::new(py, items)?;
            pending.append(t)?;
        }
        d.set_item("pending", pending)?;
        d.set_item("end_reason", s.end_reason)?;
        d.set_item("end_after_action", s.end_after_action)?;
        Ok(d)
    }
}

/// Field `key` of `d`, its lists' sizes checked before it is converted.
fn get<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => {
            check_sizes(&format!("state field {key}"), &v, MAX_FIELD_ITEMS, 2)?;
            v.extract()
                .map_err(|e| PyValueError::new_err(format!("state field {key}: {e}")))
        }
        None => Err(PyValueError::new_err(format!(
            "state field {key} is missing"
        ))),
    }
}

fn read_fields(s: &mut State, d: &Bound<'_, PyDict>) -> PyResult<()> {
    s.posts = get(d, "posts")?;
    s.offices = get(d, "offices")?;
    s.extras = get(d, "extras")?;
    s.supply_t = get(d, "supply_t")?;
    s.supply_m = get(d, "supply_m")?;
    s.stock_t = get(d, "stock_t")?;
    s.stock_m = get(d, "stock_m")?;
    s.prestige = get(d, "prestige")?;
    let levels: Vec<Vec<u8>> = get(d, "levels")?;
    s.levels = levels
        .iter()
        .map(|l| {
            if l.len() == 5 {
                Ok([l[0], l[1], l[2], l[3], l[4]])
            } else {
                Err(PyValueError::new_err(
                    "state field levels: 5 abilities per player",
                ))
            }
        })
        .collect::<PyResult<_>>()?;
    s.markers = get(d, "markers")?;
    s.markers_used = get(d, "markers_used")?;
    s.route_marker = get(d, "route_marker")?;
    s.bag = get(d, "bag")?;
    s.drawn = get(d, "drawn")?;
    s.special = get(d, "special")?;
    s.special_points = get(d, "special_points")?;
    s.east_west = get(d, "east_west")?;
    s.discarded = get(d, "discarded")?;
    s.permits_used = get(d, "permits_used")?;
    s.neutral_pool = get(d, "neutral_pool")?;
    s.favour_display = get(d, "favour_display")?;
    s.favours = get(d, "favours")?;
    s.turn_start = get(d, "turn_start")?;
    s.active = get(d, "active")?;
    s.actions_left = get(d, "actions_left")?;
    s.round = get(d, "round")?;
    s.turn = get(d, "turn")?;
    s.n_actions = get(d, "n_actions")?;
    s.completed = get(d, "completed")?;
    s.end_reason = get(d, "end_reason")?;
    s.end_after_action = get(d, "end_after_action")?;
    let pending: Vec<Bound<'_, PyTuple>> = get(d, "pending")?;
    s.pending.clear();
    for t in pending {
        let kind: String = t
            .get_item(0)
            .and_then(|k| k.extract())
            .map_err(|_| PyValueError::new_err("state field pending: (kind, player, ...)"))?;
        let ints: Vec<i64> = t
            .iter()
            .skip(1)
            .map(|x| x.extract::<i64>())
            .collect::<PyResult<_>>()
            .map_err(|_| PyValueError::new_err("state field pending: integer fields"))?;
        let bad = || PyValueError::new_err(format!("state field pending: bad {kind:?} decision"));
        let u = |i: usize| -> PyResult<usize> {
            ints.get(i)
                .and_then(|v| usize::try_from(*v).ok())
                .ok_or_else(bad)
        };
        let n = |i: usize| -> PyResult<i32> {
            ints.get(i)
                .and_then(|v| i32::try_from(*v).ok())
                .ok_or_else(bad)
        };
        let f = match (kind.as_str(), ints.len()) {
            ("relocate", 4) => Decision::Relocate {
                player: u(0)?,
                origin: u(1)?,
                piece: n(2)?,
                extras: n(3)?,
            },
            ("relocate_neutral", 4) => Decision::RelocateNeutral {
                player: u(0)?,
                origin: u(1)?,
                piece: n(2)?,
                extras: n(3)?,
            },
            ("move", 2) => Decision::Move {
                player: u(0)?,
                left: n(1)?,
            },
            ("move3", 2) => Decision::MoveOpponents {
                player: u(0)?,
                left: n(1)?,
            },
            ("remove3", 2) => Decision::RemoveOpponents {
                player: u(0)?,
                left: n(1)?,
            },
            ("place_marker", 1) => Decision::PlaceMarkers { player: u(0)? },
            ("favour_income", 1) => Decision::FavourIncome { player: u(0)? },
            ("permanent", 5) => Decision::PermanentMarker {
                player: u(0)?,
                kind: u8::try_from(u(1)?).map_err(|_| bad())?,
                left: n(2)?,
                traders: n(3)?,
                merchants: n(4)?,
            },
            _ => return Err(bad()),
        };
        s.pending.push(f);
    }
    Ok(())
}
