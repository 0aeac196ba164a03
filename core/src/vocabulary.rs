//! The names both engines share: `hansa_lab/engine/data/vocabulary.json`, compiled in
//! (the Python engine reads the same file in `hansa_lab/engine/vocabulary.py`). The core
//! keeps its name tables and index constants as `const`s for speed (`ACTION_KINDS`,
//! `MARKER_KINDS`, `EVENT_KINDS` …); the tests below fail when one of them differs from
//! the file (a name the file lacks, a name missing, another order). The editions' marker
//! sets, the rule options' defaults and the greedy weights' defaults are read from it.

use std::sync::LazyLock;

use serde_json::Value;

/// The shared file.
pub const VOCABULARY_JSON: &str = include_str!("../../hansa_lab/engine/data/vocabulary.json");

/// A bonus-marker set: counts by kind (in the order of `marker_kinds`) and the start
/// markers on the taverns (kind indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkerSet {
    pub counts: [u8; 7],
    pub start: [u8; 3],
}

/// A plain integer rule option: its entry names the `Tuning` field it fills as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainInt {
    pub option: String,
    pub field: String,
    pub default: i32,
}

/// The file, parsed.
#[derive(Debug)]
pub struct Vocabulary {
    pub editions: Vec<String>,
    pub marker_kinds: Vec<String>,
    pub usable_markers: Vec<String>,
    /// per edition, in the order of `editions`
    pub marker_sets: Vec<MarkerSet>,
    pub turn_kinds: Vec<String>,
    pub decision_kinds: Vec<String>,
    pub favour_tiles: Vec<String>,
    pub end_reasons: Vec<String>,
    pub event_kinds: Vec<String>,
    /// every rule option with its default (`None`: the board file's printed value)
    pub rule_options: Vec<(String, Option<Value>)>,
    /// the rule options `CoreConfig` receives by their own name (not resolved into
    /// another: `core_receives`)
    pub core_options: Vec<String>,
    /// the plain integer rule options (`"tuning"`): the option, the `Tuning` field it
    /// fills as given (`Tuning::set_int`) and its default
    pub plain_ints: Vec<PlainInt>,
    pub greedy_weights: Vec<(String, f64)>,
    pub core_policies: Vec<String>,
}

impl Vocabulary {
    /// The default of rule option `name` as an integer (the file's value).
    pub fn option_int(&self, name: &str) -> i32 {
        self.rule_options
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, v)| v.as_ref())
            .and_then(Value::as_i64)
            .and_then(|v| i32::try_from(v).ok())
            .unwrap_or_else(|| panic!("vocabulary.json: rule option {name} has an integer default"))
    }

    /// The default of rule option `name` as a list of integers (the file's value).
    pub fn option_ints(&self, name: &str) -> Vec<i32> {
        self.rule_options
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, v)| v.as_ref())
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_i64())
                    .map(|x| x as i32)
                    .collect()
            })
            .unwrap_or_else(|| panic!("vocabulary.json: rule option {name} has a list default"))
    }

    /// The default of greedy weight `name`.
    pub fn weight(&self, name: &str) -> f64 {
        self.greedy_weights
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| *v)
            .unwrap_or_else(|| panic!("vocabulary.json: no greedy weight {name}"))
    }
}

fn names(v: &Value, key: &str) -> Result<Vec<String>, String> {
    v[key]
        .as_array()
        .ok_or_else(|| format!("{key}: a list of names"))?
        .iter()
        .map(|x| {
            x.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{key}: names are strings"))
        })
        .collect()
}

fn kind_index(kinds: &[String], name: &str) -> Result<u8, String> {
    kinds
        .iter()
        .position(|k| k == name)
        .map(|i| i as u8)
        .ok_or_else(|| format!("marker_sets: unknown marker kind {name}"))
}

