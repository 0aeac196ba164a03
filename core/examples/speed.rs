//! `cargo run --release --example speed`: random 3-player games in the core, actions/s.
use hansa_core::play::play_random;
use hansa_core::state::Config;
use std::time::Instant;

fn main() {
    let mut config = Config::printed(3, "base_3p", 0);
    let t0 = Instant::now();
    let mut actions = 0;
    let mut games = 0;
    let limit: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    while (limit == 0 && t0.elapsed().as_secs_f64() < 5.0) || (limit > 0 && games < limit) {
        config.seed = games;
        let (_, _, n) = play_random(&config, 20_000, false).expect("covered");
        actions += n;
        games += 1;
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{games} games, {actions} actions, {:.0} actions/s",
        actions as f64 / dt
    );
}
