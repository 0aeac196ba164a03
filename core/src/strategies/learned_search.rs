//! `learned_rollout`: a flat rollout whose leaves the learned evaluation values after a
//! short horizon. For each decision it takes the `candidates` best actions of the
//! one-ply `learned` player, plays each `samples` times a little into the future — the
//! hidden bonus-marker bag re-dealt (`crate::determinise`, the one determinisation every search uses), then every
//! player playing `greedy` through the turn in progress and `horizon` more turns — and
//! keeps the candidate whose futures the learned player values most on average (the
//! model blended with greedy's evaluation, `Learned::value`). The playouts are short:
//! the model, not a long greedy playout, judges where they lead. Common random numbers:
//! sample `r` uses the same re-dealt bag and playout streams for every candidate.
//!
//! Inside a Move it plays as the one-ply player does (greedy relocates). The search
//! itself never picks `end` (ending the turn with actions left): when that is its best
//! candidate it plays the one-ply player's choice instead, which ends the turn only as
//! `learned` does (when it defers to greedy and greedy ends). Without this,
//! all-`learned_rollout` 3-player tables froze: once every seat's futures looked best
//! unchanged, every seat ended its turn at once for ever (6,600 rounds, to the action
//! cap). With `temperature` above 0 (in `learned`) the searched candidate is drawn by
//! its playouts' mean value (`draw_by_temperature`) instead of the best played. One draw
//! from the seat's stream per searched decision, two with a temperature (and the one-ply
//! player's draws when it decides instead), so a game is reproducible from its seed.

use crate::actions::{Action, K_END};
use crate::decisions::Decision;
use crate::rng::Rng;
use crate::state::State;

use super::learned::{draw_by_temperature, Learned, Scratch};
use super::rollout::{best_by_playouts, playout_values};

#[derive(Clone, Debug, PartialEq)]
pub struct LearnedRollout {
    /// the leaf evaluation and the candidate order
    pub learned: Learned,
    /// how many of the one-ply player's best actions are played out
    pub candidates: usize,
    /// playouts per candidate
    pub samples: usize,
    /// turns each playout lasts after the turn in progress
    pub horizon: i32,
    /// only candidates whose one-ply value is within `gap` of the best are played out;
    /// when none is beside the best, the one-ply choice is played without playouts
    pub gap: f64,
}