fn marker_set(kinds: &[String], entry: &Value) -> Result<MarkerSet, String> {
    let mut counts = [0u8; 7];
    let table = entry["counts"].as_object().ok_or("marker_sets: counts")?;
    for (kind, n) in table {
        let n = n.as_u64().and_then(|n| u8::try_from(n).ok());
        counts[kind_index(kinds, kind)? as usize] = n.ok_or("marker_sets: small counts")?;
    }
    let start = names(entry, "start")?;
    if start.len() != 3 {
        return Err("marker_sets: three start markers".into());
    }
    let mut out = [0u8; 3];
    for (slot, kind) in out.iter_mut().zip(&start) {
        *slot = kind_index(kinds, kind)?;
    }
    Ok(MarkerSet { counts, start: out })
}

fn parse(text: &str) -> Result<Vocabulary, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let editions = names(&v, "editions")?;
    let marker_kinds = names(&v, "marker_kinds")?;
    if marker_kinds.len() != 7 {
        return Err("marker_kinds: the core's sets hold 7 kinds".into());
    }
    let marker_sets = editions
        .iter()
        .map(|e| marker_set(&marker_kinds, &v["marker_sets"][e.as_str()]))
        .collect::<Result<_, _>>()?;
    let rule_options = v["rule_options"]
        .as_array()
        .ok_or("rule_options: a list")?
        .iter()
        .map(|e| {
            let name = e["name"].as_str().ok_or("rule_options: a name each")?;
            Ok((name.to_string(), e.get("default").cloned()))
        })
        .collect::<Result<_, String>>()?;
    let core_options = v["rule_options"]
        .as_array()
        .ok_or("rule_options: a list")?
        .iter()
        .filter(|e| e.get("core_receives").is_none())
        .filter_map(|e| e["name"].as_str().map(str::to_string))
        .collect();
    let plain_ints = v["rule_options"]
        .as_array()
        .ok_or("rule_options: a list")?
        .iter()
        .filter_map(|e| e.get("tuning").map(|field| (e, field)))
        .map(|(e, field)| {
            let option = e["name"].as_str().ok_or("rule_options: a name each")?;
            let bad = || {
                format!(
                    "rule option {option}: \"tuning\" needs a field name and an integer default"
                )
            };
            Ok(PlainInt {
                option: option.to_string(),
                field: field.as_str().ok_or_else(bad)?.to_string(),
                default: e["default"]
                    .as_i64()
                    .and_then(|d| i32::try_from(d).ok())
                    .ok_or_else(bad)?,
            })
        })
        .collect::<Result<_, String>>()?;
    let greedy_weights = v["greedy_weights"]
        .as_array()
        .ok_or("greedy_weights: a list")?
        .iter()
        .map(|e| match (e[0].as_str(), e[1].as_f64()) {
            (Some(k), Some(x)) => Ok((k.to_string(), x)),
            _ => Err("greedy_weights: [name, default] pairs".to_string()),
        })
        .collect::<Result<_, String>>()?;
    Ok(Vocabulary {
        editions,
        usable_markers: names(&v, "usable_markers")?,
        marker_sets,
        turn_kinds: names(&v, "turn_kinds")?,
        decision_kinds: names(&v, "decision_kinds")?,
        favour_tiles: names(&v, "favour_tiles")?,
        end_reasons: names(&v, "end_reasons")?,
        event_kinds: names(&v, "event_kinds")?,
        rule_options,
        core_options,
        plain_ints,
        greedy_weights,
        core_policies: names(&v, "core_policies")?,
        marker_kinds,
    })
}

