//! `learned`: a one-ply player on a learned position evaluation. The model is a linear
//! function of the standardised features of `features.rs`, with an optional hidden layer
//! of rectified units beside it (`ValueModel`, read from the JSON model files `hansa-lab
//! learn` writes; its forward pass here is tested equal to the trainer's). For each
//! candidate action the player values the resulting position the way `greedy` does (a
//! Move or move/remove marker by its best first step, a filled route by its best
//! establishment), with the model instead of the hand-made evaluation, and plays the
//! best; ties are broken from the seat's stream. `reply` (0: none) makes it look at the
//! other seats' answers: the displaced seat's placements, then the next seat's turn.

use std::sync::Arc;

use crate::actions::*;
use crate::decisions::Decision;
use crate::rng::Rng;
use crate::rules::{apply_unchecked, legal_actions};
use crate::scoring::score_rows;
use crate::state::State;

use super::evaluation::{add_piece_terms, evaluate, intent_factor, Weights};
use super::features::{
    assemble, feature_names, global_features, seat_blocks_with, FeatureMemo, N_FEATURES,
    SEAT_FEATURES,
};
use super::greedy::{best_of, worth, Greedy, Tip};
use super::lookahead::{opens_decision, py_max, EstablishBuffers};
use super::rollout::best_by_playouts;

/// `value = bias + Σ weight_i · z_i (+ the hidden layer's output)` with `z_i = (x_i −
/// mean_i) / scale_i`, the standardised features; for a model of the win (logistic) this
/// is the log-odds, for one of the margin the points.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueModel {
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    pub weights: Vec<f64>,
    pub bias: f64,
    pub hidden: Option<HiddenLayer>,
}

/// A layer of rectified units on the standardised features, added to the linear value:
/// `Σ_j output_j · max(0, bias_j + Σ_i weights[j · n + i] · z_i)` (`n` features, the
/// weights unit by unit).
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenLayer {
    pub weights: Vec<f64>,
    pub bias: Vec<f64>,
    pub output: Vec<f64>,
}

/// The most hidden units a model may have (a forward pass costs units × features).
pub const MAX_HIDDEN_UNITS: usize = 256;

impl ValueModel {
    /// A model over `names` (which must be exactly `feature_names()`, in order); an
    /// error says which name differs or which list has the wrong length.
    pub fn new(
        names: &[String],
        mean: Vec<f64>,
        scale: Vec<f64>,
        weights: Vec<f64>,
        bias: f64,
    ) -> Result<ValueModel, String> {
        let want = feature_names();
        if names.len() != want.len() {
            return Err(format!(
                "the model has {} features, the core computes {} ({})",
                names.len(),
                want.len(),
                "retrain it with `hansa-lab learn`"
            ));
        }
        if let Some(i) = (0..want.len()).find(|&i| names[i] != want[i]) {
            return Err(format!(
                "model feature {i} is {:?}, the core's is {:?}",
                names[i], want[i]
            ));
        }
        for (what, v) in [("mean", &mean), ("scale", &scale), ("weights", &weights)] {
            if v.len() != N_FEATURES {
                return Err(format!(
                    "model {what} has {} numbers, expected {N_FEATURES}",
                    v.len()
                ));
            }
            if let Some(i) = v.iter().position(|x| !x.is_finite()) {
                return Err(format!("model {what}[{i}] is not a finite number"));
            }
        }
        if let Some(i) = scale.iter().position(|&x| x <= 0.0) {
            return Err(format!("model scale[{i}] must be positive"));
        }
        if !bias.is_finite() {
            return Err("model bias is not a finite number".into());
        }
        Ok(ValueModel {
            mean,
            scale,
            weights,
            bias,
            hidden: None,
        })
    }

