//! Python bindings: the extension module `hansa_lab._core`. The user-facing wrapper
//! (conversions to and from `State`, `Action` values, Python exceptions with the Python
//! engine's messages) is `hansa_lab/core.py`.
//!
//! Nothing panics across the boundary: every binding runs its body under [`guard`]
//! (`catch_unwind`), and a panic (a bug) becomes `hansa_lab.errors.CoreError`, an
//! `Exception` naming the call. Sizes are checked before anything is allocated
//! ([`MAX_RNG_OUTPUTS`], [`MAX_TIMING_GAMES`]), and a position from Python is checked
//! ([`validate`]) before the rules see it.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};

use crate::actions::{kind_index, Action, ACTION_KINDS};
use crate::board::{board, PLAYER_BOARD};
use crate::decisions::Decision;
use crate::events::{detail_text, EVENT_KINDS};
use crate::limits::Limit;
use crate::logs::TURN_COLUMNS;
use crate::play::{play_random, Match};
use crate::rng::Rng;
use crate::rules::{apply_unchecked, legal};
use crate::scoring::{ranking, score_rows};
use crate::state::{covered, new_game, Config, Points, State, Tuning, FAVOUR_TILES, MARKER_KINDS};
use crate::strategies::{Policy, POLICY_NAMES};

#[path = "python_learned.rs"]
mod learned;

pyo3::import_exception!(hansa_lab.errors, CoreError);

/// Run a binding's body: a panic inside (a bug in the core) becomes
/// `hansa_lab.errors.CoreError` naming `call` and the panic's message, instead of pyo3's
/// `PanicException` (a `BaseException`). The one boundary helper of every binding.
pub(crate) fn guard<T>(call: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|m| m.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Err(CoreError::new_err(format!(
                "hansa_lab._core.{call}: internal error in the compiled core ({why}); \
                 a bug: please report it with the call's arguments"
            )))
        }
    }
}

/// A list argument of at most `max` items: its length is checked before it is extracted
/// (pyo3 reserves `len()` items up front, so `range(10**12)` would abort the process on a
/// failed allocation). ValueError naming the call, the argument and the range.
pub(crate) fn bounded_list<'py, T: FromPyObject<'py>>(
    call: &str,
    name: &str,
    v: &Bound<'py, PyAny>,
    max: usize,
) -> PyResult<Vec<T>> {
    let n = v.len()?;
    if n > max {
        return Err(PyValueError::new_err(format!(
            "{call}: {name} must hold 0-{max} items, got {n}"
        )));
    }
    v.extract()
}

/// The most seats a list of seats may hold (the game has 2-5; more is refused by count).
pub(crate) const MAX_SEATS: usize = 16;
/// The most (name, value) pairs a `CorePolicy` takes (its strategy has a few dozen).
const MAX_POLICY_PARAMS: usize = 1 << 10;

/// The most seeds (games) [`play_random_games`] plays in one call.
const MAX_RANDOM_GAMES: usize = 1 << 20;

/// The most outputs [`rng_outputs`] returns (a test helper: about 40 MB as Python ints).
const MAX_RNG_OUTPUTS: usize = 1 << 20;
/// The most games [`timings`] plays (it keeps every 5th position of them in memory:
/// some 100 MB at most; the benchmark plays 50).
const MAX_TIMING_GAMES: u64 = 200;

/// A game configuration for the core (`GameConfig` of the Python engine, the rule
/// options as values): built once per configuration and passed to every call.
#[pyclass(name = "CoreConfig", module = "hansa_lab._core", frozen)]
#[derive(Clone)]
pub struct PyConfig {
    pub(crate) c: Config,
}

#[pymethods]
impl PyConfig {
    /// `options`: every rule option of `RULE_OPTIONS` by name (the Python engine has
    /// validated them); ValueError for a missing or unknown option or a configuration the
    /// core does not cover.
    #[new]
    fn py_new(
        n_players: usize,
        side: &str,
        edition: &str,
        seed: u64,
        options: &Bound<'_, PyDict>,
    ) -> PyResult<Self> {
        guard("CoreConfig", || {
            PyConfig::build(n_players, side, edition, seed, options)
        })
    }

