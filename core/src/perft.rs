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

/// How many inner positions [`perft_until`] visits between two questions to `stop`
/// (some milliseconds of work).
const CHECK_EVERY: u32 = 1024;

/// Asks the caller's `stop` every [`CHECK_EVERY`] inner positions.
struct Watch<'a> {
    stop: &'a mut dyn FnMut() -> bool,
    visited: u32,
}

impl Watch<'_> {
    fn stopped(&mut self) -> bool {
        self.visited += 1;
        if self.visited < CHECK_EVERY {
            return false;
        }
        self.visited = 0;
        (self.stop)()
    }
}

fn watched(s: &State, depth: u32, watch: &mut Watch<'_>) -> Option<u64> {
    if depth == 0 || s.is_over() {
        return Some(1);
    }
    let acts = legal(s);
    if depth == 1 {
        return Some(acts.len() as u64);
    }
    if watch.stopped() {
        return None;
    }
    let mut child = s.clone();
    let mut total = 0;
    for a in &acts {
        child.clone_from(s);
        apply_unchecked(&mut child, a);
        total += watched(&child, depth - 1, watch)?;
    }
    Some(total)
}

/// [`perft`] that asks `stop` now and then (every some thousand positions) and gives up,
/// returning None, once it says true (the Python binding stops on Ctrl-C this way).
pub fn perft_until(s: &State, depth: u32, stop: &mut dyn FnMut() -> bool) -> Option<u64> {
    watched(s, depth, &mut Watch { stop, visited: 0 })
}

/// [`divide`] that gives up, returning None, once `stop` says true (as [`perft_until`]).
pub fn divide_until(
    s: &State,
    depth: u32,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Vec<(Action, u64)>> {
    let mut watch = Watch { stop, visited: 0 };
    let mut child = s.clone();
    let mut out = Vec::new();
    for a in legal(s) {
        child.clone_from(s);
        apply_unchecked(&mut child, &a);
        let n = watched(&child, depth.saturating_sub(1), &mut watch)?;
        out.push((a, n));
    }
    Some(out)
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

    #[test]
    fn a_watched_count_is_the_count_and_stops_when_asked() {
        let s = new_game(&Config::printed(3, "base_3p", 1)).unwrap();
        let mut never = || false;
        assert_eq!(perft_until(&s, 3, &mut never), Some(perft(&s, 3)));
        assert_eq!(divide_until(&s, 2, &mut never), Some(divide(&s, 2)));
        let mut asked = 0;
        let mut at_once = || {
            asked += 1;
            true
        };
        assert_eq!(perft_until(&s, 4, &mut at_once), None);
        assert_eq!(asked, 1);
    }
}
