//! The vector environment: many games stepped in one call, in the core, for self-play
//! data. Each game writes the observation of the seat to act, its legal-action mask, the
//! rewards of a finished game and the done flags into caller-owned buffers; a finished
//! game is replaced at once by a new one (auto-reset), whose first position is what the
//! buffers then hold. An action `-1` is the shipped `random` strategy's choice (uniform
//! with its biases: establish a completed route, ...), the plain random games' policy.
//! Game `j` of environment `i` draws its seed and its random actions
//! from environment `i`'s own stream, so results do not depend on the thread count.

use crate::actions::{Action, K_MOVE_PIECE, K_STOP, K_SWAP};
use crate::decisions::Decision;
use crate::env::action_index::ActionIndex;
use crate::env::observation::{observe_update, Layout, Written};
use crate::env::pool::Pool;
use crate::move_choices::{move_choices, MoveChoices};
use crate::rng::{mix64, Rng};
use crate::rules::{apply_unchecked, legal_actions};
use crate::scoring::{ranking, score_rows};
use crate::state::{covered, new_game, Config, State};
use crate::strategies::random_policy;

/// The reward of each seat when a game ends: `(n - rank) / (n - 1)`, 1 for the winner
/// (players still tied after the tie-breaks share the rank) and 0 for the last.
pub fn rank_rewards(s: &State, out: &mut [f32]) {
    let n = s.n_players();
    let ranks = ranking(s, &score_rows(s));
    for p in 0..n {
        out[p] = (n as i32 - ranks[p]) as f32 / (n - 1) as f32;
    }
}

/// One environment: a game, its stream, and what its rows of the buffers hold.
#[derive(Clone, Debug)]
struct Slot {
    state: State,
    rng: Rng,
    /// the legal actions, if not `in_move`
    legal: Vec<Action>,
    /// the game is in a Move decision: its choices are `moves` (a long list, not written
    /// out)
    in_move: bool,
    moves: MoveChoices,
    /// the mask entries it set last (its mask row is 0 elsewhere; `u32::MAX`: an action
    /// without an index, nothing set), if `known`
    set: Vec<u32>,
    /// and the `move_piece` rows (`n_routes` entries from each) it wrote last
    rows: Vec<u32>,
    /// the posts, offices and markers its observation row shows, if `known`
    written: Written,
    /// its rows of the buffers hold what it wrote last (false: write them whole)
    known: bool,
    games: u64,
    /// the seed of the game in progress
    seed: u64,
}

/// The caller's output buffers for one call (every environment's rows, row-major).
pub struct Buffers<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [u8],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [u8],
    pub truncated: &'a mut [u8],
    pub to_act: &'a mut [i32],
}

pub struct VectorEnv {
    config: Config,
    pub index: ActionIndex,
    pub layout: Layout,
    slots: Vec<Slot>,
    pub max_actions: i32,
    /// the threads a call runs on (started with the environment)
    pool: Pool,
    started: bool,
    /// the observation and mask buffers of the last call (addresses): other buffers are
    /// written whole
    last_buffers: (usize, usize),
}

/// Environments a thread steps at a time (a block is taken from a shared counter): about
/// eight blocks per thread, so that the threads finish a call together, and at most 16.
fn block_size(n_envs: usize, threads: usize) -> usize {
    if threads <= 1 {
        return 16;
    }
    (n_envs / (8 * threads)).clamp(1, 16)
}

fn slot_stream(seed: u64, env: usize) -> Rng {
    Rng::new(mix64(seed ^ mix64(env as u64 + 1)))
}

impl VectorEnv {
    /// `n_envs` games of `config` (its seed is ignored: game seeds come from `seed`).
    pub fn new(
        config: &Config,
        n_envs: usize,
        seed: u64,
        max_actions: i32,
        threads: usize,
    ) -> Result<VectorEnv, String> {
        covered(config)?;
        if n_envs == 0 {
            return Err("n_envs must be at least 1".into());
        }
        if max_actions < 1 {
            return Err("max_actions must be at least 1".into());
        }
        let first = new_game(config)?;
        let index = ActionIndex::new(first.board);
        let layout = Layout::new(first.board, config.n_players);
        let mut env = VectorEnv {
            config: config.clone(),
            index,
            layout,
            slots: Vec::with_capacity(n_envs),
            max_actions,
            pool: Pool::new(threads.max(1)),
            started: false,
            last_buffers: (0, 0),
        };
        for i in 0..n_envs {
            let rng = slot_stream(seed, i);
            env.slots.push(Slot {
                state: first.clone(),
                rng,
                legal: Vec::new(),
                in_move: false,
                moves: MoveChoices::default(),
                set: Vec::new(),
                rows: Vec::new(),
                written: Written::default(),
                known: false,
                games: 0,
                seed: 0,
            });
        }
        Ok(env)
    }

