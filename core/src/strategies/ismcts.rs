//! `ismcts`: information-set Monte Carlo tree search for the multi-player game with a
//! hidden bonus-marker bag (the draw order is unknown to every player).
//!
//! Each of the `iterations` re-deals the bag (`crate::determinise`) and walks one tree
//! shared by all of them:
//!
//! - **Tree.** A node is a sequence of actions from the decision's position; it belongs to
//!   whoever decides there in the iteration's determinization (the active player for the
//!   several actions of a turn, another player for a displacement reply). The tree stops
//!   where the search stops: at the end of the game or after the turn in progress and
//!   `horizon` more turns.
//! - **Selection** is UCB1 (`ucb_c`) on the value of the player deciding at the node, over
//!   the children whose action is legal in this determinization, with availability counts:
//!   a child's exploration term counts the iterations in which it could have been chosen,
//!   not the parent's visits (the "subset-armed" correction of ISMCTS).
//! - **Progressive widening.** A node ranks its actions once by greedy's candidate values
//!   (the same look-ahead as `greedy`) and considers only its `k` best legal ones,
//!   `k = ceil(widen_c * visits^widen_alpha)`; an action legal now but not seen when
//!   the node was ranked comes after the ranked ones. An untried action among the `k` is
//!   expanded before any child is selected again (the best-ranked first).
//! - **Leaf evaluation.** From the new node every player plays greedy until the horizon
//!   (the same playouts as `rollout`). There each player's margin, its greedy evaluation
//!   minus `rival` times the best other player's, is compared with its margin in the
//!   decision's position, and the gain becomes a value in [0, 1] by a logistic of scale
//!   `scale` (centred on the decision's position, so the values do not saturate as the
//!   scores grow). With `paranoid` every other player's value is one minus the searching
//!   player's.
//! - **Back-up** adds the vector of values to every node on the path (max-n: each node's
//!   player maximises its own entry).
//!
//! The decision is the root's child with the most visits (ties: the higher value for the
//! searching player, then the legal order). Every
//! random number comes from the seat's stream (one draw per decision; none with a single
//! legal action), so a game is reproducible from its seed. The Python strategy of the same
//! name (`hansa_lab/strategies/ismcts.py`) asks this code, so both engines play it alike.

use crate::actions::Action;
use crate::determinise::determinise;
use crate::rng::{mix64, Rng};
use crate::rules::{apply_unchecked, legal_actions};
use crate::state::State;

use super::greedy::Greedy;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ismcts {
    /// iterations per decision (at least one)
    pub iterations: usize,
    /// UCB1's exploration constant (values are in [0, 1])
    pub ucb_c: f64,
    /// progressive widening: a node visited `n` times considers its
    /// `ceil(widen_c * n^widen_alpha)` best actions
    pub widen_c: f64,
    pub widen_alpha: f64,
    /// turns after the turn in progress that the tree and the playouts reach
    pub horizon: i32,
    /// weight of the best other player's evaluation in a player's margin
    pub rival: f64,
    /// gain of margin over the root position's that maps to a value of about 0.73
    /// (logistic scale)
    pub scale: f64,
    /// the searching player against all the others instead of max-n
    pub paranoid: bool,
    /// the ranking, the playout policy and the evaluation
    pub greedy: Greedy,
}

/// What one decision's search did (for tests and tuning).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// iterations run
    pub iterations: usize,
    /// nodes in the tree, the root included
    pub nodes: usize,
    /// the most actions from the root to a node
    pub max_depth: usize,
}

/// One node of the search tree, reached from its parent by `action`.
#[derive(Debug)]
struct Node {
    action: Action,
    children: Vec<u32>,
    /// the node's actions, best first by greedy's candidate values (filled the first time
    /// the node is passed with a choice to make)
    ranked: Vec<Action>,
    visits: u32,
    /// iterations in which the action leading here was legal and considered
    avail: u32,
}

impl Node {
    fn new(action: Action) -> Node {
        Node {
            action,
            children: Vec::new(),
            ranked: Vec::new(),
            visits: 0,
            avail: 0,
        }
    }
}

