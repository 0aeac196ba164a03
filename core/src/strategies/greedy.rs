//! `greedy` and the four strategy tips (twin of `hansa_lab/strategies/greedy.py`): one
//! step of look-ahead on the evaluation, the same candidates in the same order, the same
//! tie-breaks and exploration draws from the seat's stream.

use crate::actions::*;
use crate::board::{A_ACTIONS, A_KEYS};
use crate::rng::{mix64, Rng};
use crate::rules::{apply_unchecked, legal_actions};
use crate::scoring::largest_network;
use crate::state::{State, EMPTY};

use super::evaluation::{evaluate, evaluate_with, intent_factor, EvalMemo, Weights};
use super::lookahead::{
    establish_value, filled_route, full_routes, opens_decision, py_max, EstablishBuffers,
};

/// The extra evaluation term of a tip strategy (`tip_value`); `Plain` is `greedy`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tip {
    Plain,
    ActionsFirst,
    Blocker,
    NetworkKeys,
    KeepSupply { threshold: i64 },
}

/// The names of the tips (`hansa_lab/strategies/greedy.py`'s `TIPS`), in `Tip`'s order.
pub const TIP_NAMES: [&str; 4] = ["actions_first", "blocker", "network_keys", "keep_supply"];

impl Tip {
    /// The tip named `name` (`"none"`: `Plain`); `threshold` is `keep_supply`'s. An error
    /// names the tips.
    pub fn from_name(name: &str, threshold: i64) -> Result<Tip, String> {
        Ok(match name {
            "none" => Tip::Plain,
            "actions_first" => Tip::ActionsFirst,
            "blocker" => Tip::Blocker,
            "network_keys" => Tip::NetworkKeys,
            "keep_supply" => Tip::KeepSupply { threshold },
            _ => {
                return Err(format!(
                    "no tip {name:?} (tips: {}, or none)",
                    TIP_NAMES.join(", ")
                ))
            }
        })
    }

