//! One determinisation for every search: the only hidden information of the game is the
//! draw order of the face-down bonus markers (the replacement bag), and a search that
//! plays a position on must first deal that bag in some order. `determinise` deals it in
//! an order drawn from a random stream, starting from the canonical order (marker kind
//! codes ascending, `MARKER_KINDS` order), so the result depends on the bag's contents
//! and the stream only: never on the real order, which the searching seat cannot know.
//! The Python twin is `determinise` in `hansa_lab/engine/observe.py` (same order, same
//! Fisher–Yates shuffle), so both engines deal alike.

use crate::rng::Rng;
use crate::state::State;

/// Deal the bag of `s` in place: canonical order, then shuffled by `rng`.
pub fn determinise(s: &mut State, rng: &mut Rng) {
    s.bag.sort_unstable();
    rng.shuffle(&mut s.bag);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{new_game, Config};

    #[test]
    fn the_deal_ignores_the_real_order() {
        let s = new_game(&Config::printed(3, "base_3p", 1)).unwrap();
        assert!(s.bag.len() > 2);
        let mut reversed = s.clone();
        reversed.bag.reverse();
        let (mut a, mut b) = (s.clone(), reversed);
        determinise(&mut a, &mut Rng::new(9));
        determinise(&mut b, &mut Rng::new(9));
        assert_eq!(a.bag, b.bag);
        let mut sorted_a = a.bag.clone();
        sorted_a.sort_unstable();
        let mut sorted_s = s.bag.clone();
        sorted_s.sort_unstable();
        assert_eq!(sorted_a, sorted_s);
        let mut c = s.clone();
        determinise(&mut c, &mut Rng::new(10));
        assert_ne!(a.bag, c.bag, "another stream deals another order");
    }
}