    /// The same configuration with another seed.
    fn with_seed(&self, seed: u64) -> PyResult<Self> {
        guard("CoreConfig.with_seed", || {
            let mut c = self.c.clone();
            c.seed = seed;
            Ok(PyConfig { c })
        })
    }
}

impl PyConfig {
    fn build(
        n_players: usize,
        side: &str,
        edition: &str,
        seed: u64,
        options: &Bound<'_, PyDict>,
    ) -> PyResult<Self> {
        let edition = match edition {
            "bigbox" => 0,
            "original" => 1,
            e => return Err(PyValueError::new_err(format!("unknown edition {e:?}"))),
        };
        for key in options.keys() {
            let key: String = key.extract()?;
            if !RULE_OPTION_NAMES.contains(&key.as_str()) {
                return Err(PyValueError::new_err(format!(
                    "the compiled core has no rule option {key:?}"
                )));
            }
        }
        for (name, limit) in crate::limits::option_limits() {
            if let Some(v) = options.get_item(name)? {
                check_option(name, &v, limit)?;
            }
        }
        let special_points: Option<Vec<i32>> = option(options, "special_points")?;
        let special_points = match special_points {
            None => None,
            Some(v) if v.len() == 4 => Some([v[0], v[1], v[2], v[3]]),
            Some(v) => {
                return Err(PyValueError::new_err(format!(
                    "special_points needs 4 integers, got {v:?}"
                )))
            }
        };
        let c = Config {
            n_players,
            side: side.to_string(),
            edition,
            seed,
            special_points,
            start_supply: option(options, "start_supply")?,
            prestige_to_end: option(options, "prestige_to_end")?,
            emperor: option(options, "emperor")?,
            east_alternative: option(options, "east_alternative")?,
            tuning: std::sync::Arc::new(PyConfig::tuning(options)?),
        };
        covered(&c).map_err(PyValueError::new_err)?;
        Ok(PyConfig { c })
    }

    /// The tunable numbers (`Tuning`) from the rule options by name, as the Python engine
    /// validated them (`hansa_lab/engine/options.py`); ValueError for a value of the wrong
    /// shape.
    fn tuning(options: &Bound<'_, PyDict>) -> PyResult<Tuning> {
        fn bad(name: &str, what: &str) -> PyErr {
            PyValueError::new_err(format!("rule option {name} needs {what}"))
        }
        fn points(name: &str, v: &[i32]) -> PyResult<Points> {
            Points::new(v).ok_or_else(|| bad(name, "at most 5 values"))
        }
        fn fixed<const N: usize>(options: &Bound<'_, PyDict>, name: &str) -> PyResult<[i32; N]> {
            let v: Vec<i32> = option(options, name)?;
            v.try_into()
                .map_err(|_| bad(name, &format!("{N} integers")))
        }
        let mut t = Tuning::default();
        let ew: Option<Vec<i32>> = option(options, "east_west_points")?;
        t.east_west_points = ew.map(|v| points("east_west_points", &v)).transpose()?;
        let region: Vec<i32> = option(options, "region_points")?;
        t.region_points = points("region_points", &region)?;
        t.control_points = option(options, "control_points")?;
        t.favour_control_bonus = option(options, "favour_control_bonus")?;
        t.ability_points = option(options, "ability_points")?;
        t.favour_abilities_bonus = option(options, "favour_abilities_bonus")?;
        let markers: Vec<i32> = option(options, "marker_points")?;
        if markers.is_empty() {
            return Err(bad("marker_points", "at least one value"));
        }
        t.set_marker_points(&markers);
        t.cities_to_end = option(options, "cities_to_end")?;
        t.actions = fixed(options, "actions_track")?;
        t.book = fixed(options, "book_track")?;
        t.keys = fixed(options, "keys_track")?;
        let bank: Vec<Bound<'_, PyAny>> = option(options, "bank_track")?;
        if bank.len() != t.bank.len() {
            return Err(bad("bank_track", "4 entries"));
        }
        for (slot, x) in t.bank.iter_mut().zip(bank.iter()) {
            *slot = match x.extract::<String>() {
                Ok(text) if text == "all" => None,
                Ok(_) => return Err(bad("bank_track", "integers or \"all\"")),
                Err(_) => Some(
                    x.extract::<i32>()
                        .map_err(|_| bad("bank_track", "integers or \"all\""))?,
                ),
            };
        }
        let seats: Option<Vec<i32>> = option(options, "start_supply_seats")?;
        if let Some(v) = seats {
            if v.len() > 5 {
                return Err(bad("start_supply_seats", "at most 5 values"));
            }
            let mut a = [0; 5];
            a[..v.len()].copy_from_slice(&v);
            t.start_supply_seats = Some(a);
        }
        t.start_merchants = option(options, "start_merchants")?;
        let set: Option<std::collections::HashMap<String, u8>> = option(options, "marker_set")?;
        if let Some(table) = set {
            let mut counts = [0u8; 7];
            for (kind, count) in table {
                let k = MARKER_KINDS
                    .iter()
                    .position(|m| *m == kind)
                    .ok_or_else(|| bad("marker_set", "known marker kinds"))?;
                counts[k] = count;
            }
            t.marker_set = Some(counts);
        }
        t.start_markers = option(options, "start_markers")?;
        Ok(t)
    }
}