/// The shared vocabulary (parsed once).
pub static VOCABULARY: LazyLock<Vocabulary> = LazyLock::new(|| {
    parse(VOCABULARY_JSON).expect("vocabulary.json is well formed (a test checks)")
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::{ACTION_KINDS, N_TURN_KINDS, USABLE_MARKERS};
    use crate::events::EVENT_KINDS;
    use crate::state::{END_REASONS, FAVOUR_TILES, MARKER_KINDS};
    use crate::strategies::evaluation::Weights;
    use crate::strategies::{greedy_defaults, POLICY_NAMES};

    /// Equal names in equal order; the message names what one side has and the other
    /// lacks.
    fn same(what: &str, core: &[&str], file: &[String]) {
        let lacks: Vec<_> = core
            .iter()
            .filter(|n| !file.iter().any(|f| f == *n))
            .collect();
        let extra: Vec<_> = file
            .iter()
            .filter(|f| !core.contains(&f.as_str()))
            .collect();
        assert!(
            lacks.is_empty() && extra.is_empty(),
            "{what}: the file lacks {lacks:?}, the core lacks {extra:?}"
        );
        assert_eq!(core, file, "{what}: another order than the file's");
    }

    #[test]
    fn the_file_parses() {
        parse(VOCABULARY_JSON).unwrap();
    }

    #[test]
    fn the_cores_names_are_the_files() {
        let v = &*VOCABULARY;
        same("marker kinds", &MARKER_KINDS, &v.marker_kinds);
        let usable: Vec<&str> = USABLE_MARKERS
            .iter()
            .map(|k| MARKER_KINDS[*k as usize])
            .collect();
        same("usable markers", &usable, &v.usable_markers);
        let turn = &ACTION_KINDS[..N_TURN_KINDS as usize];
        same("turn kinds", turn, &v.turn_kinds);
        same(
            "decision kinds",
            &ACTION_KINDS[N_TURN_KINDS as usize..],
            &v.decision_kinds,
        );
        same("favour tiles", &FAVOUR_TILES, &v.favour_tiles);
        same("end reasons", &END_REASONS, &v.end_reasons);
        same("event kinds", &EVENT_KINDS, &v.event_kinds);
        same("core policies", &POLICY_NAMES, &v.core_policies);
        same("editions", &["bigbox", "original"], &v.editions);
        same(
            "rule options the core receives",
            &crate::state::RULE_OPTION_NAMES,
            &v.core_options,
        );
    }

    #[test]
    fn the_greedy_weights_are_the_files() {
        let names: Vec<String> = VOCABULARY
            .greedy_weights
            .iter()
            .map(|(k, _)| k.clone())
            .collect();
        let defaults = greedy_defaults();
        let core: Vec<&str> = defaults
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !matches!(*k, "depth" | "explore"))
            .collect();
        same("greedy weights", &core, &names);
        for (k, v) in &defaults {
            if let Some((_, want)) = VOCABULARY.greedy_weights.iter().find(|(n, _)| n == k) {
                assert_eq!(v, want, "greedy weight {k}");
            }
        }
        assert_eq!(Weights::default().supply_cap, 8);
    }

    /// Each plain integer option (`"tuning"`) names a field `Tuning::set_int` sets, and
    /// the printed tuning holds its declared default there.
    #[test]
    fn every_plain_integer_option_fills_its_tuning_field() {
        use crate::state::Tuning;
        assert!(!VOCABULARY.plain_ints.is_empty());
        for p in &VOCABULARY.plain_ints {
            let shown =
                |t: &Tuning, v: i32| format!("{t:?}").contains(&format!(" {}: {v},", p.field));
            let mut t = Tuning::printed(0);
            assert!(shown(&t, p.default), "{}: printed default", p.option);
            t.set_int(&p.field, p.default + 1000).unwrap();
            assert!(
                shown(&t, p.default + 1000),
                "{}: set_int sets {}",
                p.option,
                p.field
            );
        }
        assert!(Tuning::printed(0).set_int("no_such_field", 1).is_err());
    }

    #[test]
    fn the_marker_sets_hold_their_start_markers() {
        for set in &VOCABULARY.marker_sets {
            for k in set.start {
                let need = set.start.iter().filter(|x| **x == k).count();
                assert!(set.counts[k as usize] as usize >= need);
            }
        }
    }
}
