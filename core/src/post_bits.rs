//! The trading posts as bitsets (bit `i` stands for post `i`): which are free and which
//! hold a given player's pieces, tested eight posts at a time. A route's posts are
//! consecutive, so its free and own posts come out as a few bits
//! ([`PostBits::free_in`], [`PostBits::own_in`]) without visiting each post. Computed
//! from the posts when needed: nothing is kept in the `State`.

use crate::board::MAX_ROUTES;
use crate::state::EMPTY;

/// A route has at most this many posts (the board loader checks).
pub const MAX_ROUTE_POSTS: usize = 6;

const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const ONES: u64 = 0x0101_0101_0101_0101;

/// Words of a bitset: every post of the largest board the loader accepts, and one spare
/// word so that a route's bits can always be read from two neighbouring words.
const WORDS: usize = MAX_ROUTES * MAX_ROUTE_POSTS / 64 + 1;

/// The free posts and player `p`'s posts of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostBits {
    free: [u64; WORDS],
    own: [u64; WORDS],
}

/// `0x80` in exactly the bytes of `v` that are zero (no borrow between bytes).
#[inline]
fn zero_bytes(v: u64) -> u64 {
    !(((v & LOW7).wrapping_add(LOW7)) | v | LOW7)
}

/// The top bits of the eight bytes of `m` (only bits 7, 15, ..., 63 set) as eight bits,
/// byte `k`'s as bit `k`: every partial product lands on its own bit, so nothing carries.
#[inline]
fn gather(m: u64) -> u64 {
    (m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Bits `lo..lo + len` of `words` as the low `len` bits (`len` <= [`MAX_ROUTE_POSTS`]).
#[inline]
fn bits_in(words: &[u64; WORDS], lo: usize, len: usize) -> u64 {
    let (w, shift) = (lo / 64, lo % 64);
    let mut v = words[w] >> shift;
    if shift + len > 64 {
        v |= words[w + 1] << (64 - shift);
    }
    v & ((1u64 << len) - 1)
}

impl PostBits {
    /// The bitsets of `posts` (an occupant per post: [`EMPTY`] or `player * 2 + kind`,
    /// at most `MAX_ROUTES * MAX_ROUTE_POSTS` posts) for player `p`.
    #[inline]
    pub fn new(posts: &[i8], p: usize) -> PostBits {
        debug_assert!(posts.len() <= (WORDS - 1) * 64 && p < 64 && EMPTY as u8 == 0xff);
        let mut out = PostBits {
            free: [0; WORDS],
            own: [0; WORDS],
        };
        // an own piece is `2p` or `2p + 1`: its byte with the kind bit cleared is `2p`
        let own_byte = ONES.wrapping_mul(2 * p as u64);
        let mut put = |at: usize, x: u64, keep: u64| {
            let free = gather(zero_bytes(!x)) & keep;
            let own = gather(zero_bytes((x & !ONES) ^ own_byte)) & keep;
            out.free[at / 64] |= free << (at % 64);
            out.own[at / 64] |= own << (at % 64);
        };
        let mut chunks = posts.chunks_exact(8);
        let mut at = 0;
        for c in &mut chunks {
            let x = u64::from_le_bytes([
                c[0] as u8, c[1] as u8, c[2] as u8, c[3] as u8, c[4] as u8, c[5] as u8, c[6] as u8,
                c[7] as u8,
            ]);
            put(at, x, 0xff);
            at += 8;
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut bytes = [0u8; 8];
            for (b, &o) in bytes.iter_mut().zip(rest) {
                *b = o as u8;
            }
            put(at, u64::from_le_bytes(bytes), (1 << rest.len()) - 1);
        }
        out
    }

    /// The free posts among `lo..lo + len` as the low `len` bits.
    #[inline]
    pub fn free_in(&self, lo: usize, len: usize) -> u64 {
        bits_in(&self.free, lo, len)
    }

    /// Player `p`'s posts among `lo..lo + len` as the low `len` bits.
    #[inline]
    pub fn own_in(&self, lo: usize, len: usize) -> u64 {
        bits_in(&self.own, lo, len)
    }

    /// Player `p`'s posts, ascending.
    #[inline]
    pub fn own_posts(&self) -> impl Iterator<Item = usize> + '_ {
        self.own.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + bit
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn the_bits_match_the_posts_one_by_one() {
        let mut rng = Rng::new(5);
        for n in [
            1,
            7,
            8,
            9,
            63,
            64,
            65,
            101,
            121,
            MAX_ROUTES * MAX_ROUTE_POSTS,
        ] {
            for _ in 0..20 {
                // occupants of up to five players, and free posts
                let posts: Vec<i8> = (0..n).map(|_| rng.below(11) as i8 - 1).collect();
                for p in 0..5 {
                    let bits = PostBits::new(&posts, p);
                    for lo in 0..n {
                        for len in 1..=(n - lo).min(MAX_ROUTE_POSTS) {
                            let (mut free, mut own) = (0u64, 0u64);
                            for (j, &o) in posts[lo..lo + len].iter().enumerate() {
                                free |= u64::from(o == EMPTY) << j;
                                own |= u64::from(o != EMPTY && o >> 1 == p as i8) << j;
                            }
                            let got = (bits.free_in(lo, len), bits.own_in(lo, len));
                            assert_eq!(got, (free, own), "{n} posts, {lo}+{len}, p {p}");
                        }
                    }
                    let own: Vec<usize> = (0..n)
                        .filter(|&i| posts[i] != EMPTY && posts[i] >> 1 == p as i8)
                        .collect();
                    assert_eq!(
                        bits.own_posts().collect::<Vec<_>>(),
                        own,
                        "{n} posts, p {p}"
                    );
                }
            }
        }
    }
}
