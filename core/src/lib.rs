//! hansa_core: the compiled rules core of hansa_lab, a twin of the Python engine
//! (`hansa_lab/engine/`), module by module. The Python engine is the reference; the
//! parity harness (`hansa-lab parity`) checks both engines step by step.

// Index loops mirror the Python reference line by line, which matters more here than
// iterator style.
#![allow(clippy::needless_range_loop)]

pub mod actions;
pub mod board;
pub mod decisions;
pub mod determinise;
pub mod effects;
pub mod env;
pub mod events;
pub mod limits;
pub mod logs;
pub mod move_choices;
pub mod perft;
pub mod play;
pub mod position;
pub mod post_bits;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod state;
pub mod strategies;
#[cfg(test)]
mod test_support;
pub mod variants;
pub mod vocabulary;

#[cfg(feature = "python")]
mod python;

#[cfg(test)]
mod tests {
    use crate::play::play_random;
    use crate::state::{Config, Tuning};

    fn config(n: usize, side: &str, edition: u8, seed: u64) -> Config {
        Config {
            edition,
            tuning: std::sync::Arc::new(Tuning::printed(edition)),
            ..Config::printed(n, side, seed)
        }
    }

    #[test]
    fn random_games_end() {
        for seed in 0..20 {
            for (n, side) in [
                (2, "base_3p"),
                (3, "base_3p"),
                (4, "base_45p"),
                (5, "base_45p"),
            ] {
                let (s, _, n_act) =
                    play_random(&config(n, side, (seed % 2) as u8, seed), 20_000, false).unwrap();
                assert!(s.is_over() || n_act == 20_000);
            }
        }
    }

    #[test]
    fn invalid_configurations_are_errors() {
        assert!(play_random(&config(2, "east", 0, 1), 10, false).is_err());
        assert!(play_random(&config(3, "moon", 0, 1), 10, false).is_err());
        let mut c = config(3, "base_3p", 0, 1);
        c.east_alternative = true;
        assert!(play_random(&c, 10, false).is_err());
    }
}
