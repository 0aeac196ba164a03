//! `cargo run --release --example env_speed [n_envs] [seconds]`: where a step of the
//! vector environment goes. Every phase is timed over the same kind of batch (`n_envs`
//! games stepped in turn, random actions, one thread): a bare random action (legal list,
//! choice, apply), then with the observation, then with the mask, then the whole
//! `VectorEnv::step` on 1 and 2 threads. Rates are per wall second and per CPU second of
//! this process (the machine may be shared).
use hansa_core::env::action_index::ActionIndex;
use hansa_core::env::observation::{observe_into, Layout};
use hansa_core::env::vector::{Buffers, VectorEnv};
use hansa_core::rng::Rng;
use hansa_core::rules::{apply_unchecked, legal_actions};
use hansa_core::state::{new_game, Config, State};
use hansa_core::strategies::random_policy;
use std::time::Instant;

/// CPU seconds of this process's live threads, in nanoseconds' precision (the first
/// field of each `/proc/self/task/*/schedstat`, Linux); 0 elsewhere.
fn cpu_seconds() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    let mut ns = 0u64;
    for t in tasks.flatten() {
        let stat = std::fs::read_to_string(t.path().join("schedstat")).unwrap_or_default();
        ns += stat
            .split_whitespace()
            .next()
            .and_then(|x| x.parse::<u64>().ok())
            .unwrap_or(0);
    }
    ns as f64 * 1e-9
}

struct Game {
    state: State,
    rng: Rng,
    legal: Vec<hansa_core::actions::Action>,
    set: Vec<u32>,
}

/// What the bare loop does besides the random action.
#[derive(Clone, Copy)]
enum Extra {
    Nothing,
    Observation,
    ObservationAndMask,
}

fn bare(config: &Config, n_envs: usize, seconds: f64, extra: Extra) -> (f64, f64) {
    let first = new_game(config).unwrap();
    let lay = Layout::new(first.board, config.n_players);
    let ix = ActionIndex::new(first.board);
    let mut obs = vec![0.0f32; n_envs * lay.size()];
    let mut mask = vec![0u8; n_envs * ix.size()];
    let mut games: Vec<Game> = (0..n_envs)
        .map(|i| {
            let mut c = config.clone();
            c.seed = i as u64;
            let state = new_game(&c).unwrap();
            let mut legal = Vec::new();
            legal_actions(&state, &mut legal);
            Game {
                state,
                rng: Rng::new(i as u64 + 7),
                legal,
                set: Vec::new(),
            }
        })
        .collect();
    let mut next_seed = n_envs as u64;
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let mut steps = 0u64;
    while t0.elapsed().as_secs_f64() < seconds {
        for (j, g) in games.iter_mut().enumerate() {
            let a = random_policy::choose(&g.state, &g.legal, &mut g.rng);
            apply_unchecked(&mut g.state, &a);
            if g.state.is_over() {
                let mut c = config.clone();
                c.seed = next_seed;
                next_seed += 1;
                g.state = new_game(&c).unwrap();
            }
            let s = &g.state;
            if !matches!(extra, Extra::Nothing) {
                let o = &mut obs[j * lay.size()..(j + 1) * lay.size()];
                observe_into(s, s.current_player(), &lay, o);
            }
            legal_actions(s, &mut g.legal);
            if matches!(extra, Extra::ObservationAndMask) {
                let m = &mut mask[j * ix.size()..(j + 1) * ix.size()];
                for &i in &g.set {
                    m[i as usize] = 0;
                }
                g.set.clear();
                for a in &g.legal {
                    let i = ix.index(a).unwrap();
                    m[i] = 1;
                    g.set.push(i as u32);
                }
            }
        }
        steps += n_envs as u64;
    }
    let (dt, dc) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    (steps as f64 / dt, steps as f64 / dc.max(1e-9))
}

/// The arrays a vector environment of `n_envs` games writes into.
struct Outputs {
    obs: Vec<f32>,
    mask: Vec<u8>,
    rewards: Vec<f32>,
    terminated: Vec<u8>,
    truncated: Vec<u8>,
    to_act: Vec<i32>,
}

impl Outputs {
    fn new(env: &VectorEnv, config: &Config, n_envs: usize) -> Self {
        Outputs {
            obs: vec![0.0; n_envs * env.layout.size()],
            mask: vec![0; n_envs * env.index.size()],
            rewards: vec![0.0; n_envs * config.n_players],
            terminated: vec![0; n_envs],
            truncated: vec![0; n_envs],
            to_act: vec![0; n_envs],
        }
    }

    fn buffers(&mut self) -> Buffers<'_> {
        Buffers {
            obs: &mut self.obs,
            mask: &mut self.mask,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_act: &mut self.to_act,
        }
    }
}

fn vector(config: &Config, n_envs: usize, seconds: f64, threads: usize) -> (f64, f64) {
    let mut env = VectorEnv::new(config, n_envs, 1, 20_000, threads).unwrap();
    let mut out = Outputs::new(&env, config, n_envs);
    env.reset(out.buffers()).unwrap();
    let actions = vec![-1i64; n_envs];
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let mut steps = 0u64;
    while t0.elapsed().as_secs_f64() < seconds {
        env.step(&actions, out.buffers(), true).unwrap();
        steps += n_envs as u64;
    }
    let (dt, dc) = (t0.elapsed().as_secs_f64(), cpu_seconds() - c0);
    (steps as f64 / dt, steps as f64 / dc.max(1e-9))
}

