//! All-greedy 4-player games in the core, for profiling: `cargo run --release --example
//! greedy_speed [games]`.
use hansa_core::play::play;
use hansa_core::state::Config;
use hansa_core::strategies::{greedy_defaults, Policy};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let greedy = Policy::new("greedy", &greedy_defaults()).unwrap();
    let seats = vec![greedy; 4];
    let t0 = std::time::Instant::now();
    let mut actions = 0;
    for seed in 0..games {
        let config = Config::printed(4, "base_45p", seed);
        actions += play(&config, &seats, 20_000, false).unwrap().actions.len();
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{games} games, {actions} actions, {:.1} ms per game",
        dt * 1000.0 / games as f64
    );
}