    /// This model with a hidden layer; an error says which list has the wrong length or
    /// a number that is not finite.
    pub fn with_hidden(mut self, layer: HiddenLayer) -> Result<ValueModel, String> {
        let units = layer.bias.len();
        if units == 0 || units > MAX_HIDDEN_UNITS {
            return Err(format!(
                "the hidden layer has {units} units, expected 1 to {MAX_HIDDEN_UNITS}"
            ));
        }
        for (what, v, n) in [
            ("hidden weights", &layer.weights, units * N_FEATURES),
            ("hidden output", &layer.output, units),
        ] {
            if v.len() != n {
                return Err(format!(
                    "model {what} has {} numbers, expected {n} ({units} units)",
                    v.len()
                ));
            }
        }
        for (what, v) in [
            ("hidden weights", &layer.weights),
            ("hidden bias", &layer.bias),
            ("hidden output", &layer.output),
        ] {
            if let Some(i) = v.iter().position(|x| !x.is_finite()) {
                return Err(format!("model {what}[{i}] is not a finite number"));
            }
        }
        self.hidden = Some(layer);
        Ok(self)
    }

    /// The model's value of a feature vector.
    pub fn forward(&self, x: &[f64]) -> f64 {
        let n = x.len().min(self.weights.len());
        let z = |i: usize| (x[i] - self.mean[i]) / self.scale[i];
        let mut v = self.bias;
        for i in 0..n {
            v += self.weights[i] * z(i);
        }
        if let Some(h) = &self.hidden {
            let z: Vec<f64> = (0..n).map(z).collect();
            let width = self.weights.len();
            for (j, (&b, &out)) in h.bias.iter().zip(&h.output).enumerate() {
                let row = &h.weights[j * width..j * width + n];
                let mut a = b;
                for (w, zi) in row.iter().zip(&z) {
                    a += w * zi;
                }
                if a > 0.0 {
                    v += out * a;
                }
            }
        }
        v
    }

    /// The model's value of the position for `player`; a finished game is valued by its
    /// result instead (±1,000 plus the score margin over the best other seat).
    pub fn value(&self, s: &State, player: usize, scratch: &mut Scratch) -> f64 {
        if s.is_over() {
            let totals: Vec<i32> = score_rows(s).iter().map(|r| r.iter().sum()).collect();
            let best_other = (0..totals.len())
                .filter(|&q| q != player)
                .map(|q| totals[q])
                .max()
                .unwrap_or(0);
            let margin = (totals[player] - best_other) as f64;
            return margin + if margin > 0.0 { 1000.0 } else { -1000.0 };
        }
        let blocks = seat_blocks_with(s, &mut scratch.memo);
        assemble(&blocks, &global_features(s), player, &mut scratch.row);
        self.forward(&scratch.row)
    }
}

/// Greedy's evaluation (`evaluation::evaluate_with`, the same terms in the same order)
/// from `row`, the feature vector of `player` in the running position `s`: every term
/// it reads is a feature (score totals, route progress, supply, stock, ability value,
/// plan terms).
pub fn greedy_from_features(row: &[f64], s: &State, player: usize, w: &Weights) -> f64 {
    let rival = SEAT_FEATURES.len();
    let f = intent_factor(s, w);
    let mut value = w.score * row[7];
    if w.opponents != 0.0 && s.n_players() > 1 {
        value -= w.opponents * row[rival + 7];
    }
    if w.route != 0.0 {
        value += w.route * row[21] * f;
    }
    add_piece_terms(&mut value, s, w, player);
    if w.ability != 0.0 {
        value += w.ability * row[14];
    }
    if w.actions_left != 0.0 && s.active == player && s.end_reason.is_none() {
        value += w.actions_left * s.actions_left as f64;
    }
    for (k, wk) in [
        w.plan_actions,
        w.plan_bank,
        w.plan_keys,
        w.plan_coellen,
        w.plan_control,
    ]
    .into_iter()
    .enumerate()
    {
        if wk != 0.0 {
            value += wk * row[22 + k] * f;
        }
    }
    value
}

/// What one decision reuses from candidate to candidate: the feature vector's buffer and
/// the Kontor part of the features.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    row: Vec<f64>,
    memo: FeatureMemo,
}

