//! `rollout`: a search player. For each of its decisions it takes the `candidates` best
//! actions by the greedy evaluation, plays each `samples` times a little into the
//! future — the hidden bonus-marker bag re-dealt (`crate::determinise`: the player cannot
//! know the draw order), then every player, itself included, playing greedy through the
//! turn in progress and `horizon` more turns — and keeps the candidate whose futures it
//! values most on average (its own evaluation at the end of the playout). Common random
//! numbers: sample `r` uses the same re-dealt bag and the same playout streams for every
//! candidate, so the comparison between candidates is paired.
//!
//! Every random number comes from the seat's stream (one draw per decision), so a game is
//! reproducible from its seed. The Python strategy of the same name
//! (`hansa_lab/strategies/rollout.py`) asks this code, so both engines play it alike.

use crate::actions::Action;
use crate::determinise::determinise;
use crate::rng::{mix64, Rng};
use crate::rules::apply_unchecked;
use crate::state::State;

use super::greedy::Greedy;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rollout {
    /// how many of the greedy evaluation's best actions are played out
    pub candidates: usize,
    /// playouts per candidate
    pub samples: usize,
    /// turns each playout lasts after the turn in progress
    pub horizon: i32,
    /// the evaluation and the playout policy
    pub greedy: Greedy,
}

/// What one decision's search did (for tests and tuning).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// playouts run
    pub playouts: usize,
    /// actions applied in all playouts
    pub actions: usize,
    /// the most turns any playout advanced past the decision's turn
    pub max_turns: i32,
}

/// The candidate (an index into `legal`, from `order`) whose futures `leaf` values best on
/// average over `samples` playouts ([`playout_values`]). The first candidate wins a tie
/// (by 1e-9). Every search that judges candidates by short playouts (`rollout`,
/// `learned_rollout`) uses it.
pub(crate) fn best_by_playouts(
    s: &State,
    legal: &[Action],
    order: &[usize],
    samples: usize,
    seed: u64,
    leaf: impl FnMut(&mut State, u64) -> f64,
) -> usize {
    let values = playout_values(s, legal, order, samples, seed, leaf);
    let mut best = order[0];
    let mut best_v = f64::NEG_INFINITY;
    for (&i, &v) in order.iter().zip(&values) {
        if v > best_v + 1e-9 {
            best_v = v;
            best = i;
        }
    }
    best
}

/// The mean value of each candidate of `order` (indices into `legal`), in order, over
/// `samples` playouts: sample `r` deals the bag with [`determinise`] on the stream
/// `mix64(seed ^ mix64(r + 1))`, the same for every candidate (common random numbers),
/// applies the candidate, and `leaf(t, stream)` plays the position on and values it.
pub(crate) fn playout_values(
    s: &State,
    legal: &[Action],
    order: &[usize],
    samples: usize,
    seed: u64,
    mut leaf: impl FnMut(&mut State, u64) -> f64,
) -> Vec<f64> {
    let mut t = s.clone();
    order
        .iter()
        .map(|&i| {
            let mut total = 0.0;
            for r in 0..samples as u64 {
                let stream = mix64(seed ^ mix64(r + 1));
                t.clone_from(s);
                determinise(&mut t, &mut Rng::new(stream));
                apply_unchecked(&mut t, &legal[i]);
                total += leaf(&mut t, stream);
            }
            total / samples as f64
        })
        .collect()
}

impl Rollout {
    pub fn choose(&self, s: &State, legal: &[Action], rng: &mut Rng) -> Action {
        self.search(s, legal, rng).0
    }

    /// The choice and what the search did to make it.
    pub fn search(&self, s: &State, legal: &[Action], rng: &mut Rng) -> (Action, SearchStats) {
        let mut stats = SearchStats::default();
        if legal.len() == 1 {
            return (legal[0], stats);
        }
        let player = s.current_player();
        let values = self.greedy.candidate_values(s, legal, player);
        // the candidates: best greedy values first, the legal order breaking ties
        let mut order: Vec<usize> = (0..legal.len()).collect();
        order.sort_by(|&i, &j| values[j].total_cmp(&values[i]).then(i.cmp(&j)));
        order.truncate(self.candidates.max(1));
        if order.len() == 1 || self.samples == 0 {
            return (legal[order[0]], stats);
        }
        let seed = rng.next_u64();
        let mut buf = Vec::with_capacity(128);
        let best = best_by_playouts(s, legal, &order, self.samples, seed, |t, stream| {
            stats.actions += self.play_out(t, stream, &mut buf);
            stats.playouts += 1;
            stats.max_turns = stats.max_turns.max(t.turn - s.turn);
            self.greedy.value(t, player)
        });
        (legal[best], stats)
    }

    /// Every player plays greedy from `t` through the turn in progress and `horizon`
    /// more turns (or to the end of the game); returns the actions played.
    fn play_out(&self, t: &mut State, stream: u64, buf: &mut Vec<Action>) -> usize {
        let end_turn = t.turn + self.horizon;
        self.greedy.play_out(t, stream, end_turn, buf)
    }
}
