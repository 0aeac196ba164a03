//! The position evaluation of `greedy` and the tips (twin of
//! `hansa_lab/strategies/evaluation.py`): the same terms, added in the same order, so
//! that both engines compute the same floating-point number.

use crate::board::{A_ACTIONS, A_BANK, A_KEYS, A_PRIVILEGE, MAX_ROUTES, PLAYER_BOARD};
use crate::scoring::{city_controller, largest_network, score_rows};
use crate::state::{copy_rows, State, EMPTY};

/// Value of each ability level beyond what the score counts (`ABILITY_VALUE`).
pub const ABILITY_VALUE: [&[i32]; 5] = [
    &[0, 4, 4, 7, 7, 10], // actions
    &[0, 2, 3, 4],        // bank
    &[0, 1, 2, 3],        // book
    &[0, 2, 3, 4],        // privilege
    &[0, 2, 2, 4, 6],     // keys
];

/// The evaluation weights (`Weights`), every one a strategy parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub score: f64,
    pub opponents: f64,
    pub route: f64,
    pub supply: f64,
    pub supply_cap: i64,
    pub stock: f64,
    pub reserve: f64,
    pub ability: f64,
    pub actions_left: f64,
    pub plan_actions: f64,
    pub plan_bank: f64,
    pub plan_keys: f64,
    pub plan_coellen: f64,
    pub plan_control: f64,
    pub patience: f64,
    pub fade: f64,
}

impl Default for Weights {
    /// The shared vocabulary's defaults (`greedy_weights` of `vocabulary.json`).
    fn default() -> Self {
        let w = |name: &str| crate::vocabulary::VOCABULARY.weight(name);
        Weights {
            score: w("score"),
            opponents: w("opponents"),
            route: w("route"),
            supply: w("supply"),
            supply_cap: w("supply_cap") as i64,
            stock: w("stock"),
            reserve: w("reserve"),
            ability: w("ability"),
            actions_left: w("actions_left"),
            plan_actions: w("plan_actions"),
            plan_bank: w("plan_bank"),
            plan_keys: w("plan_keys"),
            plan_coellen: w("plan_coellen"),
            plan_control: w("plan_control"),
            patience: w("patience"),
            fade: w("fade"),
        }
    }
}

/// Cities where establishing an adjacent route could reward `player` now: the
/// special-prestige city, a city with an ability the player can still develop, a city
/// whose first free office the player's Privilege allows (`_rewarding_cities`).
pub fn rewarding_cities(s: &State, player: usize, out: &mut Vec<bool>) {
    let b = s.board;
    let lv = &s.levels[player];
    let privilege = lv[A_PRIVILEGE];
    let track_max = &PLAYER_BOARD.track_max;
    out.clear();
    for c in 0..b.n_cities {
        let mut ok = c == b.special_city;
        if !ok {
            ok = b.city_abilities[c].iter().any(|&a| lv[a] < track_max[a]);
        }
        if !ok {
            if let Some(i) = b.city_offices(c).find(|&i| s.offices[i] == EMPTY) {
                ok = b.office_colour[i] <= privilege;
            }
        }
        out.push(ok);
    }
}

/// Progress on routes (the `route` term): summed over the player's routes in index order.
pub fn route_progress(s: &State, player: usize) -> f64 {
    let mut counts = RouteCounts::default();
    counts.count(s, player);
    let mut rewarding = Vec::new();
    route_progress_with(
        s,
        &counts,
        &mut |out: &mut Vec<bool>| rewarding_cities(s, player, out),
        &mut rewarding,
    )
}

/// The player's pieces and the free posts per route.
#[derive(Clone, Debug)]
pub struct RouteCounts {
    pub(crate) own: [u8; MAX_ROUTES],
    pub(crate) empty: [u8; MAX_ROUTES],
}

impl Default for RouteCounts {
    fn default() -> Self {
        RouteCounts {
            own: [0; MAX_ROUTES],
            empty: [0; MAX_ROUTES],
        }
    }
}

impl RouteCounts {
    pub(crate) fn count(&mut self, s: &State, player: usize) {
        self.own = [0; MAX_ROUTES];
        self.empty = [0; MAX_ROUTES];
        for (i, &o) in s.posts.iter().enumerate() {
            self.add(s.board.post_route[i], o, player, 1);
        }
    }

    #[inline]
    fn add(&mut self, r: usize, o: i8, player: usize, k: i8) {
        if o == EMPTY {
            self.empty[r] = self.empty[r].wrapping_add_signed(k);
        } else if (o >> 1) as usize == player {
            self.own[r] = self.own[r].wrapping_add_signed(k);
        }
    }
}

