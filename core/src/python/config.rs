//! `CoreConfig`: a game configuration from Python, every rule option checked against
//! the shared ranges (`crate::limits`) and its list sizes before it is converted.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};

use super::{check_sizes, guard};
use crate::limits::Limit;
use crate::state::{covered, Config, Points, Tuning, MARKER_KINDS, RULE_OPTION_NAMES};

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