/// The one-ply learned player: a position is worth `model_weight` times the model's
/// value plus `greedy_weight` times `greedy`'s evaluation (with `weights`; 0: the model
/// alone). When no candidate is worth more than the position itself it plays what
/// `greedy` (with `weights` and `explore`) plays there: the blend values a pass (a Move
/// that moves nothing, an early End) at the position's own worth and most building steps
/// below it, so without this all-learned tables pass until the action cap.
///
/// A tip (`tip`, weighted `tip_weight`; `Tip::Plain`: none) is a term of greedy's
/// evaluation, so it joins the blend where greedy's evaluation does: `greedy_weight` ×
/// (greedy's evaluation + the tip's faded term, `Greedy::faded_tip`), and the greedy
/// player this one defers to carries it too (a `blocker` never declines the extra pieces).
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    pub model: Arc<ValueModel>,
    pub model_weight: f64,
    pub greedy_weight: f64,
    pub weights: Weights,
    pub explore: f64,
    pub tip: Tip,
    pub tip_weight: f64,
    /// how far a decision looks at the other seats' answers: 0, the one-ply choice; 1, a
    /// displacement valued after the displaced seat has placed its pieces (`answers`);
    /// 2, also the best candidates played through the next seat's turn
    /// (`choose_by_replies`)
    pub reply: u8,
    /// 0: the best candidate is played; above 0, one of those that improve the position,
    /// drawn with weight exp((value − best) / `temperature`) (`choose_by`)
    pub temperature: f64,
}

/// How many of the one-ply player's best candidates the look-ahead at the replies plays
/// out.
pub const REPLY_CANDIDATES: usize = 3;

impl Learned {
    /// The model alone.
    pub fn model_only(model: ValueModel) -> Learned {
        Learned {
            model: Arc::new(model),
            model_weight: 1.0,
            greedy_weight: 0.0,
            weights: Weights::default(),
            explore: 0.0,
            tip: Tip::Plain,
            tip_weight: 0.0,
            reply: 0,
            temperature: 0.0,
        }
    }

    /// The player's value of `s` for `player`. Greedy's evaluation is read off the
    /// feature vector the model has just computed (`greedy_from_features`, equal to
    /// `evaluate`) instead of being computed a second time.
    pub fn value(&self, s: &State, player: usize, scratch: &mut Scratch) -> f64 {
        let v = self.blend(s, player, scratch);
        if self.tip == Tip::Plain || self.tip_weight == 0.0 || self.greedy_weight == 0.0 {
            return v;
        }
        v + self.greedy_weight * self.fallback().faded_tip(s, player)
    }

    /// The model blended with greedy's evaluation, without a tip.
    fn blend(&self, s: &State, player: usize, scratch: &mut Scratch) -> f64 {
        let mut v = 0.0;
        if self.model_weight != 0.0 {
            v += self.model_weight * self.model.value(s, player, scratch);
            if self.greedy_weight != 0.0 && !s.is_over() {
                let g = greedy_from_features(&scratch.row, s, player, &self.weights);
                return v + self.greedy_weight * g;
            }
        }
        if self.greedy_weight != 0.0 {
            v += self.greedy_weight * evaluate(s, player, &self.weights);
        }
        v
    }
}

impl Learned {
    /// The `greedy` player this one defers to when nothing improves the position (and
    /// inside a Move): greedy on the same weights, carrying the same tip.
    pub fn fallback(&self) -> Greedy {
        Greedy {
            kind: self.tip,
            tip: self.tip_weight,
            ..self.playout_greedy()
        }
    }

    /// The `greedy` every seat plays in a search's playouts: the same weights, no tip
    /// (the tip is this player's own bias, not a model of the other seats).
    pub fn playout_greedy(&self) -> Greedy {
        Greedy {
            depth: 1,
            explore: self.explore,
            weights: self.weights,
            kind: Tip::Plain,
            tip: 0.0,
        }
    }