    /// `legal` without its last `decline` when this tip is `blocker` at a weight other
    /// than 0 (being displaced is a gain: a blocker always takes the extra pieces). Every
    /// player that carries the tip decides displacements this way.
    pub fn legal(self, weight: f64, legal: &[Action]) -> &[Action] {
        if self == Tip::Blocker
            && weight != 0.0
            && legal.len() > 1
            && legal[legal.len() - 1].kind == K_DECLINE
        {
            &legal[..legal.len() - 1]
        } else {
            legal
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Greedy {
    pub depth: u8,
    pub explore: f64,
    pub weights: Weights,
    pub kind: Tip,
    /// weight of the tip term (0: the tip switched off, plain greedy play)
    pub tip: f64,
}

impl Greedy {
    pub fn value(&self, s: &State, player: usize) -> f64 {
        let tip = self.faded_tip(s, player);
        evaluate(s, player, &self.weights) + tip
    }

    fn value_with(&self, s: &State, player: usize, memo: &mut EvalMemo) -> f64 {
        let tip = self.faded_tip(s, player);
        evaluate_with(s, player, &self.weights, memo) + tip
    }

    /// The tip's term, faded with the intent terms after `patience` rounds (a learned
    /// player carrying a tip adds it to its blend the same way).
    pub(crate) fn faded_tip(&self, s: &State, player: usize) -> f64 {
        let tip = self.tip_value(s, player);
        if tip != 0.0 {
            tip * intent_factor(s, &self.weights)
        } else {
            tip
        }
    }

    fn tip_value(&self, s: &State, player: usize) -> f64 {
        if self.kind == Tip::Plain || self.tip == 0.0 {
            return 0.0;
        }
        let b = s.board;
        let mine = |o: i8| o >= 0 && (o >> 1) as usize == player;
        match self.kind {
            Tip::Plain => 0.0,
            Tip::ActionsFirst => {
                let lv = s.levels[player][A_ACTIONS];
                let mut bonus =
                    8.0 * f64::from(u8::from(lv >= 1)) + 4.0 * f64::from(u8::from(lv >= 2));
                if lv == 0 {
                    for c in (0..b.n_cities).filter(|&c| b.city_abilities[c].contains(&A_ACTIONS)) {
                        for &r in &b.city_routes[c] {
                            let occ = &s.posts[b.route_posts(r)];
                            let own = occ.iter().filter(|&&o| mine(o)).count();
                            let empty = occ.iter().filter(|&&o| o == EMPTY).count();
                            if own > 0 && own + empty == occ.len() {
                                let q = own as f64 / occ.len() as f64;
                                bonus += 3.0 * q * q;
                            }
                        }
                    }
                }
                self.tip * bonus
            }
            Tip::Blocker => {
                let mut n = 0usize;
                for r in key_routes(s) {
                    let occ = &s.posts[b.route_posts(r)];
                    let own = occ.iter().filter(|&&o| mine(o)).count();
                    let empty = occ.iter().filter(|&&o| o == EMPTY).count();
                    if own > 0 && own + empty < occ.len() {
                        n += own;
                    }
                }
                self.tip * 0.5 * n as f64
            }
            Tip::NetworkKeys => {
                let keys = s.levels[player][A_KEYS] as f64;
                self.tip * (2.0 * largest_network(s, player) as f64 + 3.0 * keys)
            }
            Tip::KeepSupply { threshold } => {
                let short = threshold - (s.supply_t[player] + s.supply_m[player]) as i64;
                -self.tip * 3.0 * short.max(0) as f64
            }
        }
    }

    /// The value of every candidate of `legal` for `player`, in order: the position
    /// after it, or its best first step when it opens a decision of the player, or the
    /// best way of establishing the route it fills; with `depth` 2 also the best
    /// follow-up.
    pub fn candidate_values(&self, s: &State, legal: &[Action], player: usize) -> Vec<f64> {
        let mut scratch = GreedyScratch::default();
        self.candidate_values_with(s, legal, player, &mut scratch);
        scratch.values
    }

    /// `candidate_values` into `scratch.values`, the positions built in `scratch`'s
    /// buffers (a playout reuses them from decision to decision).
    fn candidate_values_with(
        &self,
        s: &State,
        legal: &[Action],
        player: usize,
        scratch: &mut GreedyScratch,
    ) {
        let mut memo = EvalMemo::new();
        let mut value = |t: &State| self.value_with(t, player, &mut memo);
        let GreedyScratch {
            next,
            after,
            follow,
            values: out,
            establish,
        } = scratch;
        out.clear();
        // scratch positions, refilled for every candidate (no allocation per candidate)
        let nxt = next.get_or_insert_with(|| s.clone());
        let after = after.get_or_insert_with(|| s.clone());
        for a in legal {
            nxt.clone_from(s);
            apply_unchecked(nxt, a);
            let mut v;
            if opens_decision(a) && !nxt.pending.is_empty() && nxt.current_player() == player {
                // a Move or a move-3/remove-3 marker is worth its best first step
                legal_actions(nxt, follow);
                v = f64::NEG_INFINITY;
                for b in follow.iter() {
                    after.clone_from(nxt);
                    apply_unchecked(after, b);
                    v = py_max(v, worth(after, b, player, &mut value, establish));
                }
            } else {
                v = worth(nxt, a, player, &mut value, establish);
            }
            if self.depth == 2 && nxt.end_reason.is_none() && nxt.current_player() == player {
                legal_actions(nxt, follow);
                if follow.len() > 1 {
                    v = py_max(v, best_step(nxt, after, follow, &mut value));
                }
            }
            out.push(v);
        }
    }

    /// The action greedy chooses among `legal` (non-empty), as `Greedy.choose`.
    pub fn choose(&self, s: &State, legal: &[Action], rng: &mut Rng) -> Action {
        self.choose_with(s, legal, rng, &mut GreedyScratch::default())
    }

    /// `choose` with the buffers of `scratch` (the same choice).
    fn choose_with(
        &self,
        s: &State,
        legal: &[Action],
        rng: &mut Rng,
        scratch: &mut GreedyScratch,
    ) -> Action {
        let legal = self.kind.legal(self.tip, legal); // blocker: always take the pieces
        if legal.len() == 1 {
            return legal[0];
        }
        let player = s.current_player();
        self.candidate_values_with(s, legal, player, scratch);
        let (best, best_v) = best_of(legal, &scratch.values);
        if self.explore != 0.0 && best_v <= self.value(s, player) + 1e-9 {
            // nothing improves the position: sometimes act at random instead of passing
            let active: Vec<Action> = legal
                .iter()
                .filter(|a| !matches!(a.kind, K_END | K_STOP | K_DECLINE))
                .copied()
                .collect();
            if !active.is_empty() && rng.random() < self.explore {
                return active[rng.choice_index(active.len())];
            }
        }
        if best.len() == 1 {
            best[0]
        } else {
            best[rng.choice_index(best.len())]
        }
    }
}

impl Greedy {
    /// A playout: every player plays this greedy from `t` until the turn `end_turn` is over
    /// (or the game; at most 2,000 actions), player `p` drawing from a stream derived from
    /// `stream`. Returns the actions played. The playouts of `rollout` and `ismcts`.
    pub fn play_out(
        &self,
        t: &mut State,
        stream: u64,
        end_turn: i32,
        buf: &mut Vec<Action>,
    ) -> usize {
        let mut rngs: Vec<Rng> = (0..t.n_players() as u64)
            .map(|p| Rng::new(mix64(stream ^ (p + 0x51))))
            .collect();
        let mut steps = 0;
        let mut scratch = GreedyScratch::default();
        while !t.is_over() && t.turn <= end_turn && steps < 2_000 {
            legal_actions(t, buf);
            if buf.is_empty() {
                break;
            }
            let p = t.current_player();
            let a = self.choose_with(t, buf, &mut rngs[p], &mut scratch);
            apply_unchecked(t, &a);
            steps += 1;
        }
        steps
    }
}

/// The buffers of a greedy decision: the positions after a candidate and after its first
/// step, the follow-up actions and the candidates' values. A playout keeps one for all
/// its decisions, which then reuse these buffers instead of allocating two positions
/// each (the evaluation's memo is still made new for every decision).
#[derive(Default)]
struct GreedyScratch {
    next: Option<State>,
    after: Option<State>,
    follow: Vec<Action>,
    values: Vec<f64>,
    establish: EstablishBuffers,
}

/// The value of the position `after` `action`, or of establishing right away the route
/// the action filled with the player's pieces (after a stop: any route full of them),
/// whichever is more (`Greedy.worth`). The learned player values its candidates the same way.
pub(crate) fn worth(
    after: &State,
    action: &Action,
    player: usize,
    value: &mut impl FnMut(&State) -> f64,
    buffers: &mut EstablishBuffers,
) -> f64 {
    let mut v = value(after);
    if action.kind == K_STOP {
        let routes: Vec<usize> = full_routes(after, player).collect();
        for r in routes {
            v = py_max(v, establish_value(after, r, player, value, buffers));
        }
    } else if let Some(r) = filled_route(after, action, player) {
        v = py_max(v, establish_value(after, r, player, value, buffers));
    }
    v
}

/// The best value after one more action of the position `s` among its legal actions
/// `legal` (the positions after them are built in `t`).
fn best_step(
    s: &State,
    t: &mut State,
    legal: &[Action],
    value: &mut impl FnMut(&State) -> f64,
) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for b in legal {
        t.clone_from(s);
        apply_unchecked(t, b);
        best = py_max(best, value(t));
    }
    best
}

/// Routes next to an ability or special-prestige city, or beside a bonus marker
/// (`key_routes`).
pub fn key_routes(s: &State) -> impl Iterator<Item = usize> + '_ {
    let b = s.board;
    (0..b.n_routes).filter(move |&r| {
        let [x, y] = b.route_cities[r];
        !b.city_abilities[x].is_empty()
            || !b.city_abilities[y].is_empty()
            || x == b.special_city
            || y == b.special_city
            || s.route_marker[r] >= 0
    })
}

/// The actions of `legal` whose value (`values`, in the same order) is the highest, within
/// 1e-9, in their listed order, and that value. Greedy's and the learned player's ties.
pub(crate) fn best_of(legal: &[Action], values: &[f64]) -> (Vec<Action>, f64) {
    let mut best: Vec<Action> = Vec::new();
    let mut best_v = f64::NEG_INFINITY;
    for (a, &v) in legal.iter().zip(values) {
        if v > best_v + 1e-9 {
            best.clear();
            best.push(*a);
            best_v = v;
        } else if v > best_v - 1e-9 {
            best.push(*a);
        }
    }
    (best, best_v)
}
