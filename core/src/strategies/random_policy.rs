//! The baseline `random` policy with its default biases (twin of
//! `hansa_lab/strategies/random_policy.py`), drawing from the shared generator.

use crate::actions::*;
use crate::board::MAX_ROUTES;
use crate::move_choices::{nth_bit, MoveChoices};
use crate::rng::Rng;
use crate::state::{State, EMPTY};

/// Uniform choice among the actions of `legal` that satisfy `keep`, in their order
/// (`rng.choice([a for a in legal if keep(a)])`, one pass); None if none.
fn choose_where(legal: &[Action], rng: &mut Rng, keep: impl Fn(&Action) -> bool) -> Option<Action> {
    let mut picked: Vec<u32> = Vec::with_capacity(legal.len());
    for (i, a) in legal.iter().enumerate() {
        if keep(a) {
            picked.push(i as u32);
        }
    }
    if picked.is_empty() {
        return None;
    }
    Some(legal[picked[rng.choice_index(picked.len())] as usize])
}

/// The random strategy with its biases switched on or off (`random:establish=false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Random {
    pub establish: bool,
    pub gather: bool,
}

impl Default for Random {
    fn default() -> Self {
        Random {
            establish: true,
            gather: true,
        }
    }
}

impl Random {
    /// The action this random strategy chooses (`legal` non-empty).
    pub fn choose(&self, s: &State, legal: &[Action], rng: &mut Rng) -> Action {
        choose_with(s, legal, rng, self.establish, self.gather)
    }
}

/// The action the random strategy with its default biases chooses (`legal` non-empty).
pub fn choose(s: &State, legal: &[Action], rng: &mut Rng) -> Action {
    choose_with(s, legal, rng, true, true)
}

fn choose_with(
    s: &State,
    legal: &[Action],
    rng: &mut Rng,
    establish: bool,
    gather: bool,
) -> Action {
    // 1. a completed route is always established, with a reward when one is available
    if establish && legal.iter().any(|a| a.kind == K_ESTABLISH) {
        let rewarded = |a: &Action| a.kind == K_ESTABLISH && a.b != R_NONE;
        if let Some(a) = choose_where(legal, rng, rewarded) {
            return a;
        }
        if let Some(a) = choose_where(legal, rng, |a| a.kind == K_ESTABLISH) {
            return a;
        }
    }
    // 3./4. inside a Move, gather pieces (two players, stuck: toward completable routes)
    if gather && matches!(legal[0].kind, K_MOVE_PIECE | K_SWAP | K_STOP) {
        let p = s.current_player();
        let stuck = stuck(s, p);
        let b = s.board;
        let (own, other) = own_counts(s, p);
        let found = if stuck {
            let total: i32 = own.iter().sum();
            let feasible = |r: usize| !other[r] && b.route_n_posts[r] as i32 <= total;
            choose_where(legal, rng, |a| {
                if a.kind != K_MOVE_PIECE {
                    return false;
                }
                let to = a.b as usize;
                let from = b.post_route[a.a as usize];
                feasible(to)
                    && b.route_n_posts[to] as i32 > own[to]
                    && (!feasible(from) || own[to] >= own[from])
            })
        } else {
            choose_where(legal, rng, |a| {
                if a.kind != K_MOVE_PIECE {
                    return false;
                }
                let to = a.b as usize;
                let from = b.post_route[a.a as usize];
                own[to] >= own[from] && own[to] > 0 && b.route_n_posts[to] as i32 > own[to]
            })
        };
        if let Some(a) = found {
            return a;
        }
    }
    // 2. `end` only when nothing else is legal
    let n = legal.len();
    if n > 1 && legal[n - 1].kind == K_END {
        return legal[rng.below(n as u64 - 1) as usize];
    }
    legal[rng.choice_index(n)]
}

/// Two players and every piece of `p` on the board (the gathering rule's other case).
fn stuck(s: &State, p: usize) -> bool {
    s.neutral() >= 0 && s.supply_t[p] + s.supply_m[p] + s.stock_t[p] + s.stock_m[p] == 0
}

