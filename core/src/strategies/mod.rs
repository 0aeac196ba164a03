//! Strategies that play inside the core, twins of the Python ones in
//! `hansa_lab/strategies/`: `random` (`random_policy`), `greedy` and the four tips
//! (`greedy`, on `evaluation` and `lookahead`). Each makes exactly the decisions of its
//! Python version, drawing from the same seat stream. The searches `rollout` and `ismcts`
//! exist only here; their Python strategies ask the core.

pub mod evaluation;
pub mod features;
pub mod greedy;
pub mod ismcts;
pub mod learned;
pub mod learned_search;
pub mod lookahead;
pub mod random_policy;
pub mod rollout;

use std::sync::LazyLock;

use crate::actions::Action;
use crate::rng::Rng;
use crate::state::State;
use evaluation::Weights;
use greedy::{Greedy, Tip};
use ismcts::Ismcts;
use learned::Learned;
use learned_search::LearnedRollout;
use random_policy::Random;
use rollout::Rollout;

/// The strategy names the core plays (`make_strategy` names of the Python versions), as
/// the shared vocabulary declares them (`core_policies`, which the Python engine reads
/// too); [`Policy::new`] builds each (a test checks).
pub static POLICY_NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    crate::vocabulary::VOCABULARY
        .core_policies
        .iter()
        .map(String::as_str)
        .collect()
});

/// Every parameter of `greedy` at its default (the defaults of
/// `hansa_lab/strategies/evaluation.py` and `greedy.py`, for Rust callers such as the
/// examples; Python passes its own values).
pub fn greedy_defaults() -> Vec<(String, f64)> {
    let w = Weights::default();
    [
        ("depth", 1.0),
        ("explore", 0.5),
        ("score", w.score),
        ("opponents", w.opponents),
        ("route", w.route),
        ("supply", w.supply),
        ("supply_cap", w.supply_cap as f64),
        ("stock", w.stock),
        ("reserve", w.reserve),
        ("ability", w.ability),
        ("actions_left", w.actions_left),
        ("plan_actions", w.plan_actions),
        ("plan_bank", w.plan_bank),
        ("plan_keys", w.plan_keys),
        ("plan_coellen", w.plan_coellen),
        ("plan_control", w.plan_control),
        ("patience", w.patience),
        ("fade", w.fade),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), *v))
    .collect()
}

/// One seat's strategy.
#[derive(Clone, Debug, PartialEq)]
pub enum Policy {
    Random(Random),
    Greedy(Greedy),
    Rollout(Rollout),
    Ismcts(Ismcts),
    /// built from a model file (`learned::ValueModel`), not from named numbers
    Learned(Learned),
    /// a rollout with learned leaves, built from a model file like `Learned`
    LearnedRollout(LearnedRollout),
}

impl Policy {
    /// The action this strategy chooses among `legal` (non-empty) in `s`.
    pub fn choose(&self, s: &State, legal: &[Action], rng: &mut Rng) -> Action {
        match self {
            Policy::Random(p) => p.choose(s, legal, rng),
            Policy::Greedy(p) => p.choose(s, legal, rng),
            Policy::Rollout(p) => p.choose(s, legal, rng),
            Policy::Ismcts(p) => p.choose(s, legal, rng),
            Policy::Learned(p) => p.choose(s, legal, rng),
            Policy::LearnedRollout(p) => p.choose(s, legal, rng),
        }
    }

    /// The strategy `name` with every parameter given by name (the Python strategy's
    /// `params`, validated there too); an unknown name, a missing or unknown parameter is an
    /// error naming it.
    /// Every value must be finite and within its range of the shared table
    /// (`crate::limits`), else an error names the parameter, the value and the range.
    pub fn new(name: &str, params: &[(String, f64)]) -> Result<Policy, String> {
        let groups = crate::limits::policy_groups(name);
        for (k, v) in params {
            let what = format!("strategy {name:?}: parameter {k:?}");
            match crate::limits::parameter_limit(groups, k) {
                Some(limit) => limit.check(&what, *v)?,
                None if !v.is_finite() => return Err(format!("{what} must be finite, got {v}")),
                None => {}
            }
        }
        let mut p = Params::new(name, params);
        let policy = match name {
            "random" => Policy::Random(Random {
                establish: p.take("establish")? != 0.0,
                gather: p.take("gather")? != 0.0,
            }),
            "rollout" => {
                let candidates = p.take("candidates")?;
                let samples = p.take("samples")?;
                let horizon = p.take("horizon")?;
                Policy::Rollout(Rollout {
                    candidates: candidates as usize,
                    samples: samples as usize,
                    horizon: horizon as i32,
                    greedy: greedy_of("greedy", &mut p)?,
                })
            }
            "ismcts" => {
                let iterations = p.take("iterations")?;
                let ucb_c = p.take("ucb_c")?;
                let widen_c = p.take("widen_c")?;
                let widen_alpha = p.take("widen_alpha")?;
                let horizon = p.take("horizon")?;
                let rival = p.take("rival")?;
                let scale = p.take("scale")?;
                let paranoid = p.take("paranoid")? != 0.0;
                if scale <= 0.0 {
                    return Err(format!(
                        "strategy \"ismcts\": scale must be positive, got {scale}"
                    ));
                }
                Policy::Ismcts(Ismcts {
                    iterations: iterations as usize,
                    ucb_c,
                    widen_c,
                    widen_alpha,
                    horizon: horizon as i32,
                    rival,
                    scale,
                    paranoid,
                    greedy: greedy_of("greedy", &mut p)?,
                })
            }
            "learned" => {
                return Err(
                    "strategy \"learned\" is built from its model file, not from \
                            parameters"
                        .into(),
                )
            }
            "greedy" | "actions_first" | "blocker" | "network_keys" | "keep_supply" => {
                Policy::Greedy(greedy_of(name, &mut p)?)
            }
            _ => {
                return Err(format!(
                    "the compiled core has no strategy {name:?} (it has {})",
                    POLICY_NAMES.join(", ")
                ))
            }
        };
        p.finish()?;
        Ok(policy)
    }
}