/// `calls` steps of `n_envs` random actions on `threads` threads (no clock: a fixed amount
/// of work, for an instruction profiler), and a hash of everything the steps wrote (every
/// call's observations, masks, rewards, flags and seats, then the games' seeds and
/// counts): two builds that step alike print the same hash.
fn fixed_calls(config: &Config, n_envs: usize, calls: usize, threads: usize) -> u64 {
    let mut env = VectorEnv::new(config, n_envs, 1, 20_000, threads).unwrap();
    let mut out = Outputs::new(&env, config, n_envs);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: u64| h = (h ^ x).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(17);
    let actions = vec![-1i64; n_envs];
    for call in 0..=calls {
        let b = out.buffers();
        if call == 0 {
            env.reset(b).unwrap();
        } else {
            env.step(&actions, b, true).unwrap();
        }
        out.obs.iter().for_each(|x| eat(u64::from(x.to_bits())));
        out.rewards.iter().for_each(|x| eat(u64::from(x.to_bits())));
        // the mask by its set positions (hashing every byte, 28,174 per 3-player game, would
        // dominate)
        out.mask
            .iter()
            .enumerate()
            .filter(|(_, &m)| m != 0)
            .for_each(|(i, &m)| eat(((i as u64) << 8) | u64::from(m)));
        out.terminated
            .iter()
            .chain(&out.truncated)
            .for_each(|&x| eat(u64::from(x)));
        out.to_act.iter().for_each(|&x| eat(x as u64));
    }
    env.game_seeds().into_iter().for_each(&mut eat);
    env.games().into_iter().for_each(&mut eat);
    h
}

/// One timed phase: (steps per wall second, steps per CPU second).
type Phase<'a> = dyn Fn() -> (f64, f64) + 'a;

fn show_one((wall, cpu): (f64, f64)) {
    println!("{wall:.0} steps/s wall {cpu:.0} steps/cpu-s");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n_envs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(256);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2.0);
    // a third argument runs one phase only (for a profiler): bare, obs, mask, vector1,
    // vector2; or `calls1` / `calls2`: the second argument's count of steps on 1 / 2
    // threads, and the hash of what they wrote (`-` below: every phase)
    let only = args.next().unwrap_or_default();
    // a fourth argument, `players:side` (default 3:base_3p), picks the configuration
    let setup = args.next().unwrap_or_else(|| "3:base_3p".into());
    let (players, side) = setup
        .split_once(':')
        .and_then(|(n, side)| Some((n.parse::<usize>().ok()?, side)))
        .expect("a configuration as players:side, e.g. 3:base_3p");
    let config = Config::printed(players, side, 0);
    match only.as_str() {
        "" | "-" => {}
        "calls1" | "calls2" => {
            let threads = if only == "calls1" { 1 } else { 2 };
            let h = fixed_calls(&config, n_envs, seconds as usize, threads);
            return println!("{} calls x {n_envs} games: hash {h:016x}", seconds as usize);
        }
        "bare" => return show_one(bare(&config, n_envs, seconds, Extra::Nothing)),
        "obs" => return show_one(bare(&config, n_envs, seconds, Extra::Observation)),
        "mask" => return show_one(bare(&config, n_envs, seconds, Extra::ObservationAndMask)),
        "vector1" => return show_one(vector(&config, n_envs, seconds, 1)),
        "vector2" => return show_one(vector(&config, n_envs, seconds, 2)),
        other => panic!("unknown phase {other:?}"),
    }
    // the phases in turn, five rounds (the machine is shared: the best round of each)
    let phases: [(&str, &Phase<'_>); 5] = [
        ("random action (reference)", &|| {
            bare(&config, n_envs, seconds, Extra::Nothing)
        }),
        ("+ observation", &|| {
            bare(&config, n_envs, seconds, Extra::Observation)
        }),
        ("+ observation + mask", &|| {
            bare(&config, n_envs, seconds, Extra::ObservationAndMask)
        }),
        ("VectorEnv::step, 1 thread", &|| {
            vector(&config, n_envs, seconds, 1)
        }),
        ("VectorEnv::step, 2 threads", &|| {
            vector(&config, n_envs, seconds, 2)
        }),
    ];
    let mut best = [(0.0f64, 0.0f64); 5];
    for _ in 0..5 {
        for (b, (_, run)) in best.iter_mut().zip(&phases) {
            let (wall, cpu) = run();
            *b = (b.0.max(wall), b.1.max(cpu));
        }
    }
    for ((name, _), (wall, cpu)) in phases.iter().zip(best) {
        println!(
            "{name:<28} {wall:>9.0} steps/s wall {cpu:>9.0} steps/cpu-s  ({:.2} of the reference per cpu-s)",
            cpu / best[0].1
        );
    }
}
