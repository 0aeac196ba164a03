//! `CoreConfig`: a game configuration from Python, every rule option checked against
//! the shared ranges (`crate::limits`) and its list sizes before it is converted.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};

use super::boundary::{check_sizes, guard};
use crate::limits::Limit;
use crate::state::{covered, Config, Points, Tuning, MARKER_KINDS, RULE_OPTION_NAMES};
use crate::vocabulary::VOCABULARY;

/// The most items a rule option's list or table may hold (the longest, `marker_points`,
/// takes 20): checked before the list is converted.
const MAX_OPTION_ITEMS: usize = 64;

/// A game configuration for the core (`GameConfig` of the Python engine, the rule
/// options as values): built once per configuration and passed to every call.
#[pyclass(name = "CoreConfig", module = "hansa_lab._core", frozen)]
#[derive(Clone)]
pub struct PyConfig {
    pub(crate) c: Config,
}

#[pymethods]
impl PyConfig {
    /// `options`: every rule option the core receives (`RULE_OPTION_NAMES`), resolved
    /// by the Python engine (`bridge.core_options`); ValueError for a missing or unknown
    /// option, a value outside its range or of the wrong shape, or a configuration the
    /// rules cannot play.
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
        let editions = &VOCABULARY.editions;
        let edition = match editions.iter().position(|e| e == edition) {
            Some(i) => i as u8,
            None => {
                return Err(PyValueError::new_err(format!(
                    "unknown edition {edition:?} (known: {})",
                    editions.join(", ")
                )))
            }
        };
        for key in options.keys() {
            let key: String = key.extract()?;
            if !RULE_OPTION_NAMES.contains(&key.as_str()) {
                return Err(PyValueError::new_err(format!(
                    "the compiled core has no rule option {key:?}"
                )));
            }
        }
        for (key, value) in options.iter() {
            let key: String = key.extract()?;
            check_sizes(&format!("rule option {key}"), &value, MAX_OPTION_ITEMS, 1)?;
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
            prestige_to_end: option(options, "prestige_to_end")?,
            emperor: option(options, "emperor")?,
            east_alternative: option(options, "east_alternative")?,
            tuning: std::sync::Arc::new(PyConfig::tuning(options, n_players)?),
        };
        covered(&c).map_err(PyValueError::new_err)?;
        Ok(PyConfig { c })
    }

    /// The tunable numbers (`Tuning`) from the resolved rule options by name
    /// (`bridge.core_options`: the Python engine resolved them, nothing is looked up
    /// here); ValueError for a value of the wrong shape.
    fn tuning(options: &Bound<'_, PyDict>, n_players: usize) -> PyResult<Tuning> {
        fn bad(name: &str, what: &str) -> PyErr {
            PyValueError::new_err(format!("rule option {name} needs {what}"))
        }
        fn points(options: &Bound<'_, PyDict>, name: &str) -> PyResult<Points> {
            let v: Vec<i32> = option(options, name)?;
            Points::new(&v).ok_or_else(|| bad(name, "at most 5 values"))
        }
        fn fixed<const N: usize>(options: &Bound<'_, PyDict>, name: &str) -> PyResult<[i32; N]> {
            let v: Vec<i32> = option(options, name)?;
            v.try_into()
                .map_err(|_| bad(name, &format!("{N} integers")))
        }
        fn kind(name: &str, k: &str) -> PyResult<u8> {
            MARKER_KINDS
                .iter()
                .position(|m| *m == k)
                .map(|i| i as u8)
                .ok_or_else(|| {
                    bad(
                        name,
                        &format!("known marker kinds ({})", MARKER_KINDS.join(", ")),
                    )
                })
        }
        let markers: Vec<i32> = option(options, "marker_points")?;
        if markers.is_empty() {
            return Err(bad("marker_points", "at least one value"));
        }
        let bank: Vec<Option<i32>> = option(options, "bank_track")?;
        let bank = bank
            .try_into()
            .map_err(|_| bad("bank_track", "4 entries (integers, None for all)"))?;
        let seats: Vec<i32> = option(options, "start_supply_seats")?;
        let mut start_supply = [0; 5];
        // (a player count beyond the board's is refused by `covered`, naming the board)
        let short = seats.len() < n_players && n_players <= start_supply.len();
        if short || seats.len() > start_supply.len() {
            return Err(bad(
                "start_supply_seats",
                &format!("one value per seat ({n_players}-5 values)"),
            ));
        }
        start_supply[..seats.len()].copy_from_slice(&seats);
        let set: std::collections::HashMap<String, u8> = option(options, "marker_set")?;
        let mut marker_set = [0; 7];
        for (k, count) in set {
            marker_set[kind("marker_set", &k)? as usize] = count;
        }
        let start: Vec<String> = option(options, "start_markers")?;
        let mut start_markers = [0; 3];
        if start.len() > start_markers.len() {
            return Err(bad("start_markers", "at most 3 marker kinds"));
        }
        for (slot, k) in start_markers.iter_mut().zip(&start) {
            *slot = kind("start_markers", k)?;
        }
        let mut t = Tuning {
            east_west_points: Some(points(options, "east_west_points")?),
            region_points: points(options, "region_points")?,
            marker_table: [0; 32],
            cities_to_end: Some(option(options, "cities_to_end")?),
            actions: fixed(options, "actions_track")?,
            bank,
            book: fixed(options, "book_track")?,
            keys: fixed(options, "keys_track")?,
            start_supply,
            marker_set,
            start_markers,
            n_start_markers: start.len(),
            // the plain integer options: set below, by name
            ..Tuning::printed(0)
        };
        for p in &VOCABULARY.plain_ints {
            let v: i32 = option(options, &p.option)?;
            t.set_int(&p.field, v).map_err(PyValueError::new_err)?;
        }
        t.set_marker_points(&markers);
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