impl LearnedRollout {
    pub fn choose(&self, s: &State, legal: &[Action], rng: &mut Rng) -> Action {
        let legal = self.learned.tip.legal(self.learned.tip_weight, legal);
        if legal.len() == 1 {
            return legal[0];
        }
        let player = s.current_player();
        if matches!(s.pending.last(), Some(Decision::Move { player: q, .. }) if *q == player) {
            return self.learned.choose(s, legal, rng);
        }
        let values = self.learned.candidate_values(s, legal, player);
        // the candidates: best one-ply values first, the legal order breaking ties
        let mut order: Vec<usize> = (0..legal.len()).collect();
        order.sort_by(|&i, &j| values[j].total_cmp(&values[i]).then(i.cmp(&j)));
        order.truncate(self.candidates.max(1));
        let top = values[order[0]];
        order.retain(|&i| top - values[i] <= self.gap);
        if order.len() == 1 || self.samples == 0 {
            return self.learned.choose_by(s, legal, &values, rng);
        }
        let seed = rng.next_u64();
        let greedy = self.learned.playout_greedy();
        let mut scratch = Scratch::default();
        let mut buf = Vec::with_capacity(128);
        let leaf = |t: &mut State, stream: u64| {
            let end_turn = t.turn + self.horizon;
            greedy.play_out(t, stream, end_turn, &mut buf);
            self.learned.value(t, player, &mut scratch)
        };
        let best = if self.learned.temperature > 0.0 {
            let means = playout_values(s, legal, &order, self.samples, seed, leaf);
            let futures: Vec<(usize, f64)> = order.iter().copied().zip(means).collect();
            draw_by_temperature(&futures, self.learned.temperature, rng)
        } else {
            best_by_playouts(s, legal, &order, self.samples, seed, leaf)
        };
        if legal[best].kind == K_END {
            return self.learned.choose_by(s, legal, &values, rng);
        }
        legal[best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{apply_unchecked, legal};
    use crate::state::{new_game, Config};
    use crate::strategies::evaluation::Weights;
    use crate::strategies::features::{feature_names, N_FEATURES};
    use crate::strategies::greedy::Tip;
    use crate::strategies::learned::ValueModel;
    use std::sync::Arc;

    fn player() -> LearnedRollout {
        let mut w = vec![0.0; N_FEATURES];
        w[7] = 0.1; // own score total
        let m = ValueModel::new(
            &feature_names(),
            vec![0.0; N_FEATURES],
            vec![1.0; N_FEATURES],
            w,
            0.0,
        )
        .unwrap();
        LearnedRollout {
            learned: Learned {
                model: Arc::new(m),
                model_weight: 1.0,
                greedy_weight: 1.0,
                weights: Weights::default(),
                explore: 0.5,
                tip: Tip::Plain,
                tip_weight: 0.0,
                reply: 0,
                temperature: 0.0,
            },
            candidates: 3,
            samples: 2,
            horizon: 1,
            gap: f64::INFINITY,
        }
    }

    #[test]
    fn plays_legal_reproducible_games_to_the_end() {
        let p = player();
        let play = |seed: u64| {
            let mut s = new_game(&Config::printed(3, "base_3p", 17)).unwrap();
            let mut rng = Rng::new(seed);
            let mut actions = Vec::new();
            while !s.is_over() && actions.len() < 3000 {
                let acts = legal(&s);
                let a = p.choose(&s, &acts, &mut rng);
                assert!(acts.contains(&a));
                apply_unchecked(&mut s, &a);
                actions.push(a);
            }
            assert!(s.is_over());
            actions
        };
        let a = play(5);
        assert_eq!(a, play(5));
        assert_ne!(a, play(6));
    }

    #[test]
    fn a_tip_weighted_zero_is_ignored_and_a_weighted_one_is_not() {
        let plain = player();
        let carrying = |weight: f64| {
            let mut p = player();
            p.learned.tip = Tip::ActionsFirst;
            p.learned.tip_weight = weight;
            p
        };
        let play = |p: &LearnedRollout| {
            let mut s = new_game(&Config::printed(3, "base_3p", 31)).unwrap();
            let mut rng = Rng::new(2);
            let mut actions = Vec::new();
            while !s.is_over() && s.turn < 30 {
                let acts = legal(&s);
                let a = p.choose(&s, &acts, &mut rng);
                apply_unchecked(&mut s, &a);
                actions.push(a);
            }
            actions
        };
        assert_eq!(play(&carrying(0.0)), play(&plain));
        assert_ne!(play(&carrying(5.0)), play(&plain));
    }

    #[test]
    fn a_gap_of_zero_searches_only_ties_of_the_one_ply_values() {
        let searching = player();
        let pruned = LearnedRollout {
            gap: 0.0,
            ..player()
        };
        let mut s = new_game(&Config::printed(4, "base_45p", 23)).unwrap();
        let mut rng = Rng::new(9);
        let (mut unique, mut changed) = (0, 0);
        while !s.is_over() && s.turn < 40 {
            let acts = legal(&s);
            let player_now = s.current_player();
            let in_move = matches!(s.pending.last(),
                Some(Decision::Move { player: q, .. }) if *q == player_now);
            if acts.len() > 1 && !in_move {
                let values = pruned.learned.candidate_values(&s, &acts, player_now);
                let top = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                if values.iter().filter(|&&v| top - v <= 0.0).count() == 1 {
                    // a unique best: the pruned search plays the one-ply choice, rng alike
                    unique += 1;
                    let (mut r1, mut r2) = (rng.clone(), rng.clone());
                    let a = pruned.choose(&s, &acts, &mut r1);
                    assert_eq!(a, pruned.learned.choose(&s, &acts, &mut r2));
                    assert_eq!(r1.next_u64(), r2.next_u64());
                    changed += usize::from(a != searching.choose(&s, &acts, &mut rng.clone()));
                }
            }
            let a = searching.choose(&s, &acts, &mut rng);
            apply_unchecked(&mut s, &a);
        }
        // the positions hold unique bests, and there the full search sometimes differs
        assert!(unique > 50, "{unique} decisions with a unique best");
        assert!(
            changed > 0,
            "the full search never differs from the one-ply choice"
        );
    }
}