/// The gathering rule of a Move (biases 3. and 4.; [`choose_with`]'s filters) as routes
/// (bits), for [`choose_move`] (a test checks both draw alike): a piece goes to a
/// route with room that holds some own pieces and no fewer than the route it leaves; when
/// `stuck`, to a route with room, without other pieces and no longer than the own pieces
/// on the board, holding no fewer own pieces than the one it leaves unless that one is no
/// such route.
struct Gather {
    own: [i32; MAX_ROUTES],
    /// routes holding at least `k` own pieces, for every count a route can hold (a route
    /// has at most 6 posts: the board loader checks)
    at_least: [u64; 7],
    /// the routes a piece may go to whatever route it leaves
    targets: u64,
    /// the stuck case's routes (none otherwise)
    feasible: u64,
}

impl Gather {
    fn new(s: &State, p: usize, stuck: bool) -> Gather {
        let b = s.board;
        let (own, other) = own_counts(s, p);
        let mut exactly = [0u64; 7];
        let (mut room, mut feasible) = (0u64, 0u64);
        let total: i32 = own.iter().sum();
        for r in 0..b.n_routes {
            exactly[(own[r] as usize).min(exactly.len() - 1)] |= 1 << r;
            let posts = b.route_n_posts[r] as i32;
            if posts > own[r] {
                room |= 1 << r;
            }
            if stuck && !other[r] && posts <= total {
                feasible |= 1 << r;
            }
        }
        let mut at_least = exactly;
        for k in (0..at_least.len() - 1).rev() {
            at_least[k] |= at_least[k + 1];
        }
        let targets = if stuck {
            feasible & room
        } else {
            at_least[1] & room
        };
        Gather {
            own,
            at_least,
            targets,
            feasible,
        }
    }

    /// The routes a piece on route `from` may go to.
    #[inline]
    fn to(&self, from: usize) -> u64 {
        let no_fewer = self.at_least[(self.own[from] as usize).min(self.at_least.len() - 1)];
        // not stuck: `feasible` is empty, the rule always applies
        if self.feasible != 0 && self.feasible >> from & 1 == 0 {
            self.targets
        } else {
            self.targets & no_fewer
        }
    }
}

/// [`choose`] for a Move decision given as its compact choices (`m` stands for the legal
/// list): the same action, drawn the same way.
pub fn choose_move(s: &State, m: &MoveChoices, rng: &mut Rng) -> Action {
    // a Move's list has no establish action, and starts with a move_piece, swap or stop:
    // the gathering rule, then a uniform choice
    let p = s.current_player();
    let gather = Gather::new(s, p, stuck(s, p));
    let post_route = &s.board.post_route;
    let kept = |post: usize, dest: u64| dest & gather.to(post_route[post]);
    let n_kept: usize = m
        .pieces
        .iter()
        .map(|&(post, dest)| kept(post, dest).count_ones() as usize)
        .sum();
    if n_kept > 0 {
        let mut i = rng.choice_index(n_kept);
        for &(post, dest) in &m.pieces {
            let k = kept(post, dest);
            let n = k.count_ones() as usize;
            if i < n {
                return Action::k2(K_MOVE_PIECE, post as i32, nth_bit(k, i) as i32);
            }
            i -= n;
        }
    }
    m.action(rng.choice_index(m.len()))
}

fn own_counts(s: &State, p: usize) -> ([i32; MAX_ROUTES], [bool; MAX_ROUTES]) {
    let b = s.board;
    let mut own = [0i32; MAX_ROUTES];
    let mut other = [false; MAX_ROUTES];
    for (i, &o) in s.posts.iter().enumerate() {
        if o != EMPTY {
            if (o >> 1) as usize == p {
                own[b.post_route[i]] += 1;
            } else {
                other[b.post_route[i]] = true;
            }
        }
    }
    (own, other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choose_where_draws_like_a_choice_from_the_filtered_list() {
        for len in [1, 7, 512, 513, 2000] {
            let legal: Vec<Action> = (0..len).map(|i| Action::k1(K_REMOVE, i)).collect();
            let keep = |a: &Action| a.a % 3 != 1;
            let kept: Vec<Action> = legal.iter().copied().filter(keep).collect();
            let (mut rng, mut plain) = (Rng::new(len as u64), Rng::new(len as u64));
            for _ in 0..50 {
                let want = kept.get(plain.choice_index(kept.len().max(1))).copied();
                assert_eq!(choose_where(&legal, &mut rng, keep), want, "{len}");
            }
        }
        let none = [Action::k1(K_REMOVE, 1)];
        assert_eq!(choose_where(&none, &mut Rng::new(1), |a| a.a == 0), None);
    }
}
