//! A Move decision's choices in compact form: each own piece with the routes it may go to
//! (a bitmask), then the swaps, then `stop`, standing for [`own_moves`]'s list in its
//! order (`move_piece` actions by post, each post's by route, then `swap`s, then `stop`)
//! without writing it out. The vector environment steps a Move (its long lists) this way.
//!
//! [`own_moves`]: crate::decisions::own_moves

use crate::actions::*;
use crate::board::TRADER;
use crate::effects::{free_route_masks_from, piece_destinations};
use crate::post_bits::PostBits;
use crate::state::{State, EMPTY};

/// A Move's choices (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveChoices {
    /// each own piece with somewhere to go: its post and its destination routes (bits),
    /// by post
    pub pieces: Vec<(usize, u64)>,
    /// the swaps (two posts), in the list's order
    pub swaps: Vec<(usize, usize)>,
    /// how many `move_piece` actions `pieces` stands for
    pub n_moves: usize,
    /// every own piece's post (for the swaps)
    own: Vec<usize>,
}

impl MoveChoices {
    /// The length of the list (moves, swaps and `stop`).
    pub fn len(&self) -> usize {
        self.n_moves + self.swaps.len() + 1
    }

    /// Never empty (`stop` is always a choice).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The list's action `i` (`i < len()`).
    pub fn action(&self, mut i: usize) -> Action {
        if i < self.n_moves {
            for &(post, dest) in &self.pieces {
                let n = dest.count_ones() as usize;
                if i < n {
                    return Action::k2(K_MOVE_PIECE, post as i32, nth_bit(dest, i) as i32);
                }
                i -= n;
            }
        }
        i -= self.n_moves;
        match self.swaps.get(i) {
            Some(&(x, y)) => Action::k2(K_SWAP, x as i32, y as i32),
            None => Action::k(K_STOP),
        }
    }

    /// Append the list to `acts`.
    pub fn push_actions(&self, acts: &mut Vec<Action>) {
        for &(post, mut dest) in &self.pieces {
            acts.extend((0..dest.count_ones()).map(|_| {
                let r = dest.trailing_zeros() as i32;
                dest &= dest - 1;
                Action::k2(K_MOVE_PIECE, post as i32, r)
            }));
        }
        for &(x, y) in &self.swaps {
            acts.push(Action::k2(K_SWAP, x as i32, y as i32));
        }
        acts.push(Action::k(K_STOP));
    }
}

/// The position of the `n`-th set bit of `bits` (from the lowest; `n` < its count).
#[inline]
pub fn nth_bit(mut bits: u64, n: usize) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// The choices of player `p`'s Move (`swaps`: two or more moves left) into `out`.
pub fn move_choices(s: &State, p: usize, swaps: bool, out: &mut MoveChoices) {
    out.pieces.clear();
    out.swaps.clear();
    out.n_moves = 0;
    out.own.clear();
    let bits = PostBits::new(&s.posts, p);
    let (for_t, for_m) = free_route_masks_from(s, &bits);
    // own pieces go anywhere in England too (the non-strict rule)
    let rule = if s.board.has_regions {
        Some(false)
    } else {
        None
    };
    for i in bits.own_posts() {
        out.own.push(i);
        let dest = piece_destinations(s, i, for_t, for_m, rule);
        if dest != 0 {
            out.pieces.push((i, dest));
            out.n_moves += dest.count_ones() as usize;
        }
    }
    if swaps {
        swaps_among(s, &out.own, |x, y| out.swaps.push((x, y)));
    }
}

/// Every swap of two own pieces of player `p` (a trader and a merchant on different routes
/// of one country, the trader's post not merchant-only), in the list's order.
pub fn for_each_swap(s: &State, p: usize, found: impl FnMut(usize, usize)) {
    let posts = &s.posts;
    let mut pieces = Vec::with_capacity(posts.len());
    pieces.extend((0..posts.len()).filter(|&i| posts[i] != EMPTY && (posts[i] >> 1) as usize == p));
    swaps_among(s, &pieces, found);
}

/// [`for_each_swap`] given the player's pieces (their posts, ascending).
fn swaps_among(s: &State, pieces: &[usize], mut found: impl FnMut(usize, usize)) {
    let b = s.board;
    let posts = &s.posts;
    let pr = &b.post_route;
    let mo = &b.post_merchant_only;
    let country = &b.route_country;
    // `pieces` ascends: each pair once, in order
    for (j, &x) in pieces.iter().enumerate() {
        for &y in &pieces[j + 1..] {
            if (posts[x] & 1) != (posts[y] & 1) && pr[x] != pr[y] {
                let t_post = if (posts[x] & 1) as i32 == TRADER {
                    y
                } else {
                    x
                };
                if !mo[t_post] && country[pr[x]] == country[pr[y]] {
                    found(x, y);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decisions::Decision;
    use crate::env::action_index::ActionIndex;
    use crate::rng::Rng;
    use crate::rules::{apply_unchecked, legal_actions};
    use crate::state::{new_game, Config};
    use crate::strategies::random_policy;

    #[test]
    fn the_compact_choices_stand_for_the_legal_list() {
        let mut seen = 0;
        for (n, side) in [
            (2, "base_3p"),
            (3, "base_3p"),
            (4, "east"),
            (5, "britannia_45p"),
        ] {
            for seed in 0..6 {
                let mut s = new_game(&Config::printed(n, side, seed)).unwrap();
                let ix = ActionIndex::new(s.board);
                let (mut rng, mut legal, mut m) =
                    (Rng::new(seed), Vec::new(), MoveChoices::default());
                while !s.is_over() && s.n_actions < 3000 {
                    legal_actions(&s, &mut legal);
                    // the vector environment checks an action by its index (one action
                    // per index: every legal action is the one its index stands for)
                    for a in &legal {
                        assert_eq!(ix.index(a).and_then(|i| ix.action(i)), Some(*a));
                    }
                    if let Some(&Decision::Move { player, left }) = s.pending.last() {
                        move_choices(&s, player, left >= 2, &mut m);
                        let mut listed = Vec::new();
                        m.push_actions(&mut listed);
                        assert_eq!(listed, legal, "{side} {n} players, action {}", s.n_actions);
                        assert_eq!(m.len(), legal.len());
                        for (i, a) in legal.iter().enumerate() {
                            assert_eq!(m.action(i), *a);
                        }
                        // the random policy draws the same action from the compact form
                        let (mut r1, mut r2) = (rng.clone(), rng.clone());
                        let want = random_policy::choose(&s, &legal, &mut r1);
                        assert_eq!(random_policy::choose_move(&s, &m, &mut r2), want);
                        assert_eq!(r1.next_u64(), r2.next_u64());
                        seen += 1;
                    }
                    let a = random_policy::choose(&s, &legal, &mut rng);
                    apply_unchecked(&mut s, &a);
                }
            }
        }
        assert!(seen > 1000, "{seen} Move decisions");
    }
}