/// The tree: nodes in creation order (the root first) and each node's summed values, one
/// entry per player.
struct Tree {
    nodes: Vec<Node>,
    sums: Vec<f64>,
    n_players: usize,
}

impl Tree {
    fn add(&mut self, action: Action) -> usize {
        self.nodes.push(Node::new(action));
        self.sums.extend(std::iter::repeat_n(0.0, self.n_players));
        self.nodes.len() - 1
    }

    fn mean(&self, node: usize, player: usize) -> f64 {
        self.sums[node * self.n_players + player] / f64::from(self.nodes[node].visits.max(1))
    }
}

/// Scratch buffers reused by every iteration.
struct Scratch {
    state: State,
    legal: Vec<Action>,
    allowed: Vec<Action>,
    path: Vec<usize>,
    values: Vec<f64>,
    /// every player's margin in the root position
    base: Vec<f64>,
}

impl Ismcts {
    pub fn choose(&self, s: &State, legal: &[Action], rng: &mut Rng) -> Action {
        self.search(s, legal, rng).0
    }

    /// The choice and what the search did to make it.
    pub fn search(&self, s: &State, legal: &[Action], rng: &mut Rng) -> (Action, SearchStats) {
        let mut stats = SearchStats::default();
        if legal.len() == 1 {
            return (legal[0], stats);
        }
        let seed = rng.next_u64();
        let n = s.n_players();
        let mut tree = Tree {
            nodes: Vec::with_capacity(self.iterations + 1),
            sums: Vec::with_capacity((self.iterations + 1) * n),
            n_players: n,
        };
        tree.add(Action::k(0));
        let mut sc = Scratch {
            state: s.clone(),
            legal: Vec::with_capacity(128),
            allowed: Vec::with_capacity(32),
            path: Vec::with_capacity(64),
            values: vec![0.0; n],
            base: vec![0.0; n],
        };
        self.margins(s, &mut sc.base);
        let end_turn = s.turn + self.horizon;
        let player = s.current_player();
        for i in 0..self.iterations.max(1) as u64 {
            let stream = mix64(seed ^ mix64(i + 1));
            let depth = self.iterate(&mut tree, s, player, stream, end_turn, &mut sc);
            stats.max_depth = stats.max_depth.max(depth);
            stats.iterations += 1;
        }
        stats.nodes = tree.nodes.len();
        // the most visited root child; ties: the higher value, then the legal order
        let root = &tree.nodes[0];
        let mut best = legal[0];
        let mut best_key = (0, f64::NEG_INFINITY);
        for a in legal {
            let Some(c) = root
                .children
                .iter()
                .map(|&c| c as usize)
                .find(|&c| tree.nodes[c].action == *a)
            else {
                continue;
            };
            let key = (tree.nodes[c].visits, tree.mean(c, player));
            if key.0 > best_key.0 || (key.0 == best_key.0 && key.1 > best_key.1) {
                best_key = key;
                best = *a;
            }
        }
        (best, stats)
    }

    /// One iteration from the root position `s` (a fresh determinization from `stream`):
    /// selection and expansion down the tree, a playout to the horizon, the back-up.
    /// Returns the depth reached in the tree.
    fn iterate(
        &self,
        tree: &mut Tree,
        s: &State,
        me: usize,
        stream: u64,
        end_turn: i32,
        sc: &mut Scratch,
    ) -> usize {
        let t = &mut sc.state;
        t.clone_from(s);
        determinise(t, &mut Rng::new(stream));
        sc.path.clear();
        sc.path.push(0);
        let mut node = 0;
        while !t.is_over() && t.turn <= end_turn {
            legal_actions(t, &mut sc.legal);
            if sc.legal.is_empty() {
                break;
            }
            let (next, new) = self.select(tree, node, t, &sc.legal, &mut sc.allowed);
            apply_unchecked(t, &tree.nodes[next].action);
            sc.path.push(next);
            node = next;
            if new {
                self.greedy.play_out(t, stream, end_turn, &mut sc.legal);
                break;
            }
        }
        self.leaf_values(t, me, &sc.base, &mut sc.values);
        let n = tree.n_players;
        for &i in &sc.path {
            tree.nodes[i].visits += 1;
            for (sum, v) in tree.sums[i * n..(i + 1) * n].iter_mut().zip(&sc.values) {
                *sum += v;
            }
        }
        sc.path.len() - 1
    }

