//! Whole games in the core (twin of the loop of `hansa_lab/play.py`).

use crate::actions::Action;
use crate::random_policy;
use crate::rng::Rng;
use crate::rules::{apply_unchecked, legal_actions};
use crate::state::{new_game, Config, State};

/// Games that reach this many actions stop with end reason "cap" (`DEFAULT_MAX_ACTIONS`).
pub const DEFAULT_MAX_ACTIONS: usize = 20_000;

/// Play a game with the random strategy in every seat; the seats' streams are
/// `Rng::seat_stream(seed, seat)`, `seed` being the configuration's seed.
pub fn play_random(
    config: &Config,
    max_actions: usize,
    record: bool,
) -> Result<(State, Vec<Action>, usize), String> {
    let mut s = new_game(config)?;
    let mut rngs: Vec<Rng> = (0..config.n_players as u64)
        .map(|p| Rng::seat_stream(config.seed, p))
        .collect();
    let mut legal = Vec::with_capacity(256);
    let mut actions = Vec::new();
    let mut n = 0usize;
    while !s.is_over() && n < max_actions {
        legal_actions(&s, &mut legal);
        if legal.is_empty() {
            return Err("no legal action in a running game".into());
        }
        let p = s.current_player();
        let a = random_policy::choose(&s, &legal, &mut rngs[p]);
        apply_unchecked(&mut s, &a);
        if record {
            actions.push(a);
        }
        n += 1;
    }
    Ok((s, actions, n))
}

/// Nanoseconds per state copy, full legal-action list and score-if-ended-now, averaged
/// over the positions of `games` random games (every 5th position).
pub fn timings(config: &Config, games: u64) -> Result<(f64, f64, f64), String> {
    use crate::scoring::score_rows;
    use std::hint::black_box;
    use std::time::Instant;
    let mut positions: Vec<State> = Vec::new();
    let mut c = config.clone();
    for g in 0..games {
        c.seed = config.seed.wrapping_add(g);
        let mut s = new_game(&c)?;
        let mut rngs: Vec<Rng> = (0..c.n_players as u64)
            .map(|p| Rng::seat_stream(c.seed, p))
            .collect();
        let mut legal = Vec::new();
        let mut n = 0;
        while !s.is_over() && n < DEFAULT_MAX_ACTIONS {
            if n % 5 == 0 {
                positions.push(s.clone());
            }
            legal_actions(&s, &mut legal);
            let p = s.current_player();
            let a = random_policy::choose(&s, &legal, &mut rngs[p]);
            apply_unchecked(&mut s, &a);
            n += 1;
        }
    }
    let k = positions.len().max(1) as f64;
    let t0 = Instant::now();
    for s in &positions {
        black_box(s.clone());
    }
    let copy = t0.elapsed().as_nanos() as f64 / k;
    let mut legal = Vec::with_capacity(512);
    let t0 = Instant::now();
    for s in &positions {
        legal_actions(black_box(s), &mut legal);
        black_box(&legal);
    }
    let lg = t0.elapsed().as_nanos() as f64 / k;
    let t0 = Instant::now();
    for s in &positions {
        black_box(score_rows(black_box(s)));
    }
    let sc = t0.elapsed().as_nanos() as f64 / k;
    Ok((copy, lg, sc))
}
