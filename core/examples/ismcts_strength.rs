//! One `ismcts` seat against three opponents on the 4-player base board, seat-rotated:
//! `cargo run --release --example ismcts_strength [deals] [first seed] [vs] [key=value...]`
//! where `vs` is `greedy` (the default) or `rollout` (its default budget) and the
//! `key=value` pairs override the search's parameters (defaults: those of
//! `hansa_lab/strategies/ismcts.py`); `me=rollout` puts `rollout` at its default budget in
//! the tested seat instead (a baseline on the same deals).
use hansa_core::play::play;
use hansa_core::scoring::{ranking, score_rows};
use hansa_core::state::Config;
use hansa_core::strategies::{greedy_defaults, Policy};

fn with(mut params: Vec<(String, f64)>, extra: &[(&str, f64)]) -> Vec<(String, f64)> {
    for (k, v) in extra {
        match params.iter_mut().find(|(name, _)| name == k) {
            Some(p) => p.1 = *v,
            None => params.push((k.to_string(), *v)),
        }
    }
    params
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let first: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let vs = args.get(3).map_or("greedy", String::as_str);
    let mut params = with(
        greedy_defaults(),
        &[
            ("iterations", 16.0),
            ("ucb_c", 0.15),
            ("widen_c", 2.0),
            ("widen_alpha", 0.5),
            ("horizon", 4.0),
            ("rival", 0.0),
            ("scale", 2.0),
            ("paranoid", 0.0),
        ],
    );
    let rollout = Policy::new(
        "rollout",
        &with(
            greedy_defaults(),
            &[("candidates", 8.0), ("samples", 1.0), ("horizon", 8.0)],
        ),
    )
    .unwrap();
    let mut me = "ismcts";
    for kv in args.iter().skip(4) {
        let (k, v) = kv.split_once('=').expect("key=value");
        if k == "me" {
            me = if v == "rollout" { "rollout" } else { "ismcts" };
            continue;
        }
        params = with(params, &[(k, v.parse().expect("a number"))]);
    }
    let search = match me {
        "rollout" => rollout.clone(),
        _ => Policy::new("ismcts", &params).unwrap(),
    };
    let other = match vs {
        "rollout" => rollout,
        _ => Policy::new("greedy", &greedy_defaults()).unwrap(),
    };
    let (mut wins, mut games, mut score, mut others) = (0.0, 0, 0.0, 0.0);
    let t0 = std::time::Instant::now();
    for seed in first..first + deals {
        for rot in 0..4 {
            let mut seats = vec![other.clone(); 4];
            seats[rot] = search.clone();
            let config = Config::printed(4, "base_45p", seed);
            let m = play(&config, &seats, 20_000, false).unwrap();
            let rows = score_rows(&m.state);
            let ranks = ranking(&m.state, &rows);
            let n_first = ranks.iter().filter(|&&r| r == 1).count() as f64;
            if ranks[rot] == 1 {
                wins += 1.0 / n_first;
            }
            score += rows[rot].iter().sum::<i32>() as f64;
            others += (0..4)
                .filter(|&p| p != rot)
                .map(|p| rows[p].iter().sum::<i32>() as f64)
                .sum::<f64>()
                / 3.0;
            games += 1;
        }
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{me} {games} games vs {vs}: win share {:.3}, mean score {:.1} vs {:.1}, {:.2} s per game",
        wins / games as f64,
        score / games as f64,
        others / games as f64,
        dt / games as f64
    );
}