    /// The child of `node` to descend to in position `t` with legal actions `legal`, and
    /// whether it was just created. Counts the availability of every considered child.
    fn select(
        &self,
        tree: &mut Tree,
        node: usize,
        t: &State,
        legal: &[Action],
        allowed: &mut Vec<Action>,
    ) -> (usize, bool) {
        let player = t.current_player();
        if legal.len() > 1 && tree.nodes[node].ranked.is_empty() {
            let values = self.greedy.candidate_values(t, legal, player);
            let mut order: Vec<usize> = (0..legal.len()).collect();
            order.sort_by(|&i, &j| values[j].total_cmp(&values[i]).then(i.cmp(&j)));
            tree.nodes[node].ranked = order.iter().map(|&i| legal[i]).collect();
        }
        // the k best actions legal here: ranked ones first, then any unranked in legal order
        let visits = f64::from(tree.nodes[node].visits + 1);
        let k = ((self.widen_c * visits.powf(self.widen_alpha)).ceil() as usize).max(1);
        allowed.clear();
        let ranked = &tree.nodes[node].ranked;
        for a in ranked {
            if allowed.len() == k {
                break;
            }
            if legal.contains(a) {
                allowed.push(*a);
            }
        }
        if allowed.len() < k {
            for a in legal {
                if allowed.len() == k {
                    break;
                }
                if !ranked.contains(a) {
                    allowed.push(*a);
                }
            }
        }
        // count availability; the first untried action is expanded
        let mut untried = None;
        for a in allowed.iter() {
            let found = tree.nodes[node]
                .children
                .iter()
                .map(|&c| c as usize)
                .find(|&c| tree.nodes[c].action == *a);
            match found {
                Some(c) => tree.nodes[c].avail += 1,
                None if untried.is_none() => untried = Some(*a),
                None => {}
            }
        }
        if let Some(a) = untried {
            let c = tree.add(a);
            tree.nodes[c].avail = 1;
            tree.nodes[node].children.push(c as u32);
            return (c, true);
        }
        let mut best = usize::MAX;
        let mut best_u = f64::NEG_INFINITY;
        for a in allowed.iter() {
            let c = tree.nodes[node]
                .children
                .iter()
                .map(|&c| c as usize)
                .find(|&c| tree.nodes[c].action == *a)
                .expect("every considered action has a child");
            let child = &tree.nodes[c];
            let u = tree.mean(c, player)
                + self.ucb_c
                    * (f64::from(child.avail).ln() / f64::from(child.visits.max(1))).sqrt();
            if u > best_u {
                best_u = u;
                best = c;
            }
        }
        (best, false)
    }

    /// Each player's margin in position `t`: its evaluation minus `rival` times the best
    /// other player's.
    fn margins(&self, t: &State, out: &mut [f64]) {
        for (p, o) in out.iter_mut().enumerate() {
            *o = self.greedy.value(t, p);
        }
        let (mut first, mut second) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &v in out.iter() {
            if v > first {
                second = first;
                first = v;
            } else if v > second {
                second = v;
            }
        }
        for o in out.iter_mut() {
            let best_other = if *o == first { second } else { first };
            *o -= self.rival * best_other;
        }
    }

