//! Python bindings: the extension module `hansa_lab._core`. The user-facing wrapper
//! (conversions to and from `State`, `Action` values, Python exceptions with the Python
//! engine's messages) is `hansa_lab/compiled/bridge.py`.
//!
//! Nothing panics across the boundary: every binding runs its body under [`guard`]
//! (`catch_unwind`), and a panic (a bug) becomes `hansa_lab.errors.CoreError`, an
//! `Exception` naming the call. Sizes are checked before anything is allocated
//! ([`boundary::bounded_list`], [`check_sizes`]), and a position from Python is checked
//! (`validate`) before the rules see it.
//!
//! One file per job: `boundary` (the helpers every binding uses; it imports no other
//! binding module), `config` (`CoreConfig`), `position` (`CoreState` and its fields both
//! ways), `validate` (a position's fields against its board), `policy` (`CorePolicy`),
//! `matches` (`CoreMatch`), `functions` (the module's functions), `env` (the environment
//! for learning agents), `text` (positions as text, and perft), `learned` (the learned
//! evaluation and players). This file only registers the module.

use pyo3::prelude::*;

use crate::actions::ACTION_KINDS;
use crate::events::EVENT_KINDS;
use crate::logs::TURN_COLUMNS;
use crate::state::{END_REASONS, FAVOUR_TILES, MARKER_KINDS, RULE_OPTION_NAMES};
use crate::strategies::POLICY_NAMES;

mod boundary;
mod config;
mod env;
mod functions;
mod learned;
mod matches;
mod policy;
mod position;
mod text;
mod validate;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<config::PyConfig>()?;
    m.add_class::<position::PyState>()?;
    m.add_class::<policy::PyPolicy>()?;
    m.add_class::<matches::PyMatch>()?;
    m.add("TURN_COLUMNS", TURN_COLUMNS.to_vec())?;
    m.add("POLICY_NAMES", POLICY_NAMES.to_vec())?;
    m.add("ACTION_KINDS", ACTION_KINDS.to_vec())?;
    m.add("EVENT_KINDS", EVENT_KINDS.to_vec())?;
    m.add("MARKER_KINDS", MARKER_KINDS.to_vec())?;
    m.add("FAVOUR_TILES", FAVOUR_TILES.to_vec())?;
    m.add("END_REASONS", END_REASONS.to_vec())?;
    m.add("RULE_OPTION_NAMES", RULE_OPTION_NAMES.to_vec())?;
    functions::register(m)?;
    env::register(m)?;
    text::register(m)?;
    learned::register(m)?;
    Ok(())
}
