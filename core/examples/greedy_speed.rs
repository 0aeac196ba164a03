//! All-greedy 4-player games in the core, for profiling: `cargo run --release --example
//! greedy_speed [games]`.
use hansa_core::play::play;
use hansa_core::state::Config;
use hansa_core::strategies::Policy;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let params: Vec<(String, f64)> = [
        ("depth", 1.0),
        ("explore", 0.5),
        ("score", 1.0),
        ("opponents", 0.25),
        ("route", 1.0),
        ("supply", 0.15),
        ("supply_cap", 8.0),
        ("stock", 0.05),
        ("reserve", 0.5),
        ("ability", 1.0),
        ("actions_left", 0.0),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), *v))
    .collect();
    let greedy = Policy::new("greedy", &params).unwrap();
    let seats = vec![greedy; 4];
    let t0 = std::time::Instant::now();
    let mut actions = 0;
    for seed in 0..games {
        let config = Config {
            n_players: 4,
            side: "base_45p".into(),
            edition: 0,
            seed,
            special_points: None,
            start_supply: 5,
            prestige_to_end: 20,
            emperor: false,
            east_alternative: false,
            tuning: Default::default(),
        };
        actions += play(&config, &seats, 20_000, false).unwrap().actions.len();
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{games} games, {actions} actions, {:.1} ms per game",
        dt * 1000.0 / games as f64
    );
}
