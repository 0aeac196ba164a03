//! The dense action index (twin of `hansa_lab/env/action_index.py`): every action of a
//! board side as one integer in `[0, size)`, one contiguous range per action kind in
//! `ACTION_KINDS` order.

use crate::actions::*;
use crate::board::Board;
use crate::state::{FAVOUR_TILES, MARKER_KINDS};

pub const INCOME_TRADERS: usize = 28;
pub const INCOME_MERCHANTS: usize = 5;
pub const PAY_CHOICES: usize = 3;
pub const N_ABILITIES: usize = 5;
const N_MARKER_KINDS: usize = MARKER_KINDS.len();
const N_MARKER_PAIRS: usize = N_MARKER_KINDS * (N_MARKER_KINDS + 1) / 2;

/// The index of one board side: where each kind's range starts.
#[derive(Clone, Debug)]
pub struct ActionIndex {
    pub n_posts: usize,
    pub n_routes: usize,
    pub n_cities: usize,
    pub n_offices: usize,
    pub n_special: usize,
    pub establish_stride: usize,
    /// start of each kind's range, `ACTION_KINDS` order, then the total size
    pub start: [usize; ACTION_KINDS.len() + 1],
}

fn pair(x: usize, y: usize, n: usize) -> usize {
    x * (2 * n - x - 1) / 2 + (y - x - 1)
}

fn unpair(mut i: usize, n: usize) -> (usize, usize) {
    let mut x = 0;
    while i >= n - 1 - x {
        i -= n - 1 - x;
        x += 1;
    }
    (x, x + 1 + i)
}

fn pair_eq(x: usize, y: usize, n: usize) -> usize {
    x * (2 * n - x + 1) / 2 + (y - x)
}

fn unpair_eq(mut i: usize, n: usize) -> (usize, usize) {
    let mut x = 0;
    while i >= n - x {
        i -= n - x;
        x += 1;
    }
    (x, x + i)
}

/// `0 <= v < n` as an index.
#[inline]
fn within(v: i32, n: usize) -> Option<usize> {
    // one comparison: a negative `v` is a large u32
    let v = v as u32 as usize;
    (v < n).then_some(v)
}

impl ActionIndex {
    pub fn new(b: &Board) -> ActionIndex {
        let (p, r, c, o) = (b.n_posts, b.n_routes, b.n_cities, b.n_offices);
        let n_special = b.special_spaces.len();
        let establish_stride = 12 + n_special;
        let sizes: [usize; ACTION_KINDS.len()] = [
            INCOME_TRADERS * INCOME_MERCHANTS,   // income
            2 * r,                               // place
            2 * PAY_CHOICES * p,                 // displace
            1,                                   // move
            r * establish_stride,                // establish
            9 + o,                               // marker
            FAVOUR_TILES.len() * N_MARKER_PAIRS, // favour
            1,                                   // end
            p * r,                               // move_piece
            p * (p - 1) / 2,                     // swap
            p * r,                               // shift
            p,                                   // remove
            1,                                   // stop
            r,                                   // relocate
            r * (2 + p),                         // relocate_extra
            1,                                   // decline
            r,                                   // place_marker
            2,                                   // favour_take
            p * r,                               // perm_move
            p * (p - 1) / 2,                     // perm_swap
            N_ABILITIES,                         // perm_develop
            2 * c,                               // perm_kontor
            r * (2 + p),                         // perm_place
        ];
        let mut start = [0; ACTION_KINDS.len() + 1];
        for k in 0..sizes.len() {
            start[k + 1] = start[k] + sizes[k];
        }
        ActionIndex {
            n_posts: p,
            n_routes: r,
            n_cities: c,
            n_offices: o,
            n_special,
            establish_stride,
            start,
        }
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.start[ACTION_KINDS.len()]
    }

    /// The integer of `act`, `None` if an argument is out of range.
    #[inline]
    pub fn index(&self, act: &Action) -> Option<usize> {
        // first the kind of a Move's (long) lists, without the dispatch
        if act.kind == K_MOVE_PIECE {
            let piece = within(act.a, self.n_posts)?;
            let route = within(act.b, self.n_routes)?;
            return Some(self.start[K_MOVE_PIECE as usize] + piece * self.n_routes + route);
        }
        let k = act.kind as usize;
        if k >= ACTION_KINDS.len() {
            return None;
        }
        self.offset(act).map(|x| self.start[k] + x)
    }

