//! perft: the number of action sequences of a given length from a position (twin of
//! `hansa_lab/engine/perft.py`), to compare the engines' move generation.

use crate::actions::Action;
use crate::rules::{apply_unchecked, legal};
use crate::state::State;

/// The number of action sequences of length `depth` from `s` (leaf nodes of the game
/// tree cut at `depth`; a finished game is one leaf).
pub fn perft(s: &State, depth: u32) -> u64 {
    if depth == 0 || s.is_over() {
        return 1;
    }
    let acts = legal(s);
    if depth == 1 {
        return acts.len() as u64;
    }
    let mut child = s.clone();
    acts.iter()
        .map(|a| {
            child.clone_from(s);
            apply_unchecked(&mut child, a);
            perft(&child, depth - 1)
        })
        .sum()
}

/// [`perft`] below each legal action of `s`, in the legal order.
pub fn divide(s: &State, depth: u32) -> Vec<(Action, u64)> {
    let mut child = s.clone();
    legal(s)
        .into_iter()
        .map(|a| {
            child.clone_from(s);
            apply_unchecked(&mut child, &a);
            (a, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{new_game, Config};

    #[test]
    fn perft_counts_sequences() {
        let s = new_game(&Config::printed(3, "base_3p", 1)).unwrap();
        assert_eq!(perft(&s, 0), 1);
        assert_eq!(perft(&s, 1), 68);
        assert_eq!(perft(&s, 2), 3664);
        let per_action: u64 = divide(&s, 2).iter().map(|(_, n)| n).sum();
        assert_eq!(per_action, 3664);
    }
}
