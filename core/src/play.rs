//! Whole games in the core (twin of the loop of `hansa_lab/play/loop.py`): a `Match` plays
//! the seats whose strategy the core has and stops for the others (their decisions come
//! from Python), logging as it goes when asked to.

use crate::actions::Action;
use crate::logs::{GameLog, StallWatch};
use crate::rng::Rng;
use crate::rules::{apply_unchecked, legal_actions};
use crate::state::{new_game, Config, State};
use crate::strategies::{random_policy, Policy};

/// Games that reach this many actions stop with end reason "cap" (`DEFAULT_MAX_ACTIONS`).
pub const DEFAULT_MAX_ACTIONS: usize = 20_000;

/// One game in progress: the position, each seat's strategy (None: decided outside the
/// core) and random stream, the actions so far and, optionally, the logs.
#[derive(Clone, Debug)]
pub struct Match {
    pub state: State,
    pub seats: Vec<Option<Policy>>,
    pub rngs: Vec<Rng>,
    pub actions: Vec<Action>,
    pub max_actions: usize,
    pub log: Option<GameLog>,
    pub stall: StallWatch,
    legal: Vec<Action>,
}

impl Match {
    /// A match from position `state`; seat `p` draws from `Rng::seat_stream(seed, p)`.
    pub fn new(
        state: State,
        seats: Vec<Option<Policy>>,
        seed: u64,
        max_actions: usize,
        log: bool,
    ) -> Result<Match, String> {
        if seats.len() != state.n_players() {
            return Err(format!(
                "{} strategies for {} seats",
                seats.len(),
                state.n_players()
            ));
        }
        let rngs = (0..seats.len() as u64)
            .map(|p| Rng::seat_stream(seed, p))
            .collect();
        Ok(Match {
            log: log.then(|| GameLog::new(&state)),
            stall: StallWatch::new(&state),
            state,
            seats,
            rngs,
            actions: Vec::new(),
            max_actions,
            legal: Vec::with_capacity(256),
        })
    }

    /// Whether the game has ended or reached `max_actions`.
    pub fn is_done(&self) -> bool {
        self.state.is_over() || self.actions.len() >= self.max_actions
    }

    /// Play the core's seats until the game is done (None) or a seat without a core
    /// strategy must decide (Some(seat)).
    pub fn advance(&mut self) -> Result<Option<usize>, String> {
        while !self.is_done() {
            let p = self.state.current_player();
            let Some(policy) = &self.seats[p] else {
                return Ok(Some(p));
            };
            legal_actions(&self.state, &mut self.legal);
            if self.legal.is_empty() {
                return Err("no legal action in a running game".into());
            }
            let a = policy.choose(&self.state, &self.legal, &mut self.rngs[p]);
            self.step(a);
        }
        Ok(None)
    }

    /// Apply an action chosen outside the core; false (and nothing changed) if illegal.
    pub fn apply_external(&mut self, a: Action) -> bool {
        legal_actions(&self.state, &mut self.legal);
        if !self.legal.contains(&a) {
            return false;
        }
        self.step(a);
        true
    }

    fn step(&mut self, a: Action) {
        apply_unchecked(&mut self.state, &a);
        self.stall.observe(&self.state);
        if let Some(log) = &mut self.log {
            log.observe(&self.state, self.actions.len(), a.kind);
        }
        self.actions.push(a);
    }

    /// Close the logs (the last, possibly partial, turn).
    pub fn finish(&mut self) {
        if let Some(log) = &mut self.log {
            log.finish(&self.state);
        }
    }
}

/// Play a game with one strategy per seat, all in the core; seat streams from the
/// configuration's seed.
pub fn play(
    config: &Config,
    seats: &[Policy],
    max_actions: usize,
    log: bool,
) -> Result<Match, String> {
    let state = new_game(config)?;
    let seats = seats.iter().cloned().map(Some).collect();
    let mut m = Match::new(state, seats, config.seed, max_actions, log)?;
    m.advance()?;
    m.finish();
    Ok(m)
}

/// Play a game with the random strategy in every seat; the seats' streams are
/// `Rng::seat_stream(seed, seat)`, `seed` being the configuration's seed.
pub fn play_random(
    config: &Config,
    max_actions: usize,
    record: bool,
) -> Result<(State, Vec<Action>, usize), String> {
    let seats = vec![Policy::Random(random_policy::Random::default()); config.n_players];
    let m = play(config, &seats, max_actions, false)?;
    let n = m.actions.len();
    let actions = if record { m.actions } else { Vec::new() };
    Ok((m.state, actions, n))
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