    #[inline]
    fn offset(&self, act: &Action) -> Option<usize> {
        let (a, b, c) = (act.a, act.b, act.c);
        let (p, r) = (self.n_posts, self.n_routes);
        match act.kind {
            K_MOVE | K_END | K_STOP | K_DECLINE => Some(0),
            K_INCOME => {
                Some(within(b, INCOME_MERCHANTS)? * INCOME_TRADERS + within(a, INCOME_TRADERS)?)
            }
            K_PLACE => Some(within(a, r)? * 2 + within(b, 2)?),
            K_DISPLACE => {
                Some((within(a, p)? * 2 + within(b, 2)?) * PAY_CHOICES + within(c, PAY_CHOICES)?)
            }
            K_ESTABLISH => {
                let base = within(a, r)? * self.establish_stride;
                match b {
                    R_NONE => Some(base),
                    R_KONTOR => Some(base + 1 + within(c, 2)?),
                    R_EXTRA => Some(base + 3 + within(c, 4)?),
                    R_DEVELOP => Some(base + 7 + within(c, N_ABILITIES)?),
                    R_SPECIAL => Some(base + 12 + within(c, self.n_special)?),
                    _ => None,
                }
            }
            K_MARKER => {
                let o = self.n_offices;
                match a {
                    M_DEVELOP => Some(2 + within(b, N_ABILITIES)?),
                    M_SWAP => Some(7 + within(b, o)?),
                    _ if b != -1 => None,
                    M_PLUS3 => Some(0),
                    M_PLUS4 => Some(1),
                    M_MOVE3 => Some(7 + o),
                    M_REMOVE3 => Some(8 + o),
                    _ => None,
                }
            }
            K_FAVOUR => {
                let t = within(a, FAVOUR_TILES.len())?;
                let (x, y) = (within(b, N_MARKER_KINDS)?, within(c, N_MARKER_KINDS)?);
                if x > y {
                    return None;
                }
                Some(t * N_MARKER_PAIRS + pair_eq(x, y, N_MARKER_KINDS))
            }
            K_MOVE_PIECE | K_SHIFT | K_PERM_MOVE => Some(within(a, p)? * r + within(b, r)?),
            K_SWAP | K_PERM_SWAP => {
                let (x, y) = (within(a, p)?, within(b, p)?);
                if x >= y {
                    return None;
                }
                Some(pair(x, y, p))
            }
            K_REMOVE => within(a, p),
            K_RELOCATE | K_PLACE_MARKER => within(a, r),
            K_RELOCATE_EXTRA | K_PERM_PLACE => {
                let base = within(a, r)? * (2 + p);
                if c >= 0 {
                    if b != -1 {
                        return None;
                    }
                    Some(base + 2 + within(c, p)?)
                } else {
                    Some(base + within(b, 2)?)
                }
            }
            K_FAVOUR_TAKE => within(a, 2),
            K_PERM_DEVELOP => within(a, N_ABILITIES),
            K_PERM_KONTOR => Some(within(a, self.n_cities)? * 2 + within(b, 2)?),
            _ => None,
        }
    }

    /// The action of integer `i` (inverse of [`ActionIndex::index`]), `None` outside
    /// `[0, size)`.
    pub fn action(&self, i: usize) -> Option<Action> {
        if i >= self.size() {
            return None;
        }
        let k = self.start.partition_point(|&s| s <= i) - 1;
        let x = i - self.start[k];
        let kind = k as u8;
        let (p, r) = (self.n_posts, self.n_routes);
        let n = |v: usize| v as i32;
        Some(match kind {
            K_MOVE | K_END | K_STOP | K_DECLINE => Action::k(kind),
            K_INCOME => Action::k2(kind, n(x % INCOME_TRADERS), n(x / INCOME_TRADERS)),
            K_PLACE | K_PERM_KONTOR => Action::k2(kind, n(x / 2), n(x % 2)),
            K_DISPLACE => Action::new(
                kind,
                n(x / (2 * PAY_CHOICES)),
                n((x / PAY_CHOICES) % 2),
                n(x % PAY_CHOICES),
            ),
            K_ESTABLISH => {
                let (route, y) = (n(x / self.establish_stride), x % self.establish_stride);
                match y {
                    0 => Action::k2(kind, route, R_NONE),
                    1..=2 => Action::new(kind, route, R_KONTOR, n(y - 1)),
                    3..=6 => Action::new(kind, route, R_EXTRA, n(y - 3)),
                    7..=11 => Action::new(kind, route, R_DEVELOP, n(y - 7)),
                    _ => Action::new(kind, route, R_SPECIAL, n(y - 12)),
                }
            }
            K_MARKER => {
                let o = self.n_offices;
                if x < 2 {
                    Action::k1(kind, n(x))
                } else if x < 7 {
                    Action::k2(kind, M_DEVELOP, n(x - 2))
                } else if x < 7 + o {
                    Action::k2(kind, M_SWAP, n(x - 7))
                } else if x == 7 + o {
                    Action::k1(kind, M_MOVE3)
                } else {
                    Action::k1(kind, M_REMOVE3)
                }
            }
            K_FAVOUR => {
                let (x1, x2) = unpair_eq(x % N_MARKER_PAIRS, N_MARKER_KINDS);
                Action::new(kind, n(x / N_MARKER_PAIRS), n(x1), n(x2))
            }
            K_MOVE_PIECE | K_SHIFT | K_PERM_MOVE => Action::k2(kind, n(x / r), n(x % r)),
            K_SWAP | K_PERM_SWAP => {
                let (x1, x2) = unpair(x, p);
                Action::k2(kind, n(x1), n(x2))
            }
            K_RELOCATE_EXTRA | K_PERM_PLACE => {
                let (route, y) = (n(x / (2 + p)), x % (2 + p));
                if y < 2 {
                    Action::k2(kind, route, n(y))
                } else {
                    Action::new(kind, route, -1, n(y - 2))
                }
            }
            _ => Action::k1(kind, n(x)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::board;

    #[test]
    fn every_index_round_trips() {
        for side in [
            "base_3p",
            "base_45p",
            "east",
            "britannia_3p",
            "britannia_45p",
        ] {
            let b = board(side, false).unwrap();
            let ix = ActionIndex::new(b);
            for i in 0..ix.size() {
                let a = ix.action(i).unwrap();
                assert_eq!(ix.index(&a), Some(i), "{side} {i} {a:?}");
            }
            assert!(ix.action(ix.size()).is_none());
        }
    }
}
