//! All-`strong` tables in the core, for profiling the search: `cargo run --release
//! --example strong_speed MODEL.json [games] [players] [first_seed] [max_actions]`. Prints the games'
//! actions, seconds per game and a hash of every action played (a faster build must
//! print the same hash: the same games).
use hansa_core::play::play;
use hansa_core::state::Config;
use hansa_core::strategies::evaluation::Weights;
use hansa_core::strategies::greedy::Tip;
use hansa_core::strategies::learned::{Learned, ValueModel};
use hansa_core::strategies::learned_search::LearnedRollout;
use hansa_core::strategies::Policy;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .expect("usage: strong_speed MODEL.json [games] [players] [seed] [max_actions]");
    let arg = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (games, players, first) = (arg(2, 2), arg(3, 4) as usize, arg(4, 8_000_000));
    let max_actions = arg(5, 20_000) as usize;
    let text = std::fs::read_to_string(path).expect("a readable model file");
    let json: serde_json::Value = serde_json::from_str(&text).expect("a JSON model file");
    let numbers = |key: &str| -> Vec<f64> {
        json[key]
            .as_array()
            .expect(key)
            .iter()
            .map(|x| x.as_f64().expect(key))
            .collect()
    };
    let names: Vec<String> = json["features"]
        .as_array()
        .expect("features")
        .iter()
        .map(|x| x.as_str().expect("feature name").to_string())
        .collect();
    let model = ValueModel::new(
        &names,
        numbers("mean"),
        numbers("scale"),
        numbers("weights"),
        json["bias"].as_f64().expect("bias"),
    )
    .expect("the core's features");
    let strong = Policy::LearnedRollout(LearnedRollout {
        learned: Learned {
            model: Arc::new(model),
            model_weight: 1.5,
            greedy_weight: 1.0,
            weights: Weights::default(),
            explore: 0.5,
            tip: Tip::Plain,
            tip_weight: 0.0,
            reply: 0,
            temperature: 0.0,
        },
        candidates: 4,
        samples: 2,
        horizon: 2,
        gap: f64::INFINITY,
    });
    let board = if players == 3 { "base_3p" } else { "base_45p" };
    let seats = vec![strong; players];
    let t0 = std::time::Instant::now();
    let (mut hash, mut actions) = (0xcbf2_9ce4_8422_2325_u64, 0);
    for g in 0..games {
        let m = play(
            &Config::printed(players, board, first + g),
            &seats,
            max_actions,
            false,
        )
        .expect("a game");
        for a in &m.actions {
            for x in [i64::from(a.kind), a.a.into(), a.b.into(), a.c.into()] {
                hash = (hash ^ x as u64)
                    .wrapping_mul(0x0000_0100_0000_01b3)
                    .rotate_left(17);
            }
        }
        actions += m.actions.len();
    }
    let dt = t0.elapsed().as_secs_f64();
    println!(
        "{games} games, {actions} actions, {:.2} s per game, hash {hash:016x}",
        dt / games as f64
    );
}
