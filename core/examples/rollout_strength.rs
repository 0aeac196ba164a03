//! One `rollout` seat against greedy opponents, seat-rotated: `cargo run --release
//! --example rollout_strength [deals] [candidates] [samples] [horizon]`.
use hansa_core::play::play;
use hansa_core::scoring::{ranking, score_rows};
use hansa_core::state::Config;
use hansa_core::strategies::{greedy_defaults, Policy};

fn main() {
    let arg = |i: usize, d: f64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let deals = arg(1, 10.0) as u64;
    let greedy = Policy::new("greedy", &greedy_defaults()).unwrap();
    let mut rp = greedy_defaults();
    rp.extend([
        ("candidates".to_string(), arg(2, 6.0)),
        ("samples".to_string(), arg(3, 2.0)),
        ("horizon".to_string(), arg(4, 4.0)),
    ]);
    let search = Policy::new("rollout", &rp).unwrap();
    let (mut wins, mut games, mut score, mut other) = (0.0, 0, 0.0, 0.0);
    let t0 = std::time::Instant::now();
    for seed in 0..deals {
        for rot in 0..4 {
            let mut seats = vec![greedy.clone(); 4];
            seats[rot] = search.clone();
            let config = Config::printed(4, "base_45p", 1000 + seed);
            let m = play(&config, &seats, 20_000, false).unwrap();
            let rows = score_rows(&m.state);
            let ranks = ranking(&m.state, &rows);
            let n_first = ranks.iter().filter(|&&r| r == 1).count() as f64;
            if ranks[rot] == 1 {
                wins += 1.0 / n_first;
            }
            score += rows[rot].iter().sum::<i32>() as f64;
            other += (0..4)
                .filter(|&p| p != rot)
                .map(|p| rows[p].iter().sum::<i32>() as f64)
                .sum::<f64>()
                / 3.0;
            games += 1;
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{games} games: win share {:.3}, mean score {:.1} vs greedy {:.1}, {:.2} s per game",
        wins / games as f64,
        score / games as f64,
        other / games as f64,
        dt / games as f64
    );
}