pub(crate) fn route_progress_with(
    s: &State,
    counts: &RouteCounts,
    fill_rewarding: &mut impl FnMut(&mut Vec<bool>),
    rewarding: &mut Vec<bool>,
) -> f64 {
    let b = s.board;
    let mut total = 0.0;
    let mut have = false;
    for r in 0..b.n_routes {
        let own = counts.own[r] as usize;
        if own == 0 {
            continue;
        }
        let n = b.route_n_posts[r];
        let mut v = if own == n {
            let q = (n - 1) as f64 / n as f64;
            3.0 * q * q + 0.1
        } else if own + counts.empty[r] as usize == n {
            let q = own as f64 / n as f64;
            3.0 * q * q
        } else {
            0.3 * own as f64
        };
        if !have {
            fill_rewarding(rewarding);
            have = true;
        }
        let [x, y] = b.route_cities[r];
        if !(rewarding[x] || rewarding[y]) {
            v /= 3.0;
        }
        total += v;
    }
    total
}

/// The weight of the intent terms in this round (`intent_factor`): 1 until `patience`
/// rounds, then 1 / (1 + (round - patience) / fade).
pub fn intent_factor(s: &State, w: &Weights) -> f64 {
    if s.round as f64 <= w.patience {
        return 1.0;
    }
    1.0 / (1.0 + (s.round as f64 - w.patience) / w.fade)
}

/// The evaluation of the position for `player` (`evaluate`), higher is better.
pub fn evaluate(s: &State, player: usize, w: &Weights) -> f64 {
    let mut memo = EvalMemo::new();
    evaluate_with(s, player, w, &mut memo)
}

/// `evaluate` with the scores and the rewarding cities taken from `memo` when the
/// position has the same score inputs as one it has seen (most candidate actions only
/// move pieces on routes, which changes neither).
pub fn evaluate_with(s: &State, player: usize, w: &Weights, memo: &mut EvalMemo) -> f64 {
    let f = intent_factor(s, w);
    let e = memo.entry(s);
    let totals = &memo.entries[e].totals;
    let mut value = w.score * totals[player] as f64;
    if w.opponents != 0.0 && s.n_players() > 1 {
        let best = (0..totals.len())
            .filter(|&i| i != player)
            .map(|i| totals[i])
            .max()
            .unwrap_or(0);
        value -= w.opponents * best as f64;
    }
    let plans = w.plan_actions != 0.0
        || w.plan_bank != 0.0
        || w.plan_keys != 0.0
        || w.plan_coellen != 0.0
        || w.plan_control != 0.0;
    if w.route != 0.0 || plans {
        memo.posts.counts_for(s, player);
    }
    if w.route != 0.0 {
        let entry = &mut memo.entries[e];
        let (known, rewarding) = (&mut entry.rewarding_known, &mut entry.rewarding);
        let progress = route_progress_with(
            s,
            &memo.posts.now,
            &mut |out: &mut Vec<bool>| {
                if !*known {
                    rewarding_cities(s, player, out);
                    *known = true;
                }
            },
            rewarding,
        );
        value += w.route * progress * f;
    }
    add_piece_terms(&mut value, s, w, player);
    if w.ability != 0.0 {
        let lv = &s.levels[player];
        let sum: i32 = (0..5).map(|a| ABILITY_VALUE[a][lv[a] as usize]).sum();
        value += w.ability * sum as f64;
    }
    if w.actions_left != 0.0 && s.active == player && s.end_reason.is_none() {
        value += w.actions_left * s.actions_left as f64;
    }
    if plans {
        let counts = &memo.posts.now;
        let cache = &mut memo.entries[e].plans;
        if w.plan_actions != 0.0 {
            value += w.plan_actions * track_plan_with(s, player, A_ACTIONS, counts, cache) * f;
        }
        if w.plan_bank != 0.0 {
            value += w.plan_bank * track_plan_with(s, player, A_BANK, counts, cache) * f;
        }
        if w.plan_keys != 0.0 {
            value += w.plan_keys * track_plan_with(s, player, A_KEYS, counts, cache) * f;
        }
        if w.plan_coellen != 0.0 {
            value += w.plan_coellen * coellen_plan_with(s, player, counts) * f;
        }
        if w.plan_control != 0.0 {
            value += w.plan_control * control_plan_with(s, player, counts, cache) * f;
        }
    }
    value
}

/// What the plan terms read of the Kontors (offices and extras, part of the memo's key):
/// the largest network and the Kontor/control part of the control plan, once per entry.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlanCache {
    pub(crate) network: Option<i32>,
    pub(crate) control: Option<f64>,
}