    /// Each player's value of the position `t` in [0, 1]: the logistic of its margin's
    /// gain over the root position's (`base`); with `paranoid`, one minus the searching
    /// player's (`me`) for every other player.
    fn leaf_values(&self, t: &State, me: usize, base: &[f64], out: &mut [f64]) {
        self.margins(t, out);
        for (o, b) in out.iter_mut().zip(base) {
            *o = 1.0 / (1.0 + (-(*o - b) / self.scale).exp());
        }
        if self.paranoid {
            let v = out[me];
            for (p, o) in out.iter_mut().enumerate() {
                *o = if p == me { v } else { 1.0 - v };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{new_game, Config};
    use crate::strategies::{greedy_defaults, Policy};

    fn ismcts(iterations: usize, paranoid: bool) -> Ismcts {
        let mut params = greedy_defaults();
        params.extend(
            [
                ("iterations", iterations as f64),
                ("ucb_c", 0.7),
                ("widen_c", 2.0),
                ("widen_alpha", 0.5),
                ("horizon", 2.0),
                ("rival", 1.0),
                ("scale", 4.0),
                ("paranoid", f64::from(u8::from(paranoid))),
            ]
            .map(|(k, v)| (k.to_string(), v)),
        );
        match Policy::new("ismcts", &params).unwrap() {
            Policy::Ismcts(m) => m,
            other => panic!("not ismcts: {other:?}"),
        }
    }

    /// A position a few greedy actions into a 4-player game.
    fn position(seed: u64, actions: usize) -> State {
        let mut s = new_game(&Config::printed(4, "base_45p", seed)).unwrap();
        let greedy = Policy::new("greedy", &greedy_defaults()).unwrap();
        let mut rng = Rng::new(seed);
        let mut legal = Vec::new();
        for _ in 0..actions {
            legal_actions(&s, &mut legal);
            let a = greedy.choose(&s, &legal, &mut rng);
            apply_unchecked(&mut s, &a);
        }
        s
    }

    #[test]
    fn the_budget_is_the_iterations() {
        let s = position(3, 5);
        let mut legal = Vec::new();
        legal_actions(&s, &mut legal);
        assert!(legal.len() > 1);
        let mut nodes = 0;
        for iterations in [1, 8, 40] {
            let (a, st) = ismcts(iterations, false).search(&s, &legal, &mut Rng::new(9));
            assert!(legal.contains(&a));
            assert_eq!(st.iterations, iterations);
            assert!(st.nodes > nodes && st.nodes <= iterations + 1);
            assert!(st.max_depth >= 1);
            nodes = st.nodes;
        }
    }

    #[test]
    fn one_draw_per_decision_and_the_same_choice_from_the_same_stream() {
        for paranoid in [false, true] {
            let m = ismcts(24, paranoid);
            let s = position(5, 9);
            let mut legal = Vec::new();
            legal_actions(&s, &mut legal);
            let (mut r1, mut r2) = (Rng::new(1), Rng::new(1));
            assert_eq!(m.search(&s, &legal, &mut r1), m.search(&s, &legal, &mut r2));
            let mut once = Rng::new(1);
            once.next_u64();
            assert_eq!(r1, once);
        }
    }

    #[test]
    fn a_single_legal_action_is_played_without_search() {
        let s = position(2, 0);
        let only = [Action::k(crate::actions::K_END)];
        let mut rng = Rng::new(4);
        let (a, st) = ismcts(50, false).search(&s, &only, &mut rng);
        assert_eq!((a, st, rng), (only[0], SearchStats::default(), Rng::new(4)));
    }

    #[test]
    fn leaf_values_are_in_the_unit_interval() {
        let s = position(7, 30);
        for paranoid in [false, true] {
            let m = ismcts(1, paranoid);
            let (mut base, mut out) = (vec![0.0; 4], vec![0.0; 4]);
            m.margins(&position(7, 2), &mut base);
            m.leaf_values(&s, 1, &base, &mut out);
            assert!(out.iter().all(|v| (0.0..=1.0).contains(v)), "{out:?}");
            if paranoid {
                assert!((out[0] + out[1] - 1.0).abs() < 1e-12 && out[0] == out[2]);
            }
        }
    }

    #[test]
    fn parameters_are_taken_by_name() {
        let mut params = greedy_defaults();
        params.push(("iterations".into(), 10.0));
        let err = Policy::new("ismcts", &params).unwrap_err();
        assert!(err.contains("\"ucb_c\" is missing"), "{err}");
    }
}
