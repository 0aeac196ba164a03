//! The ranges both engines play: `hansa_lab/engine/data/limits.json` (the strategies'
//! parameters and the groups each strategy takes) and the rule options' `"range"` in
//! `vocabulary.json`, compiled in (the Python engine reads the same files in
//! `hansa_lab/engine/limits.py`). `CoreConfig` and
//! `CorePolicy` refuse a rule option or a strategy parameter outside its range, so no
//! number reaches the rules that they cannot play (a weight of 1e308 overflowing to
//! infinity, a `prestige_to_end` beyond `i32`).

use std::sync::LazyLock;

use serde_json::Value;

/// The shared table.
pub const LIMITS_JSON: &str = include_str!("../../hansa_lab/engine/data/limits.json");

/// One declared range, inclusive; `integer`: the value must be a whole number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    pub integer: bool,
    pub low: f64,
    pub high: f64,
}

impl Limit {
    /// The range in words: "an integer 1-1000".
    pub fn text(&self) -> String {
        let what = if self.integer {
            "an integer"
        } else {
            "a number"
        };
        format!("{what} {}-{}", show(self.low), show(self.high))
    }

    /// Ok if `v` is finite, within the range and (for an integer range) whole; else an
    /// error naming `what`, the value and the range.
    pub fn check(&self, what: &str, v: f64) -> Result<(), String> {
        let whole = !self.integer || v.fract() == 0.0;
        if v.is_finite() && whole && self.low <= v && v <= self.high {
            Ok(())
        } else {
            Err(format!(
                "{what} must be {} (the range both engines play), got {}",
                self.text(),
                show(v)
            ))
        }
    }
}

/// A number as Python would write it: whole numbers without a fraction, 1e308 as such.
pub fn show(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e16 {
        format!("{}", v as i64)
    } else {
        format!("{v:?}")
    }
}

type Named = Vec<(String, Limit)>;

struct Table {
    options: Named,
    groups: Vec<(String, Named)>,
    /// the groups each strategy takes, by its name
    strategy_groups: Vec<(String, Vec<String>)>,
}

fn entries(v: &Value) -> Result<Named, String> {
    let obj = v.as_object().ok_or("a table of ranges")?;
    obj.iter()
        .map(|(k, e)| {
            let num = |f: &str| {
                e.get(f)
                    .and_then(Value::as_f64)
                    .ok_or_else(|| format!("{k}: {f} is missing"))
            };
            let integer = match e.get("type").and_then(Value::as_str) {
                Some("int") => true,
                Some("float") => false,
                _ => return Err(format!("{k}: type must be int or float")),
            };
            Ok((
                k.clone(),
                Limit {
                    integer,
                    low: num("min")?,
                    high: num("max")?,
                },
            ))
        })
        .collect()
}

/// The rule options' ranges: the `"range"` of each entry of the vocabulary's
/// `rule_options` that has one (every number of a rule option is an integer).
fn option_ranges(vocabulary: &str) -> Result<Named, String> {
    let v: Value = serde_json::from_str(vocabulary).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for e in v["rule_options"].as_array().ok_or("rule_options: a list")? {
        let name = e["name"].as_str().ok_or("rule_options: a name each")?;
        if let Some(range) = e.get("range") {
            let bound = |i: usize| {
                range[i]
                    .as_f64()
                    .ok_or_else(|| format!("rule option {name}: range is [min, max]"))
            };
            out.push((
                name.to_string(),
                Limit {
                    integer: true,
                    low: bound(0)?,
                    high: bound(1)?,
                },
            ));
        }
    }
    Ok(out)
}

fn parse(text: &str, vocabulary: &str) -> Result<Table, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let options = option_ranges(vocabulary)?;
    let strategy_groups = v["strategy_groups"]
        .as_object()
        .ok_or("strategy_groups: a table of strategies")?
        .iter()
        .map(|(name, gs)| {
            let gs = gs
                .as_array()
                .ok_or_else(|| format!("strategy_groups: {name}: a list of groups"))?
                .iter()
                .map(|g| g.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("strategy_groups: {name}: group names"))?;
            Ok((name.clone(), gs))
        })
        .collect::<Result<_, String>>()?;
    let groups = v["strategy_parameters"]
        .as_object()
        .ok_or("strategy_parameters: a table of groups")?
        .iter()
        .map(|(g, t)| Ok((g.clone(), entries(t)?)))
        .collect::<Result<_, String>>()?;
    Ok(Table {
        options,
        groups,
        strategy_groups,
    })
}

static TABLE: LazyLock<Table> = LazyLock::new(|| {
    parse(LIMITS_JSON, crate::vocabulary::VOCABULARY_JSON)
        .expect("limits.json and vocabulary.json are well formed (a test checks)")
});

/// The groups of each strategy, borrowed from the table (so that they are `'static`).
static POLICY_GROUPS: LazyLock<Vec<(&'static str, Vec<&'static str>)>> = LazyLock::new(|| {
    TABLE
        .strategy_groups
        .iter()
        .map(|(name, gs)| (name.as_str(), gs.iter().map(String::as_str).collect()))
        .collect()
});

/// The rule options with a range, each with it.
pub fn option_limits() -> &'static [(String, Limit)] {
    &TABLE.options
}

/// The range of parameter `name` in the first of `groups` (searched last to first) that
/// declares it, if any.
pub fn parameter_limit(groups: &[&str], name: &str) -> Option<Limit> {
    groups.iter().rev().find_map(|g| {
        TABLE
            .groups
            .iter()
            .find(|(k, _)| k == g)
            .and_then(|(_, t)| t.iter().find(|(k, _)| k == name))
            .map(|(_, l)| *l)
    })
}

/// The groups of the table whose parameters strategy `name` takes, as the table's
/// `strategy_groups` declares them (the Python class reads the same:
/// `limits = strategy_limits(name)`); none for a name the table lacks.
pub fn policy_groups(name: &str) -> &'static [&'static str] {
    POLICY_GROUPS
        .iter()
        .find(|(k, _)| *k == name)
        .map_or(&[], |(_, gs)| gs.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_every_range_is_ordered() {
        let t = parse(LIMITS_JSON, crate::vocabulary::VOCABULARY_JSON).unwrap();
        assert!(!t.options.is_empty());
        for (_, l) in t.options.iter().chain(t.groups.iter().flat_map(|(_, g)| g)) {
            assert!(l.low <= l.high);
        }
        for name in crate::strategies::POLICY_NAMES.iter() {
            assert!(
                !policy_groups(name).is_empty(),
                "{name}: no strategy_groups entry"
            );
            for g in policy_groups(name) {
                assert!(t.groups.iter().any(|(k, _)| k == g), "{name}: group {g}");
            }
        }
    }

    #[test]
    fn checks_name_the_value_and_the_range() {
        let l = parameter_limit(policy_groups("greedy"), "route").unwrap();
        assert!(l.check("route", 1.0).is_ok());
        let e = l.check("route", 1e308).unwrap_err();
        assert!(e.contains("route") && e.contains("1e308") && e.contains("-1000-1000"));
        assert!(l.check("route", f64::NAN).is_err());
        let d = parameter_limit(policy_groups("rollout"), "horizon").unwrap();
        assert!(d.check("horizon", 1.5).is_err() && d.check("horizon", 0.0).is_err());
        assert_eq!(
            parameter_limit(policy_groups("ismcts"), "horizon").map(|l| l.low),
            Some(0.0)
        );
    }
}