/// Progress towards establishing one of the routes `take` selects (`open_progress`), in
/// route order: 3·q² for each holding own pieces and no opponent's, q = own/n.
fn open_progress(s: &State, counts: &RouteCounts, take: impl Fn(usize) -> bool) -> f64 {
    let b = s.board;
    let mut total = 0.0;
    for r in 0..b.n_routes {
        let own = counts.own[r] as usize;
        if own > 0 && own + counts.empty[r] as usize == b.route_n_posts[r] && take(r) {
            let q = own as f64 / b.route_n_posts[r] as f64;
            total += 3.0 * q * q;
        }
    }
    total
}

/// Whether city `c` offers `ability`.
fn offers(s: &State, c: usize, ability: usize) -> bool {
    s.board.city_abilities[c].contains(&ability)
}

/// The plan to develop `ability` (`track_plan`: `plan_actions`, `plan_bank`, `plan_keys`).
pub fn track_plan(s: &State, player: usize, ability: usize) -> f64 {
    let mut counts = RouteCounts::default();
    counts.count(s, player);
    track_plan_with(s, player, ability, &counts, &mut PlanCache::default())
}

pub(crate) fn track_plan_with(
    s: &State,
    player: usize,
    ability: usize,
    counts: &RouteCounts,
    cache: &mut PlanCache,
) -> f64 {
    let b = s.board;
    let lv = s.levels[player][ability];
    let mut v = 4.0 * lv as f64;
    if lv < PLAYER_BOARD.track_max[ability] {
        v += open_progress(s, counts, |r| {
            let [x, y] = b.route_cities[r];
            offers(s, x, ability) || offers(s, y, ability)
        });
    }
    if ability == A_KEYS {
        let network = *cache
            .network
            .get_or_insert_with(|| largest_network(s, player));
        v += network as f64;
    }
    v
}

/// The plan to take special-prestige spaces (`coellen_plan`).
pub fn coellen_plan(s: &State, player: usize) -> f64 {
    let mut counts = RouteCounts::default();
    counts.count(s, player);
    coellen_plan_with(s, player, &counts)
}

pub(crate) fn coellen_plan_with(s: &State, player: usize, counts: &RouteCounts) -> f64 {
    let b = s.board;
    let owned = s
        .special
        .iter()
        .filter(|&&o| o != EMPTY && (o >> 1) as usize == player)
        .count();
    let mut v = 4.0 * owned as f64;
    let lowest_free = (0..b.special_spaces.len())
        .filter(|&j| s.special[j] == EMPTY)
        .map(|j| b.special_spaces[j].1)
        .min();
    if let Some(colour) = lowest_free {
        v += open_progress(s, counts, |r| match b.special_route {
            Some(sr) => r == sr,
            None => b.route_cities[r].contains(&b.special_city),
        });
        if colour <= s.levels[player][A_PRIVILEGE] {
            v += 3.0;
        }
    }
    v
}

/// The plan to hold the cities with abilities (`control_plan`).
pub fn control_plan(s: &State, player: usize) -> f64 {
    let mut counts = RouteCounts::default();
    counts.count(s, player);
    control_plan_with(s, player, &counts, &mut PlanCache::default())
}

pub(crate) fn control_plan_with(
    s: &State,
    player: usize,
    counts: &RouteCounts,
    cache: &mut PlanCache,
) -> f64 {
    let b = s.board;
    let held = *cache.control.get_or_insert_with(|| {
        let mut v = 0.0;
        for c in (0..b.n_cities).filter(|&c| !b.city_abilities[c].is_empty()) {
            let own = s.offices[b.city_offices(c)]
                .iter()
                .chain(s.extras[c].iter())
                .filter(|&&o| o != EMPTY && (o >> 1) as usize == player)
                .count();
            v += 0.5 * own as f64;
            if city_controller(s, c) == player as i32 {
                v += 2.0;
            }
        }
        v
    });
    let ability_city = |c: usize| !b.city_abilities[c].is_empty();
    held + open_progress(s, counts, |r| {
        let [x, y] = b.route_cities[r];
        ability_city(x) || ability_city(y)
    })
}

/// What the evaluation reads besides the pieces on routes, in supply and in stock: the
/// inputs of `score_rows` and of `rewarding_cities`.
#[derive(Clone, Debug, Default)]
struct ScoreInputs {
    prestige: Vec<i32>,
    levels: Vec<[u8; 5]>,
    markers: Vec<usize>,
    special: Vec<i8>,
    special_points: Vec<i32>,
    offices: Vec<i8>,
    extras: Vec<Vec<i8>>,
    favours: Vec<Vec<u8>>,
}

impl ScoreInputs {
    fn matches(&self, s: &State) -> bool {
        self.offices == s.offices
            && self.prestige == s.prestige
            && self.levels == s.levels
            && self.special == s.special
            && same_nested(&self.extras, &s.extras)
            && same_nested(&self.favours, &s.favours)
            && self.special_points == s.special_points
            && self.markers.len() == s.markers.len()
            && self
                .markers
                .iter()
                .enumerate()
                .all(|(p, &k)| k == s.markers[p].len() + s.markers_used[p].len())
    }