/// Every number in a rule option's value (an integer, or the integers of a list or a
/// table; None, true/false and "all" carry none) within the option's range of the shared
/// table (`crate::limits`): ValueError naming the option, the value and the range.
fn check_option(name: &str, v: &Bound<'_, PyAny>, limit: &Limit) -> PyResult<()> {
    check_numbers(name, v, v, limit)
}

fn check_numbers(
    name: &str,
    whole: &Bound<'_, PyAny>,
    v: &Bound<'_, PyAny>,
    limit: &Limit,
) -> PyResult<()> {
    let refuse = || {
        PyValueError::new_err(format!(
            "rule option {name} must be {} (the range both engines play; each number of \
             a list or table), got {}",
            limit.text(),
            whole.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    };
    if v.is_none() || v.is_instance_of::<PyString>() || v.is_instance_of::<PyBool>() {
        return Ok(());
    }
    if let Ok(table) = v.downcast::<PyDict>() {
        for x in table.values() {
            check_numbers(name, whole, &x, limit)?;
        }
        return Ok(());
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        for x in v.try_iter()? {
            check_numbers(name, whole, &x?, limit)?;
        }
        return Ok(());
    }
    match v.extract::<i64>() {
        Ok(x) if limit.check(name, x as f64).is_ok() => Ok(()),
        _ => Err(refuse()),
    }
}

/// The rule options the core reads (every key of the Python engine's `RULE_OPTIONS`).
const RULE_OPTION_NAMES: [&str; 21] = [
    "special_points",
    "start_supply",
    "prestige_to_end",
    "east_alternative",
    "emperor",
    "east_west_points",
    "control_points",
    "favour_control_bonus",
    "ability_points",
    "favour_abilities_bonus",
    "marker_points",
    "region_points",
    "cities_to_end",
    "actions_track",
    "bank_track",
    "book_track",
    "keys_track",
    "start_supply_seats",
    "start_merchants",
    "marker_set",
    "start_markers",
];

fn option<'py, T: FromPyObject<'py>>(options: &Bound<'py, PyDict>, name: &str) -> PyResult<T> {
    match options.get_item(name)? {
        Some(v) => v
            .extract()
            .map_err(|e| PyValueError::new_err(format!("rule option {name}: {e}"))),
        None => Err(PyValueError::new_err(format!(
            "rule option {name} is missing"
        ))),
    }
}

type PyAction = (&'static str, i32, i32, i32);

fn to_py(a: &Action) -> PyAction {
    (ACTION_KINDS[a.kind as usize], a.a, a.b, a.c)
}

fn from_py(
    kind: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    c: &Bound<'_, PyAny>,
) -> Option<Action> {
    let kind: String = kind.extract().ok()?;
    let k = kind_index(&kind)?;
    Some(Action::new(
        k,
        a.extract().ok()?,
        b.extract().ok()?,
        c.extract().ok()?,
    ))
}

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
        let Some(act) = from_py(kind, a, b, c) else {
            return Ok(false);
        };
        guard("CoreState.try_apply", || {
            if !legal(&self.s).contains(&act) {
                return Ok(false);
            }
            let mut next = self.s.clone();
            apply_unchecked(&mut next, &act);
            self.s = next;
            Ok(true)
        })
    }

    /// Events of the last applied action: (kind, seat, other, route, city, detail, value).
    #[allow(clippy::type_complexity)]
    fn events(&self) -> PyResult<Vec<(&'static str, i32, i32, i32, i32, String, i32)>> {
        guard("CoreState.events", || {
            Ok(self
                .s
                .events
                .iter()
                .map(|e| {
                    (
                        EVENT_KINDS[e.kind as usize],
                        e.seat,
                        e.other,
                        e.route,
                        e.city,
                        detail_text(e.detail),
                        e.value,
                    )
                })
                .collect())
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

fn get<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<T> {
    match d.get_item(key)? {
        Some(v) => v
            .extract()
            .map_err(|e| PyValueError::new_err(format!("state field {key}: {e}"))),
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

/// Check that a state's fields fit its board and player count, so that no rule can index
/// out of range.
fn validate(s: &State) -> Result<(), String> {
    let b = s.board;
    let n = s.n_players();
    let colours = (n + usize::from(s.neutral_pool >= 0)) as i8;
    let occupant = |o: &i8| *o >= -1 && *o < 2 * colours;
    let len = |name: &str, got: usize, want: usize| {
        if got == want {
            Ok(())
        } else {
            Err(format!(
                "state field {name}: {got} entries, expected {want}"
            ))
        }
    };
    len("posts", s.posts.len(), b.n_posts)?;
    len("offices", s.offices.len(), b.n_offices)?;
    len("extras", s.extras.len(), b.n_cities)?;
    len("route_marker", s.route_marker.len(), b.n_routes)?;
    len("special", s.special.len(), b.special_spaces.len())?;
    len(
        "special_points",
        s.special_points.len(),
        b.special_spaces.len(),
    )?;
    for (name, v) in [
        ("supply_t", &s.supply_t),
        ("supply_m", &s.supply_m),
        ("stock_t", &s.stock_t),
        ("stock_m", &s.stock_m),
        ("prestige", &s.prestige),
    ] {
        len(name, v.len(), n)?;
        if name != "prestige" && v.iter().any(|x| !(0..=1000).contains(x)) {
            return Err(format!("state field {name}: counts must be 0-1000"));
        }
    }
    len("levels", s.levels.len(), n)?;
    len("markers", s.markers.len(), n)?;
    len("markers_used", s.markers_used.len(), n)?;
    if !s.favours.is_empty() {
        len("favours", s.favours.len(), n)?;
    }
    let tm = PLAYER_BOARD.track_max;
    if s.levels.iter().any(|l| (0..5).any(|a| l[a] > tm[a])) {
        return Err("state field levels: beyond the player board".into());
    }
    if !s.posts.iter().all(occupant)
        || !s.offices.iter().all(occupant)
        || !s.special.iter().all(occupant)
        || !s.extras.iter().flatten().all(|o| *o >= 0 && occupant(o))
    {
        return Err("state field posts/offices/extras/special: occupant out of range".into());
    }
    let mk = MARKER_KINDS.len() as u8;
    let markers_ok = s
        .markers
        .iter()
        .chain(s.markers_used.iter())
        .flatten()
        .chain(s.bag.iter())
        .chain(s.drawn.iter())
        .chain(s.discarded.iter())
        .all(|m| *m < mk)
        && s.route_marker.iter().all(|m| *m >= -1 && *m < mk as i8);
    if !markers_ok {
        return Err("state field markers/bag/drawn/route_marker: unknown marker".into());
    }
    let ft = FAVOUR_TILES.len() as u8;
    if !s
        .favour_display
        .iter()
        .chain(s.favours.iter().flatten())
        .all(|t| *t < ft)
    {
        return Err("state field favours: unknown tile".into());
    }
    if s.permits_used.iter().any(|c| *c as usize >= b.n_cities) {
        return Err("state field permits_used: not a city".into());
    }
    if s.east_west.iter().any(|p| *p as usize >= n) {
        return Err("state field east_west: not a seat".into());
    }
    if s.active >= n {
        return Err("state field active: not a seat".into());
    }
    if s.end_reason.is_some_and(|r| r > 2) || s.end_after_action.is_some_and(|r| r > 2) {
        return Err("state field end_reason: unknown reason".into());
    }
    if s.neutral_pool >= 0 && n != 2 {
        return Err("state field neutral_pool: the neutral colour plays only with two".into());
    }
    for f in &s.pending {
        if f.player() >= n {
            return Err("state field pending: player out of range".into());
        }
        if let Some((origin, piece, extras)) = f.relocation() {
            if origin >= b.n_routes || !(-1..=1).contains(&piece) || !(0..=10).contains(&extras) {
                return Err("state field pending: relocation out of range".into());
            }
        }
        if matches!(f, Decision::RelocateNeutral { .. }) && s.neutral_pool < 0 {
            return Err("state field pending: no neutral colour".into());
        }
        if let Decision::PermanentMarker {
            kind,
            left,
            traders,
            merchants,
            ..
        } = *f
        {
            if kind as usize >= crate::board::PERMANENT_MARKERS.len()
                || !(0..=2).contains(&left)
                || !(0..=6).contains(&traders)
                || !(0..=6).contains(&merchants)
            {
                return Err("state field pending: permanent marker out of range".into());
            }
        }
        if matches!(f, Decision::PlaceMarkers { .. }) && s.drawn.is_empty() {
            return Err(
                "state field pending: a bonus-marker placement with no drawn marker".into(),
            );
        }
        if matches!(f, Decision::FavourIncome { .. }) && s.favours.is_empty() {
            return Err("state field pending: no Emperor's Favour in this game".into());
        }
    }
    Ok(())
}

/// A strategy the core plays (`Policy`): its name and every parameter by name.
#[pyclass(name = "CorePolicy", module = "hansa_lab._core", frozen)]
#[derive(Clone)]
pub struct PyPolicy {
    p: Policy,
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
        let Some(act) = from_py(kind, a, b, c) else {
            return Ok(false);
        };
        guard("CoreMatch.apply", || Ok(self.m.apply_external(act)))
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
                    (
                        *i,
                        *rnd,
                        *turn,
                        e.seat,
                        EVENT_KINDS[e.kind as usize],
                        e.other,
                        e.route,
                        e.city,
                        detail_text(e.detail),
                        e.value,
                    )
                })
                .collect())
        })
    }
}

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

/// The board sides the core covers.
#[pyfunction]
fn covered_sides() -> PyResult<Vec<&'static str>> {
    guard("covered_sides", || {
        Ok(crate::board::BOARD_SIDES
            .into_iter()
            .filter(|s| board(s, false).is_some())
            .collect())
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

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyConfig>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyPolicy>()?;
    m.add_class::<PyMatch>()?;
    m.add("TURN_COLUMNS", TURN_COLUMNS.to_vec())?;
    m.add("POLICY_NAMES", POLICY_NAMES.to_vec())?;
    m.add_function(wrap_pyfunction!(play_random_games, m)?)?;
    m.add_function(wrap_pyfunction!(play_random_game, m)?)?;
    m.add_function(wrap_pyfunction!(covered_sides, m)?)?;
    m.add_function(wrap_pyfunction!(timings, m)?)?;
    m.add_function(wrap_pyfunction!(rng_outputs, m)?)?;
    m.add("ACTION_KINDS", ACTION_KINDS.to_vec())?;
    crate::python_env::register(m)?;
    crate::python_position::register(m)?;
    learned::register(m)?;
    Ok(())
}