    /// The value of every candidate of `legal` for `player`, in order (as
    /// `Greedy::candidate_values` at depth 1, with the model).
    pub fn candidate_values(&self, s: &State, legal: &[Action], player: usize) -> Vec<f64> {
        let mut scratch = Scratch::default();
        let greedy = self.fallback();
        let mut value = |t: &State| self.value(t, player, &mut scratch);
        let mut out = Vec::with_capacity(legal.len());
        let mut follow: Vec<Action> = Vec::new();
        let mut establish = EstablishBuffers::default();
        let mut nxt = s.clone();
        let mut after = s.clone();
        let answerer = Greedy {
            explore: 0.0,
            ..self.playout_greedy()
        };
        for a in legal {
            nxt.clone_from(s);
            apply_unchecked(&mut nxt, a);
            let opened =
                opens_decision(a) && !nxt.pending.is_empty() && nxt.current_player() == player;
            let v = if opened && a.kind == K_MOVE {
                // a Move is worth the relocation greedy would make first (its first best
                // step; a Stop: the position itself), since greedy makes the relocations
                legal_actions(&nxt, &mut follow);
                let steps = greedy.candidate_values(&nxt, &follow, player);
                let (best, _) = best_of(&follow, &steps);
                match best.first() {
                    Some(b) => {
                        after.clone_from(&nxt);
                        apply_unchecked(&mut after, b);
                        worth(&after, b, player, &mut value, &mut establish)
                    }
                    None => value(&nxt),
                }
            } else if opened {
                legal_actions(&nxt, &mut follow);
                let mut v = f64::NEG_INFINITY;
                for b in &follow {
                    after.clone_from(&nxt);
                    apply_unchecked(&mut after, b);
                    v = py_max(v, worth(&after, b, player, &mut value, &mut establish));
                }
                v
            } else {
                if self.reply > 0 {
                    // a displacement is valued after the displaced seat has placed its
                    // pieces, not while they are off the board
                    answers(&mut nxt, player, &answerer, &mut follow);
                }
                worth(&nxt, a, player, &mut value, &mut establish)
            };
            out.push(v);
        }
        out
    }

    /// The action with the best value among `legal` (non-empty); ties from `rng`.
    pub fn choose(&self, s: &State, legal: &[Action], rng: &mut Rng) -> Action {
        let legal = self.tip.legal(self.tip_weight, legal);
        if legal.len() == 1 {
            return legal[0];
        }
        let player = s.current_player();
        if matches!(s.pending.last(), Some(Decision::Move { player: q, .. }) if *q == player) {
            // inside a Move, greedy relocates: the model's small gains of moving a piece
            // from route to route are noise that all-learned tables chased for ever
            return self.fallback().choose(s, legal, rng);
        }
        let values = self.candidate_values(s, legal, player);
        if self.reply > 1 {
            return self.choose_by_replies(s, legal, &values, rng);
        }
        self.choose_by(s, legal, &values, rng)
    }

    /// The choice among `legal` (non-empty, outside a Move) that looks at the replies:
    /// the `REPLY_CANDIDATES` candidates of the best one-ply `values` among those that
    /// improve the position (never `end`) are each played on — the hidden bonus-marker
    /// bag re-dealt, every seat playing `greedy` (no exploration) through the turn in
    /// progress and `reply` − 1 following turns — and the one whose position there the
    /// player values most is played. Every candidate is valued at the same point, after
    /// the next seats have answered it, so a piece the next seat will displace at once is
    /// no longer worth its one-ply value. With fewer than two such candidates it is the
    /// one-ply choice (`choose_by`: greedy's choice when nothing improves the position).
    /// One draw from `rng` per searched decision.
    fn choose_by_replies(
        &self,
        s: &State,
        legal: &[Action],
        values: &[f64],
        rng: &mut Rng,
    ) -> Action {
        let player = s.current_player();
        let here = self.value(s, player, &mut Scratch::default());
        let mut order: Vec<usize> = (0..legal.len())
            .filter(|&i| values[i] > here + 1e-9 && legal[i].kind != K_END)
            .collect();
        order.sort_by(|&i, &j| values[j].total_cmp(&values[i]).then(i.cmp(&j)));
        order.truncate(REPLY_CANDIDATES);
        if order.len() < 2 {
            return self.choose_by(s, legal, values, rng);
        }
        let seed = rng.next_u64();
        let replies = Greedy {
            explore: 0.0,
            ..self.playout_greedy()
        };
        let end_turn = s.turn + i32::from(self.reply) - 1;
        let mut scratch = Scratch::default();
        let mut buf = Vec::with_capacity(128);
        let best = best_by_playouts(s, legal, &order, 1, seed, |t, stream| {
            replies.play_out(t, stream, end_turn, &mut buf);
            self.value(t, player, &mut scratch)
        });
        legal[best]
    }