    pub fn n_envs(&self) -> usize {
        self.slots.len()
    }

    pub fn threads(&self) -> usize {
        self.pool.threads()
    }

    pub fn n_players(&self) -> usize {
        self.config.n_players
    }

    /// The seed of each environment's game in progress (its configuration's seed).
    pub fn game_seeds(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.seed).collect()
    }

    /// How many games each environment has started.
    pub fn games(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.games).collect()
    }

    fn check(&self, b: &Buffers<'_>, actions: Option<&[i64]>) -> Result<(), String> {
        let n = self.slots.len();
        let want = [
            ("obs", b.obs.len(), n * self.layout.size()),
            ("mask", b.mask.len(), n * self.index.size()),
            ("rewards", b.rewards.len(), n * self.n_players()),
            ("terminated", b.terminated.len(), n),
            ("truncated", b.truncated.len(), n),
            ("to_act", b.to_act.len(), n),
        ];
        for (name, got, need) in want {
            if got != need {
                return Err(format!("buffer {name} has {got} items, needs {need}"));
            }
        }
        if let Some(actions) = actions {
            if !self.started {
                return Err("step before reset: call reset first".into());
            }
            if actions.len() != n {
                return Err(format!("{} actions for {n} environments", actions.len()));
            }
            for (i, (&a, slot)) in actions.iter().zip(&self.slots).enumerate() {
                if a == -1 {
                    continue; // a random legal action
                }
                let Some(act) = usize::try_from(a).ok().and_then(|a| self.index.action(a)) else {
                    return Err(format!(
                        "environment {i}: action {a} is not legal: it is outside the action \
                         index [-1, {}) (-1 = a random legal action)",
                        self.index.size()
                    ));
                };
                if !slot.allows(&act, &self.index) {
                    return Err(format!(
                        "environment {i}: action {a} is not legal now (legal: the mask's 1s; \
                         -1 = a random legal action)"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Start a new game in every environment and write the first positions.
    pub fn reset(&mut self, b: Buffers<'_>) -> Result<(), String> {
        self.check(&b, None)?;
        for s in &mut self.slots {
            s.known = false;
        }
        self.run(b, None, true);
        self.started = true;
        Ok(())
    }

    /// Apply one action per environment (an index, or -1 for a random legal action);
    /// nothing changes if any action is illegal (the error names the environment).
    /// `kept`: the buffers are the last call's, holding what it wrote (then only what
    /// changed is written); otherwise every row is written whole.
    pub fn step(&mut self, actions: &[i64], b: Buffers<'_>, kept: bool) -> Result<(), String> {
        self.check(&b, Some(actions))?;
        if !kept {
            for s in &mut self.slots {
                s.known = false;
            }
        }
        self.run(b, Some(actions), false);
        Ok(())
    }

    fn run(&mut self, b: Buffers<'_>, actions: Option<&[i64]>, reset: bool) {
        // a step writes only what changed in rows that hold the last call's results
        let here = (b.obs.as_ptr() as usize, b.mask.as_ptr() as usize);
        if here != self.last_buffers {
            for s in &mut self.slots {
                s.known = false;
            }
            self.last_buffers = here;
        }
        let (os, ms, np) = (self.layout.size(), self.index.size(), self.n_players());
        let (config, index, layout, max_actions) =
            (&self.config, &self.index, &self.layout, self.max_actions);
        // blocks of consecutive environments and their rows of the buffers, taken from a
        // counter by whichever thread is free: the results do not depend on who steps what
        let block = block_size(self.slots.len(), self.pool.threads());
        let mut parts = Vec::with_capacity(self.slots.len().div_ceil(block));
        let mut rest = b;
        let mut first = 0;
        for slots in self.slots.chunks_mut(block) {
            let k = slots.len();
            let (head, tail) = rest.split_at(k, os, ms, np);
            parts.push(std::sync::Mutex::new(Some((slots, first, head))));
            rest = tail;
            first += k;
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let task = |_thread: usize| loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(part) = parts.get(i) else { return };
            let taken = part.lock().unwrap_or_else(|e| e.into_inner()).take();
            let Some((slots, first, bufs)) = taken else {
                continue;
            };
            for (j, slot) in slots.iter_mut().enumerate() {
                let act = actions.map(|a| a[first + j]).unwrap_or(-1);
                let out = Buffers {
                    obs: &mut bufs.obs[j * os..(j + 1) * os],
                    mask: &mut bufs.mask[j * ms..(j + 1) * ms],
                    rewards: &mut bufs.rewards[j * np..(j + 1) * np],
                    terminated: &mut bufs.terminated[j..j + 1],
                    truncated: &mut bufs.truncated[j..j + 1],
                    to_act: &mut bufs.to_act[j..j + 1],
                };
                step_slot(slot, config, index, layout, max_actions, reset, act, out);
            }
        };
        self.pool.run(&task);
    }
}

impl<'a> Buffers<'a> {
    /// The rows of the first `k` environments, and the rest (`os`, `ms`, `np`: the sizes
    /// of one observation, mask and rewards row).
    fn split_at(self, k: usize, os: usize, ms: usize, np: usize) -> (Buffers<'a>, Buffers<'a>) {
        let (o1, o2) = self.obs.split_at_mut(k * os);
        let (m1, m2) = self.mask.split_at_mut(k * ms);
        let (r1, r2) = self.rewards.split_at_mut(k * np);
        let (t1, t2) = self.terminated.split_at_mut(k);
        let (u1, u2) = self.truncated.split_at_mut(k);
        let (a1, a2) = self.to_act.split_at_mut(k);
        let head = Buffers {
            obs: o1,
            mask: m1,
            rewards: r1,
            terminated: t1,
            truncated: u1,
            to_act: a1,
        };
        let tail = Buffers {
            obs: o2,
            mask: m2,
            rewards: r2,
            terminated: t2,
            truncated: u2,
            to_act: a2,
        };
        (head, tail)
    }
}

impl Slot {
    /// Whether `act` is legal now (one of the actions its mask row shows).
    fn allows(&self, act: &Action, index: &ActionIndex) -> bool {
        if self.in_move && act.kind == K_MOVE_PIECE {
            let (post, route) = (act.a as usize, act.b as u32);
            return route < 64
                && self
                    .moves
                    .pieces
                    .iter()
                    .any(|&(p, dest)| p == post && dest >> route & 1 == 1);
        }
        // the index is one-to-one (an action per entry)
        index
            .index(act)
            .is_some_and(|i| self.set.contains(&(i as u32)))
    }
}

fn new_slot_game(slot: &mut Slot, config: &Config) {
    let mut c = config.clone();
    // 63 bits: a game seed must be one a `GameConfig` (and the command line) can store
    c.seed = slot.rng.next_u64() >> 1;
    slot.seed = c.seed;
    // the configuration was checked when the environment was made
    slot.state = new_game(&c).expect("a covered configuration sets up");
    slot.games += 1;
}

#[allow(clippy::too_many_arguments)]
fn step_slot(
    slot: &mut Slot,
    config: &Config,
    index: &ActionIndex,
    layout: &Layout,
    max_actions: i32,
    reset: bool,
    action: i64,
    out: Buffers<'_>,
) {
    out.rewards.fill(0.0);
    out.terminated[0] = 0;
    out.truncated[0] = 0;
    if reset {
        new_slot_game(slot, config);
    } else {
        let act = if action != -1 {
            // checked by VectorEnv::check
            index.action(action as usize).expect("a checked index")
        } else if slot.in_move {
            random_policy::choose_move(&slot.state, &slot.moves, &mut slot.rng)
        } else {
            random_policy::choose(&slot.state, &slot.legal, &mut slot.rng)
        };
        apply_unchecked(&mut slot.state, &act);
        if slot.state.is_over() {
            rank_rewards(&slot.state, out.rewards);
            out.terminated[0] = 1;
            new_slot_game(slot, config);
        } else if slot.state.n_actions >= max_actions {
            out.truncated[0] = 1;
            new_slot_game(slot, config);
        }
    }
    let s = &slot.state;
    let seat = s.current_player();
    out.to_act[0] = seat as i32;
    if !slot.known {
        out.mask.fill(0);
        slot.set.clear();
        slot.rows.clear();
        slot.written.seat = None;
        slot.known = true;
    }
    observe_update(s, seat, layout, out.obs, &mut slot.written);
    clear_mask(out.mask, &mut slot.set, &mut slot.rows, index.n_routes);
    let in_move = match s.pending.last() {
        Some(&Decision::Move { player, left }) if s.end_reason.is_none() => {
            move_choices(s, player, left >= 2, &mut slot.moves);
            set_move_mask(out.mask, &mut slot.set, &mut slot.rows, &slot.moves, index);
            true
        }
        _ => {
            legal_actions(s, &mut slot.legal);
            set_mask(out.mask, &mut slot.set, &slot.legal, index);
            false
        }
    };
    slot.in_move = in_move;
}

/// Clear the mask entries `set` holds and the `move_piece` rows `rows` starts (each
/// `routes` entries), and forget them.
fn clear_mask(mask: &mut [u8], set: &mut Vec<u32>, rows: &mut Vec<u32>, routes: usize) {
    for &i in set.iter() {
        if let Some(m) = mask.get_mut(i as usize) {
            *m = 0;
        }
    }
    set.clear();
    for &r in rows.iter() {
        if let Some(row) = mask.get_mut(r as usize..r as usize + routes) {
            row.fill(0);
        }
    }
    rows.clear();
}

/// Set the mask entries of a Move's choices `m` (its list's): each piece's `move_piece`
/// row written whole from its destinations (kept in `rows`), the swaps' and `stop`'s
/// entries one by one (kept in `set`).
fn set_move_mask(
    mask: &mut [u8],
    set: &mut Vec<u32>,
    rows: &mut Vec<u32>,
    m: &MoveChoices,
    index: &ActionIndex,
) {
    let (moves, routes) = (index.start[K_MOVE_PIECE as usize], index.n_routes);
    for &(post, dest) in &m.pieces {
        let start = moves + post * routes;
        if let Some(row) = mask.get_mut(start..start + routes) {
            spread_bits(row, dest);
            rows.push(start as u32);
        }
    }
    let others = m
        .swaps
        .iter()
        .map(|&(x, y)| Action::k2(K_SWAP, x as i32, y as i32));
    for a in others.chain([Action::k(K_STOP)]) {
        let i = index.index(&a).unwrap_or(u32::MAX as usize);
        if let Some(x) = mask.get_mut(i) {
            *x = 1;
        }
        set.push(i as u32);
    }
}

/// `row[k] = 1` where bit `k` of `bits` is set, else 0 (eight entries per store).
#[inline]
fn spread_bits(row: &mut [u8], mut bits: u64) {
    // byte `k` of SPREAD[x] is bit `k` of `x`
    const SPREAD: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut x = 0;
        while x < 256 {
            let mut k = 0;
            while k < 8 {
                t[x] |= ((x as u64 >> k) & 1) << (8 * k);
                k += 1;
            }
            x += 1;
        }
        t
    };
    let mut eights = row.chunks_exact_mut(8);
    for e in &mut eights {
        e.copy_from_slice(&SPREAD[(bits & 0xff) as usize].to_le_bytes());
        bits >>= 8;
    }
    for (k, x) in eights.into_remainder().iter_mut().enumerate() {
        *x = (bits >> k & 1) as u8;
    }
}

/// Set the mask entries of `legal` (an action without an index sets none) and keep them
/// in `set`. A Move's lists (most `move_piece` actions) go through [`set_move_mask`].
fn set_mask(mask: &mut [u8], set: &mut Vec<u32>, legal: &[Action], index: &ActionIndex) {
    set.reserve(legal.len());
    for a in legal {
        let i = index.index(a).unwrap_or(u32::MAX as usize);
        if let Some(m) = mask.get_mut(i) {
            *m = 1;
        }
        set.push(i as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::legal;

    #[test]
    fn the_mask_rows_1s_are_the_legal_actions_and_accepted_as_such() {
        let config = Config::printed(3, "base_3p", 0);
        let n = 4;
        let mut env = VectorEnv::new(&config, n, 3, 20_000, 1).unwrap();
        let (os, ms) = (env.layout.size(), env.index.size());
        let mut obs = vec![0.0; n * os];
        let mut mask = vec![0; n * ms];
        let (mut rewards, mut flags) = (vec![0.0; n * 3], [vec![0; n], vec![0; n]]);
        let mut to_act = vec![0; n];
        let mut moves_seen = 0;
        for call in 0..400 {
            let [terminated, truncated] = &mut flags;
            let b = Buffers {
                obs: &mut obs,
                mask: &mut mask,
                rewards: &mut rewards,
                terminated,
                truncated,
                to_act: &mut to_act,
            };
            if call == 0 {
                env.reset(b).unwrap();
            } else {
                env.step(&vec![-1; n], b, true).unwrap();
            }
            for (e, slot) in env.slots.iter().enumerate() {
                let row = &mask[e * ms..(e + 1) * ms];
                let mut want: Vec<usize> = legal(&slot.state)
                    .iter()
                    .map(|a| env.index.index(a).unwrap())
                    .collect();
                want.sort_unstable();
                let got: Vec<usize> = (0..ms).filter(|&i| row[i] == 1).collect();
                assert_eq!(got, want, "call {call}, environment {e}");
                assert!(row.iter().all(|&m| m <= 1));
                moves_seen += usize::from(slot.in_move);
                // every 1 is accepted, a 0 next to it is not
                for &i in want.iter().step_by(7) {
                    let act = env.index.action(i).unwrap();
                    assert!(slot.allows(&act, &env.index), "{act:?}");
                    if let Some(j) = (i + 1..ms).find(|&j| row[j] == 0) {
                        let other = env.index.action(j).unwrap();
                        assert!(!slot.allows(&other, &env.index), "{other:?}");
                    }
                }
            }
        }
        assert!(moves_seen > 100, "{moves_seen} Move decisions");
    }
}
