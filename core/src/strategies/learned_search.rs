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
//! cap). One draw from the seat's stream per searched decision (and the one-ply
//! player's draws when it decides instead), so a game is reproducible from its seed.

use crate::actions::{Action, K_END};
use crate::decisions::Decision;
use crate::rng::Rng;
use crate::state::State;

use super::learned::{Learned, Scratch};
use super::rollout::best_by_playouts;

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
}

impl LearnedRollout {
    pub fn choose(&self, s: &State, legal: &[Action], rng: &mut Rng) -> Action {
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
        if order.len() == 1 || self.samples == 0 {
            return self.learned.choose(s, legal, rng);
        }
        let seed = rng.next_u64();
        let greedy = self.learned.fallback();
        let mut scratch = Scratch::default();
        let mut buf = Vec::with_capacity(128);
        let best = best_by_playouts(s, legal, &order, self.samples, seed, |t, stream| {
            let end_turn = t.turn + self.horizon;
            greedy.play_out(t, stream, end_turn, &mut buf);
            self.learned.value(t, player, &mut scratch)
        });
        if legal[best].kind == K_END {
            return self.learned.choose(s, legal, rng);
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
    use crate::strategies::learned::LinearModel;
    use std::sync::Arc;

    fn player() -> LearnedRollout {
        let mut w = vec![0.0; N_FEATURES];
        w[7] = 0.1; // own score total
        let m = LinearModel::new(
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
            },
            candidates: 3,
            samples: 2,
            horizon: 1,
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
}