    /// The one-ply choice among `legal` (non-empty, outside a Move) given its
    /// `candidate_values`: the best, ties from `rng` (with a `temperature`, one of those
    /// that improve the position, drawn by [`draw_by_temperature`]); greedy's choice when
    /// nothing improves the position.
    pub fn choose_by(&self, s: &State, legal: &[Action], values: &[f64], rng: &mut Rng) -> Action {
        let player = s.current_player();
        let (best, best_v) = best_of(legal, values);
        if best.is_empty() {
            return legal[0];
        }
        let here = self.value(s, player, &mut Scratch::default());
        if best_v <= here + 1e-9 {
            // nothing improves the position (a pass is the best): play greedy's choice
            return self.fallback().choose(s, legal, rng);
        }
        if self.temperature > 0.0 {
            // one of the candidates that improve the position (the best is one)
            let improving: Vec<(usize, f64)> = (0..values.len())
                .filter(|&i| values[i] > here + 1e-9)
                .map(|i| (i, values[i]))
                .collect();
            return legal[draw_by_temperature(&improving, self.temperature, rng)];
        }
        if best.len() == 1 {
            best[0]
        } else {
            best[rng.choice_index(best.len())]
        }
    }
}

/// One of `candidates` ((index, value) pairs, not empty), drawn with weight exp((value −
/// the best value) / `temperature`): those close to the best are played about as often
/// as it, those far below almost never. Identical players then no longer all make the
/// same choice in the same position (all-`learned` tables at 4 players lost the race for
/// the one Actions city in the same seat game after game). One draw from `rng`.
pub(crate) fn draw_by_temperature(
    candidates: &[(usize, f64)],
    temperature: f64,
    rng: &mut Rng,
) -> usize {
    let top = candidates
        .iter()
        .map(|&(_, v)| v)
        .fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = candidates
        .iter()
        .map(|&(_, v)| ((v - top) / temperature).exp())
        .collect();
    let mut left = rng.random() * weights.iter().sum::<f64>();
    for (&(i, _), w) in candidates.iter().zip(&weights) {
        left -= w;
        if left < 0.0 {
            return i;
        }
    }
    candidates[candidates.len() - 1].0 // rounding: the last candidate
}