    fn set(&mut self, s: &State) {
        self.prestige.clone_from(&s.prestige);
        self.levels.clone_from(&s.levels);
        self.markers.clear();
        self.markers
            .extend((0..s.markers.len()).map(|p| s.markers[p].len() + s.markers_used[p].len()));
        self.special.clone_from(&s.special);
        self.special_points.clone_from(&s.special_points);
        self.offices.clone_from(&s.offices);
        copy_rows(&mut self.extras, &s.extras);
        copy_rows(&mut self.favours, &s.favours);
    }
}

/// `a == b` for lists of small lists, without a `memcmp` call per (mostly empty) inner
/// list: comparing the 27 empty extra-Kontor lists of a board that way took 3.7 µs.
fn same_nested<T: PartialEq>(a: &[Vec<T>], b: &[Vec<T>]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.len() == y.len() && x.iter().zip(y).all(|(u, v)| u == v))
}

#[derive(Clone, Debug, Default)]
struct MemoEntry {
    valid: bool,
    inputs: ScoreInputs,
    totals: Vec<i32>,
    rewarding_known: bool,
    rewarding: Vec<bool>,
    plans: PlanCache,
}

/// Two remembered positions' score totals and rewarding cities for one player (the
/// position being decided and the last other one). Within one decision only: nothing
/// of the configuration is part of the key.
#[derive(Clone, Debug)]
pub struct EvalMemo {
    entries: [MemoEntry; 2],
    next: usize,
    posts: PostMemo,
}

/// The route counts of one position, and of any other by the posts that differ from it
/// (a candidate action changes a few posts).
#[derive(Clone, Debug, Default)]
struct PostMemo {
    base_posts: Vec<i8>,
    base_player: usize,
    base: RouteCounts,
    now: RouteCounts,
}

impl PostMemo {
    fn counts_for(&mut self, s: &State, player: usize) {
        if self.base_posts.len() != s.posts.len() || self.base_player != player {
            self.base.count(s, player);
            self.base_posts.clone_from(&s.posts);
            self.base_player = player;
            self.now = self.base.clone();
            return;
        }
        self.now = self.base.clone();
        let route = &s.board.post_route;
        let (old, new) = (&self.base_posts, &s.posts);
        // compare eight posts at a time; look closer only where they differ
        let chunks = old.len() / 8;
        for c in 0..chunks {
            let (x, y) = (&old[8 * c..8 * c + 8], &new[8 * c..8 * c + 8]);
            if x != y {
                for i in 8 * c..8 * c + 8 {
                    if old[i] != new[i] {
                        self.now.add(route[i], old[i], player, -1);
                        self.now.add(route[i], new[i], player, 1);
                    }
                }
            }
        }
        for i in 8 * chunks..old.len() {
            if old[i] != new[i] {
                self.now.add(route[i], old[i], player, -1);
                self.now.add(route[i], new[i], player, 1);
            }
        }
    }
}

impl Default for EvalMemo {
    fn default() -> Self {
        EvalMemo::new()
    }
}

impl EvalMemo {
    pub fn new() -> EvalMemo {
        EvalMemo {
            entries: [MemoEntry::default(), MemoEntry::default()],
            next: 0,
            posts: PostMemo::default(),
        }
    }

    fn entry(&mut self, s: &State) -> usize {
        for (i, e) in self.entries.iter().enumerate() {
            if e.valid && e.inputs.matches(s) {
                return i;
            }
        }
        let i = self.next;
        // entry 0 keeps the first position seen (the one being decided)
        self.next = 1;
        let e = &mut self.entries[i];
        e.inputs.set(s);
        e.totals.clear();
        e.totals
            .extend(score_rows(s).iter().map(|r| r.iter().sum::<i32>()));
        e.rewarding_known = false;
        e.plans = PlanCache::default();
        e.valid = true;
        i
    }
}

/// The pieces' terms of the evaluation, added to `value` in this order (supply up to its
/// cap, stock, the reserve of two): the greedy evaluation and the learned player's
/// reading of it from the features share them, so both add the same numbers alike.
pub(crate) fn add_piece_terms(value: &mut f64, s: &State, w: &Weights, player: usize) {
    let supply = (s.supply_t[player] + s.supply_m[player]) as i64;
    if w.supply != 0.0 {
        *value += w.supply * supply.min(w.supply_cap) as f64;
    }
    let stock = (s.stock_t[player] + s.stock_m[player]) as i64;
    if w.stock != 0.0 {
        *value += w.stock * stock as f64;
    }
    if w.reserve != 0.0 {
        *value += w.reserve * (stock + supply).min(2) as f64;
    }
}