/// Greedy's evaluation weights: the shared vocabulary's defaults with `overrides`
/// (name, value) applied; an unknown name is an error. A `learned` player blends, and its
/// search plays out, the evaluation of the greedy-family player it is given this way.
/// Each value must be finite and within its range of the shared table (group `weights`).
pub fn weights_with(overrides: &[(String, f64)]) -> Result<Weights, String> {
    let mut params = crate::vocabulary::VOCABULARY.greedy_weights.clone();
    for (name, value) in overrides {
        let what = format!("evaluation weight {name:?}");
        match crate::limits::parameter_limit(&["weights"], name) {
            Some(limit) => limit.check(&what, *value)?,
            None if !value.is_finite() => {
                return Err(format!("{what} must be finite, got {value}"))
            }
            None => {}
        }
        match params.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = *value,
            None => return Err(format!("greedy's evaluation has no weight {name:?}")),
        }
    }
    params.extend([("depth".to_string(), 1.0), ("explore".to_string(), 0.0)]);
    let mut p = Params::new("evaluation weights", &params);
    let greedy = greedy_of("greedy", &mut p)?;
    p.finish()?;
    Ok(greedy.weights)
}

/// The greedy player (plain or a tip) of `name` from its parameters.
fn greedy_of(name: &str, p: &mut Params<'_>) -> Result<Greedy, String> {
    let depth = p.take("depth")?;
    if depth != 1.0 && depth != 2.0 {
        return Err(format!(
            "strategy {name:?}: depth must be 1 or 2, got {depth}"
        ));
    }
    let weights = Weights {
        score: p.take("score")?,
        opponents: p.take("opponents")?,
        route: p.take("route")?,
        supply: p.take("supply")?,
        supply_cap: p.take("supply_cap")? as i64,
        stock: p.take("stock")?,
        reserve: p.take("reserve")?,
        ability: p.take("ability")?,
        actions_left: p.take("actions_left")?,
        plan_actions: p.take("plan_actions")?,
        plan_bank: p.take("plan_bank")?,
        plan_keys: p.take("plan_keys")?,
        plan_coellen: p.take("plan_coellen")?,
        plan_control: p.take("plan_control")?,
        patience: p.take("patience")?,
        fade: p.take("fade")?,
    };
    let explore = p.take("explore")?;
    let (kind, tip) = match name {
        "actions_first" => (Tip::ActionsFirst, p.take("tip")?),
        "blocker" => (Tip::Blocker, p.take("tip")?),
        "network_keys" => (Tip::NetworkKeys, p.take("tip")?),
        "keep_supply" => {
            let tip = p.take("tip")?;
            let threshold = p.take("threshold")? as i64;
            (Tip::KeepSupply { threshold }, tip)
        }
        _ => (Tip::Plain, 0.0),
    };
    Ok(Greedy {
        depth: depth as u8,
        explore,
        weights,
        kind,
        tip,
    })
}

/// Parameters by name, each taken once; left-over names are an error.
struct Params<'a> {
    name: &'a str,
    left: Vec<(&'a str, f64)>,
}

impl<'a> Params<'a> {
    fn new(name: &'a str, params: &'a [(String, f64)]) -> Self {
        Params {
            name,
            left: params.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
        }
    }

    fn take(&mut self, key: &str) -> Result<f64, String> {
        match self.left.iter().position(|(k, _)| *k == key) {
            Some(i) => Ok(self.left.swap_remove(i).1),
            None => Err(format!(
                "strategy {:?}: parameter {key:?} is missing",
                self.name
            )),
        }
    }

    fn finish(self) -> Result<(), String> {
        match self.left.first() {
            None => Ok(()),
            Some((k, _)) => Err(format!(
                "strategy {:?}: the compiled core has no parameter {k:?}",
                self.name
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_with_no_overrides_are_the_defaults_and_names_are_checked() {
        assert_eq!(weights_with(&[]).unwrap(), Weights::default());
        let w = weights_with(&[("plan_keys".to_string(), 0.82)]).unwrap();
        assert_eq!(w.plan_keys, 0.82);
        assert_eq!(w.route, Weights::default().route);
        let err = weights_with(&[("depth".to_string(), 2.0)]).unwrap_err();
        assert!(err.contains("no weight \"depth\""), "{err}");
        let err = weights_with(&[("route".to_string(), f64::NAN)]).unwrap_err();
        assert!(err.contains("evaluation weight \"route\""), "{err}");
    }

    #[test]
    fn every_declared_policy_is_built_and_an_unknown_name_lists_them() {
        assert!(!POLICY_NAMES.is_empty());
        for name in POLICY_NAMES.iter() {
            // a declared name is the core's: at most a parameter is missing
            match Policy::new(name, &[]) {
                Ok(_) => {}
                Err(e) => assert!(e.contains("parameter") && e.contains("missing"), "{e}"),
            }
        }
        let err = Policy::new("no_such_policy", &[]).unwrap_err();
        assert!(err.contains("has no strategy \"no_such_policy\""), "{err}");
        assert!(
            err.ends_with(&format!("(it has {})", POLICY_NAMES.join(", "))),
            "{err}"
        );
    }
}