/// Play the decisions `t` hands to other seats in the middle of `player`'s turn (a
/// displaced seat placing its pieces), each seat playing `answerer`, until the decision is
/// `player`'s again or the turn is over; whether there was any. Its draws come from a
/// fixed stream (`answerer` explores not at all; a tie is rare), so the player's own
/// stream is not touched.
fn answers(t: &mut State, player: usize, answerer: &Greedy, buf: &mut Vec<Action>) -> bool {
    if t.pending.is_empty() || t.is_over() || t.current_player() == player {
        return false;
    }
    let turn = t.turn;
    let mut rng = Rng::new(0x5eed_a25e);
    let mut steps = 0;
    while !t.is_over() && t.turn == turn && t.current_player() != player && steps < 64 {
        legal_actions(t, buf);
        if buf.is_empty() {
            break;
        }
        let a = answerer.choose(t, buf, &mut rng);
        apply_unchecked(t, &a);
        steps += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::legal;
    use crate::state::{new_game, Config};

    fn model() -> ValueModel {
        let names = feature_names();
        let mut w = vec![0.0; N_FEATURES];
        w[7] = 1.0; // own score total
        ValueModel::new(&names, vec![0.0; N_FEATURES], vec![1.0; N_FEATURES], w, 0.5).unwrap()
    }

    #[test]
    fn forward_is_the_standardised_dot_product() {
        let m = ValueModel {
            mean: vec![1.0, 2.0],
            scale: vec![2.0, 4.0],
            weights: vec![3.0, -1.0],
            bias: 0.25,
            hidden: None,
        };
        assert_eq!(m.forward(&[5.0, 10.0]), 0.25 + 3.0 * 2.0 - 2.0);
        // z = (2, 2); unit 0: 1 + 2 - 2·2 = -1, rectified to 0; unit 1: 0.5·2 + 2 = 3
        let with = ValueModel {
            hidden: Some(HiddenLayer {
                weights: vec![1.0, -2.0, 0.5, 1.0],
                bias: vec![1.0, 0.0],
                output: vec![10.0, -2.0],
            }),
            ..m.clone()
        };
        assert_eq!(
            with.forward(&[5.0, 10.0]),
            m.forward(&[5.0, 10.0]) - 2.0 * 3.0
        );
    }

    #[test]
    fn a_hidden_layer_of_the_wrong_shape_is_refused() {
        let layer = |w: usize, b: usize, o: usize| HiddenLayer {
            weights: vec![0.1; w],
            bias: vec![0.0; b],
            output: vec![1.0; o],
        };
        let n = N_FEATURES;
        assert!(model().with_hidden(layer(2 * n, 2, 2)).is_ok());
        let e = model().with_hidden(layer(2 * n - 1, 2, 2)).unwrap_err();
        assert!(e.contains("hidden weights has"), "{e}");
        let e = model().with_hidden(layer(2 * n, 2, 3)).unwrap_err();
        assert!(e.contains("hidden output has 3"), "{e}");
        assert!(model()
            .with_hidden(layer(0, 0, 0))
            .unwrap_err()
            .contains("0 units"));
        let mut bad = layer(n, 1, 1);
        bad.bias[0] = f64::NAN;
        assert!(model()
            .with_hidden(bad)
            .unwrap_err()
            .contains("hidden bias[0]"));
    }

    #[test]
    fn a_model_over_other_features_is_refused() {
        let mut names = feature_names();
        names[3] = "own_something_else".into();
        let n = N_FEATURES;
        let e = ValueModel::new(&names, vec![0.0; n], vec![1.0; n], vec![0.0; n], 0.0);
        assert!(e.unwrap_err().contains("model feature 3"));
        let short = &feature_names()[..5];
        assert!(ValueModel::new(short, vec![], vec![], vec![], 0.0).is_err());
    }

    #[test]
    fn greedy_read_off_the_features_is_greedys_evaluation() {
        use crate::strategies::random_policy;
        let w = Weights::default();
        let mut s = new_game(&Config::printed(4, "base_45p", 13)).unwrap();
        let mut rng = Rng::new(3);
        let mut steps = 0;
        while !s.is_over() && steps < 1200 {
            for p in 0..4 {
                let row = super::super::features::features(&s, p);
                let want = evaluate(&s, p, &w);
                let got = greedy_from_features(&row, &s, p, &w);
                assert!(
                    (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                    "{got} {want}"
                );
            }
            let acts = legal(&s);
            let a = random_policy::choose(&s, &acts, &mut rng);
            apply_unchecked(&mut s, &a);
            steps += 1;
        }
        assert!(steps > 200);
    }

    #[test]
    fn defers_to_greedy_when_nothing_improves_the_position() {
        // a model that values every position alike, no greedy term: nothing ever improves,
        // so every choice is greedy's, drawn from the same stream
        let names = feature_names();
        let n = N_FEATURES;
        let flat = ValueModel::new(&names, vec![0.0; n], vec![1.0; n], vec![0.0; n], 0.0);
        let mut p = Learned::model_only(flat.unwrap());
        p.explore = 0.5;
        let g = p.fallback();
        let mut s = new_game(&Config::printed(4, "base_45p", 21)).unwrap();
        let (mut r1, mut r2) = (Rng::new(8), Rng::new(8));
        let mut steps = 0;
        while !s.is_over() && steps < 400 {
            let acts = legal(&s);
            let a = p.choose(&s, &acts, &mut r1);
            assert_eq!(a, g.choose(&s, &acts, &mut r2));
            apply_unchecked(&mut s, &a);
            steps += 1;
        }
        assert!(steps > 100);
    }

    #[test]
    fn a_displacement_is_valued_after_the_displaced_seat_answers() {
        use crate::strategies::random_policy;
        let answerer = Learned::model_only(model()).playout_greedy();
        let mut s = new_game(&Config::printed(4, "base_45p", 5)).unwrap();
        let mut rng = Rng::new(11);
        let (mut checked, mut steps) = (0, 0);
        let mut buf = Vec::new();
        while !s.is_over() && steps < 3000 && checked < 20 {
            let acts = legal(&s);
            let player = s.current_player();
            for d in acts.iter().filter(|a| a.kind == K_DISPLACE) {
                let mut t = s.clone();
                apply_unchecked(&mut t, d);
                assert!(answers(&mut t, player, &answerer, &mut buf), "{d:?}");
                // the displaced seat's pieces are placed: the decision is the player's
                // again (or its turn is over)
                assert!(t.is_over() || t.turn != s.turn || t.current_player() == player);
                assert!(!t
                    .pending
                    .iter()
                    .any(|p| matches!(p, Decision::Relocate { player: q, .. } if *q != player)));
                checked += 1;
            }
            let mut t = s.clone();
            if let Some(a) = acts.iter().find(|a| a.kind != K_DISPLACE) {
                apply_unchecked(&mut t, a);
                // an action that hands no decision to another seat has no answers
                if t.pending.is_empty() || t.current_player() == player {
                    assert!(!answers(&mut t, player, &answerer, &mut buf));
                }
            }
            let a = random_policy::choose(&s, &acts, &mut rng);
            apply_unchecked(&mut s, &a);
            steps += 1;
        }
        assert!(checked >= 20, "only {checked} displacements met");
    }

    #[test]
    fn looking_at_the_replies_plays_legal_actions_to_the_end() {
        for reply in [1, 2] {
            let mut p = Learned::model_only(model());
            p.greedy_weight = 1.0;
            p.reply = reply;
            let n = play_to_the_end(&p, Config::printed(4, "base_45p", 17), 6);
            assert!(n.is_some(), "reply {reply}: not over after 3000 actions");
        }
    }

    #[test]
    fn a_drawn_choice_follows_the_weights_of_the_values() {
        // values 0.1·ln 3 apart at temperature 0.1: drawn 3 : 1
        let t = 0.1;
        let cands = [(4usize, 1.0), (7usize, 1.0 - t * 3f64.ln())];
        let mut rng = Rng::new(9);
        let n = 20_000;
        let firsts = (0..n)
            .filter(|_| draw_by_temperature(&cands, t, &mut rng) == 4)
            .count();
        let share = firsts as f64 / n as f64;
        assert!((share - 0.75).abs() < 0.015, "{share}");
        // far below the best at a small temperature: never
        assert!((0..1000).all(|_| draw_by_temperature(&cands, 0.001, &mut rng) == 4));
    }

    #[test]
    fn a_drawn_choice_is_always_one_that_improves_the_position() {
        let mut p = Learned::model_only(model());
        p.greedy_weight = 1.0;
        p.temperature = 1000.0; // every improving candidate about equally likely
        let mut s = new_game(&Config::printed(4, "base_45p", 21)).unwrap();
        let mut rng = Rng::new(5);
        let mut drawn = std::collections::HashSet::new();
        for _ in 0..40 {
            let acts = legal(&s);
            let player = s.current_player();
            let values = p.candidate_values(&s, &acts, player);
            let here = p.value(&s, player, &mut Scratch::default());
            if values.iter().filter(|&&v| v > here + 1e-9).count() > 1 {
                for _ in 0..50 {
                    let a = p.choose_by(&s, &acts, &values, &mut rng);
                    let i = acts.iter().position(|b| *b == a).unwrap();
                    assert!(values[i] > here + 1e-9, "a candidate that improves nothing");
                    drawn.insert((s.turn, i));
                }
            }
            let a = p.choose(&s, &acts, &mut rng);
            apply_unchecked(&mut s, &a);
        }
        assert!(drawn.len() > 40, "not drawn among several: {}", drawn.len());
    }

    /// Plays a game with `p` in every seat, checking each choice is legal; the number of
    /// actions to the end, or None when it is not over after 3000.
    fn play_to_the_end(p: &Learned, config: Config, seed: u64) -> Option<usize> {
        let mut s = new_game(&config).unwrap();
        let mut rng = Rng::new(seed);
        let mut n = 0;
        while !s.is_over() && n < 3000 {
            let acts = legal(&s);
            let a = p.choose(&s, &acts, &mut rng);
            assert!(acts.contains(&a));
            apply_unchecked(&mut s, &a);
            n += 1;
        }
        s.is_over().then_some(n)
    }

    #[test]
    fn plays_legal_actions_to_the_end() {
        let p = Learned::model_only(model());
        assert!(play_to_the_end(&p, Config::printed(3, "base_3p", 9), 4).is_some());
    }
}
