//! The boundary helpers every binding uses, and the only module of the bindings that
//! imports none of the others (they all import from here): [`guard`] (a panic becomes
//! `CoreError`), the size checks made before anything is allocated ([`bounded_list`],
//! [`check_sizes`]), the argument checks ([`check_len`], [`value_error`]), and actions
//! and events as Python sees them.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::actions::{kind_index, Action, ACTION_KINDS};
use crate::events::{detail_text, Event, EVENT_KINDS};

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

/// `v` and, `depth` levels down, every item of it: at most `max` items each (a string
/// counts as one value). Checked before pyo3 converts a nested list, which reserves
/// `len()` items up front for every level; `what` names the argument in the ValueError.
pub(crate) fn check_sizes(
    what: &str,
    v: &Bound<'_, PyAny>,
    max: usize,
    depth: usize,
) -> PyResult<()> {
    let container = v.is_instance_of::<PyList>()
        || v.is_instance_of::<PyTuple>()
        || v.is_instance_of::<PyDict>()
        || (!v.is_instance_of::<PyString>() && v.hasattr("__len__")?);
    if !container {
        return Ok(());
    }
    let n = v.len()?;
    if n > max {
        return Err(PyValueError::new_err(format!(
            "{what} must hold 0-{max} items, got {n}"
        )));
    }
    if depth > 0 && (v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>()) {
        for x in v.try_iter()? {
            check_sizes(what, &x?, max, depth - 1)?;
        }
    }
    Ok(())
}

/// ValueError unless `got == expected`: "`what` has `got` items, the `other` `expected`"
/// (`what`: the argument, e.g. "buffer out"; `other`: what fixes its length, e.g. "the
/// observation").
pub(crate) fn check_len(what: &str, got: usize, expected: usize, other: &str) -> PyResult<()> {
    if got == expected {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "{what} has {got} items, the {other} {expected}"
    )))
}

/// The ValueError of a refused argument: `context` (the call and the argument), then the
/// core's reason. For `.map_err(value_error("learned_policy: tip"))`.
pub(crate) fn value_error(context: &str) -> impl FnOnce(String) -> PyErr + '_ {
    move |why| PyValueError::new_err(format!("{context}: {why}"))
}

/// An action as Python sees it: (kind, a, b, c).
pub(crate) type PyAction = (&'static str, i32, i32, i32);

pub(crate) fn to_py(a: &Action) -> PyAction {
    (ACTION_KINDS[a.kind as usize], a.a, a.b, a.c)
}

/// An action from Python's (kind, a, b, c); None for anything else (an unknown kind, a
/// value that is no `i32`).
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

/// Apply an action from Python with `apply` (under [`guard`] as `call`): False, and
/// nothing applied, for garbage that is no action at all. The one path of
/// `CoreState.try_apply` and `CoreMatch.apply`.
pub(crate) fn apply_from_py(
    call: &str,
    action: [&Bound<'_, PyAny>; 4],
    apply: impl FnOnce(Action) -> bool,
) -> PyResult<bool> {
    let [kind, a, b, c] = action;
    let Some(act) = from_py(kind, a, b, c) else {
        return Ok(false);
    };
    guard(call, || Ok(apply(act)))
}

/// An event as Python sees it: (kind, seat, other, route, city, detail, value).
pub(crate) type PyEvent = (&'static str, i32, i32, i32, i32, String, i32);

/// The one builder of an event's row (`CoreState.events`, `CoreMatch.events`).
pub(crate) fn event_row(e: &Event) -> PyEvent {
    (
        EVENT_KINDS[e.kind as usize],
        e.seat,
        e.other,
        e.route,
        e.city,
        detail_text(e.detail),
        e.value,
    )
}
