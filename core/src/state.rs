//! Game configuration and state (twin of `hansa_lab/engine/state.py`).
//!
//! Occupants are `-1` (empty) or `colour * 2 + piece`; markers and favour tiles are small
//! indices into [`MARKER_KINDS`] and [`FAVOUR_TILES`], kept in the same order as the Python
//! engine's tuples.

use crate::board::{board, Board, PLAYER_BOARD};
use crate::decisions::Decision;
use crate::events::Event;
use crate::rng::Rng;
use crate::vocabulary::VOCABULARY;
use std::sync::{Arc, LazyLock};

pub const EMPTY: i8 = -1;
pub const MARKER_KINDS: [&str; 7] = [
    "extra", "swap", "move3", "remove3", "develop", "plus3", "plus4",
];
pub const MK_EXTRA: u8 = 0;
pub const MK_SWAP: u8 = 1;
pub const MK_MOVE3: u8 = 2;
pub const MK_REMOVE3: u8 = 3;
pub const MK_DEVELOP: u8 = 4;
pub const MK_PLUS3: u8 = 5;
pub const MK_PLUS4: u8 = 6;
pub const FAVOUR_TILES: [&str; 6] = [
    "relocate_anywhere",
    "extra_action",
    "income_share",
    "displaced_two",
    "control_4",
    "abilities_7",
];
pub const F_RELOCATE_ANYWHERE: u8 = 0;
pub const F_EXTRA_ACTION: u8 = 1;
pub const F_INCOME_SHARE: u8 = 2;
pub const F_DISPLACED_TWO: u8 = 3;
pub const F_CONTROL_4: u8 = 4;
pub const F_ABILITIES_7: u8 = 5;
pub const END_REASONS: [&str; 3] = ["prestige", "markers", "cities"];
pub const NEUTRAL_TRADERS: i32 = 27;

/// The rule options `CoreConfig` reads, resolved (`bridge.core_options` of the Python
/// engine), in the shared vocabulary's order: all of them but those the vocabulary says
/// arrive resolved into another (`start_supply` into `start_supply_seats`).
pub static RULE_OPTION_NAMES: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| VOCABULARY.core_options.iter().map(String::as_str).collect());

/// Bonus-marker sets per edition (from the shared vocabulary): counts in `MARKER_KINDS`
/// order, then the start markers.
pub fn marker_set(edition: u8) -> ([u8; 7], [u8; 3]) {
    let set = VOCABULARY.marker_sets[edition as usize];
    (set.counts, set.start)
}

/// A short list of points (at most [`Points::CAP`] values) kept inline, so that a
/// configuration copies without allocating.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Points {
    len: u8,
    values: [i32; Points::CAP],
}

impl Points {
    pub const CAP: usize = 5;

    /// `None` when `values` is longer than [`Points::CAP`].
    pub fn new(values: &[i32]) -> Option<Self> {
        if values.len() > Self::CAP {
            return None;
        }
        let mut p = Points {
            len: values.len() as u8,
            values: [0; Self::CAP],
        };
        p.values[..values.len()].copy_from_slice(values);
        Some(p)
    }

    #[inline]
    pub fn as_slice(&self) -> &[i32] {
        &self.values[..self.len as usize]
    }
}

/// The numbers a designer may tune, resolved (twin of `Tuning` in
/// `hansa_lab/engine/options.py`): the Python engine resolves the rule options against
/// the board and edition (`options.resolve`) and the core receives the result
/// (`CoreConfig`); nothing here is resolved again. `None` (east_west_points,
/// cities_to_end) only in the core's own printed configurations: the board's value.
/// The plain integer options (the vocabulary's `"tuning"` entries) fill their field by
/// name, as given ([`Tuning::set_int`]): a new one is its entry, a field here and an arm
/// of `set_int` (and a field of the Python `Tuning`).
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    pub east_west_points: Option<Points>,
    pub region_points: Points,
    pub control_prestige: i32,
    pub control_points: i32,
    pub favour_control_bonus: i32,
    pub ability_points: i32,
    pub favour_abilities_bonus: i32,
    /// points by number of collected markers, 0..=31 (more: the last entry)
    pub marker_table: [i32; 32],
    pub cities_to_end: Option<i32>,
    /// the tracks by development (0 = start); the Bank's `None` = all
    pub actions: [i32; 6],
    pub bank: [Option<i32>; 4],
    pub book: [i32; 4],
    pub keys: [i32; 5],
    /// traders in each seat's personal supply (seats beyond the player count unused)
    pub start_supply: [i32; 5],
    pub start_merchants: i32,
    /// the whole marker set, counts in `MARKER_KINDS` order
    pub marker_set: [u8; 7],
    /// the kinds shuffled onto the taverns: the first `n_start_markers`
    pub start_markers: [u8; 3],
    pub n_start_markers: usize,
}

impl Default for Tuning {
    /// The printed game, bigbox edition.
    fn default() -> Self {
        Tuning::printed(0)
    }
}

impl Tuning {
    /// The printed game of `edition` (0 = bigbox, 1 = original): the shared vocabulary's
    /// defaults and the board file's player board, for the core's own callers (tests,
    /// examples, benchmarks); Python passes its resolved tuning.
    pub fn printed(edition: u8) -> Self {
        let pb = &*PLAYER_BOARD;
        let v = &*VOCABULARY;
        let copy = |v: &[i32], out: &mut [i32]| out.copy_from_slice(&v[..out.len()]);
        let (marker_set, start_markers) = marker_set(edition);
        let first = v.option_int("start_supply");
        let mut t = Tuning {
            east_west_points: None,
            region_points: Points::new(&v.option_ints("region_points")).unwrap_or_default(),
            control_prestige: 0,
            control_points: 0,
            favour_control_bonus: 0,
            ability_points: 0,
            favour_abilities_bonus: 0,
            marker_table: [0; 32],
            cities_to_end: None,
            actions: [0; 6],
            bank: [None; 4],
            book: [0; 4],
            keys: [0; 5],
            start_supply: std::array::from_fn(|seat| first + seat as i32),
            start_merchants: 0,
            marker_set,
            start_markers,
            n_start_markers: v.option_int("start_markers") as usize,
        };
        copy(&pb.marker_points, &mut t.marker_table);
        copy(&pb.actions, &mut t.actions);
        t.bank.copy_from_slice(&pb.bank[..4]);
        copy(&pb.book, &mut t.book);
        copy(&pb.keys, &mut t.keys);
        for p in &v.plain_ints {
            t.set_int(&p.field, p.default)
                .expect("every plain integer option names a field of Tuning (a test checks)");
        }
        t
    }

    /// Set the plain integer field `field` (a vocabulary entry's `"tuning"`) to `v`; an
    /// error for a name that is no such field.
    pub fn set_int(&mut self, field: &str, v: i32) -> Result<(), String> {
        let slot = match field {
            "control_prestige" => &mut self.control_prestige,
            "control_points" => &mut self.control_points,
            "favour_control_bonus" => &mut self.favour_control_bonus,
            "ability_points" => &mut self.ability_points,
            "favour_abilities_bonus" => &mut self.favour_abilities_bonus,
            "start_merchants" => &mut self.start_merchants,
            _ => return Err(format!("Tuning has no plain integer field {field:?}")),
        };
        *slot = v;
        Ok(())
    }

    /// The score table of the option `marker_points` (points for 1, 2, ... markers, the
    /// last entry for that many or more).
    pub fn set_marker_points(&mut self, points: &[i32]) {
        for n in 0..self.marker_table.len() {
            self.marker_table[n] = if n == 0 || points.is_empty() {
                0
            } else {
                points[n.min(points.len()) - 1]
            };
        }
    }

    #[inline]
    pub fn marker_points(&self, n: usize) -> i32 {
        self.marker_table[n.min(self.marker_table.len() - 1)]
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    pub n_players: usize,
    pub side: String,
    /// 0 = bigbox, 1 = original
    pub edition: u8,
    /// the seed mod 2**64
    pub seed: u64,
    pub special_points: Option<[i32; 4]>,
    pub prestige_to_end: i32,
    pub emperor: bool,
    /// East board: the alternative source's values for the disputed cities
    pub east_alternative: bool,
    /// the other rule options, resolved: the numbers a designer may tune (shared by
    /// every state of a game: a copy of a state copies a pointer)
    pub tuning: Arc<Tuning>,
}

impl Config {
    /// The printed game (every rule option at its default) for `n_players` on `side`
    /// (`"base_45p"` …), the bigbox edition, with `seed`.
    pub fn printed(n_players: usize, side: &str, seed: u64) -> Config {
        Config {
            n_players,
            side: side.into(),
            edition: 0,
            seed,
            special_points: None,
            prestige_to_end: VOCABULARY.option_int("prestige_to_end"),
            emperor: false,
            east_alternative: false,
            tuning: Default::default(),
        }
    }

    pub fn has_neutral(&self) -> bool {
        self.n_players == 2
    }

    /// Traders in each seat's personal supply at the start.
    pub fn start_supply_of(&self, seat: usize) -> i32 {
        self.tuning.start_supply[seat]
    }

    /// The bonus-marker set (counts in `MARKER_KINDS` order) and the start markers.
    pub fn markers(&self) -> ([u8; 7], Vec<u8>) {
        let t = &self.tuning;
        (
            t.marker_set,
            t.start_markers[..t.n_start_markers.min(3)].to_vec(),
        )
    }
}

/// Check a configuration (resolved: nothing is looked up here) so that no rule can go
/// out of range: the board side and its player counts, the edition, and the tuning's
/// values the rules index with; `Err` says what is wrong.
pub fn covered(config: &Config) -> Result<(), String> {
    let b = board(&config.side, config.east_alternative).ok_or_else(|| {
        format!(
            "unknown board side {:?}{}",
            config.side,
            if config.east_alternative {
                " with east_alternative (East only)"
            } else {
                ""
            }
        )
    })?;
    if !b.players.contains(&config.n_players) {
        return Err(format!(
            "board side {:?} is for {:?} players, not {}",
            config.side, b.players, config.n_players
        ));
    }
    if config.edition > 1 {
        return Err("edition must be bigbox or original".into());
    }
    if config.prestige_to_end < 1 {
        return Err("rule option prestige_to_end must be positive".into());
    }
    let t = &config.tuning;
    if t.n_start_markers > b.tavern_routes.len().min(3) {
        return Err("rule option start_markers is more than the taverns".into());
    }
    if (0..config.n_players).any(|p| !(0..=11).contains(&config.start_supply_of(p))) {
        return Err("rule option start_supply_seats out of range".into());
    }
    if !(0..=1).contains(&t.start_merchants) {
        return Err("rule option start_merchants must be 0-1".into());
    }
    if t.actions.iter().chain(t.book.iter()).any(|&v| v < 1) {
        return Err("rule options actions_track and book_track need positive values".into());
    }
    if t.cities_to_end
        .is_some_and(|c| !(1..=b.n_cities as i32).contains(&c))
    {
        return Err(format!(
            "rule option cities_to_end must be 1-{} (the cities of {})",
            b.n_cities, config.side
        ));
    }
    let (counts, start) = config.markers();
    for k in &start {
        let need = start.iter().filter(|x| *x == k).count();
        if (counts[*k as usize] as usize) < need {
            return Err("rule option marker_set must hold the start markers".into());
        }
    }
    Ok(())
}

#[derive(Debug)]
pub struct State {
    /// shared by every position of a game (a copy of a state copies no configuration)
    pub config: Arc<Config>,
    pub board: &'static Board,
    pub posts: Vec<i8>,
    pub offices: Vec<i8>,
    pub extras: Vec<Vec<i8>>,
    pub supply_t: Vec<i32>,
    pub supply_m: Vec<i32>,
    pub stock_t: Vec<i32>,
    pub stock_m: Vec<i32>,
    pub prestige: Vec<i32>,
    pub levels: Vec<[u8; 5]>,
    pub markers: Vec<Vec<u8>>,
    pub markers_used: Vec<Vec<u8>>,
    /// marker kind beside each route, -1 for none
    pub route_marker: Vec<i8>,
    /// face-down markers, drawn from the front
    pub bag: Vec<u8>,
    pub drawn: Vec<u8>,
    pub special: Vec<i8>,
    pub special_points: Vec<i32>,
    pub east_west: Vec<u8>,
    pub discarded: Vec<u8>,
    pub permits_used: Vec<u8>,
    pub neutral_pool: i32,
    pub favour_display: Vec<u8>,
    pub favours: Vec<Vec<u8>>,
    pub turn_start: i32,
    pub active: usize,
    pub actions_left: i32,
    pub round: i32,
    pub turn: i32,
    pub n_actions: i32,
    pub completed: i32,
    pub pending: Vec<Decision>,
    /// index into END_REASONS
    pub end_reason: Option<u8>,
    pub end_after_action: Option<u8>,
    /// events of the last applied action (not part of the game's identity)
    pub events: Vec<Event>,
}

/// `clone_from` reuses the target's buffers (the searching strategies copy a position
/// into the same scratch state for every candidate). The destructuring names every
/// field, so a new field cannot be forgotten here.
// one line per field, the same call for every field (Copy ones included)
#[allow(clippy::clone_on_copy)]
impl Clone for State {
    fn clone(&self) -> Self {
        State {
            config: self.config.clone(),
            board: self.board,
            posts: self.posts.clone(),
            offices: self.offices.clone(),
            extras: self.extras.clone(),
            supply_t: self.supply_t.clone(),
            supply_m: self.supply_m.clone(),
            stock_t: self.stock_t.clone(),
            stock_m: self.stock_m.clone(),
            prestige: self.prestige.clone(),
            levels: self.levels.clone(),
            markers: self.markers.clone(),
            markers_used: self.markers_used.clone(),
            route_marker: self.route_marker.clone(),
            bag: self.bag.clone(),
            drawn: self.drawn.clone(),
            special: self.special.clone(),
            special_points: self.special_points.clone(),
            east_west: self.east_west.clone(),
            discarded: self.discarded.clone(),
            permits_used: self.permits_used.clone(),
            neutral_pool: self.neutral_pool.clone(),
            favour_display: self.favour_display.clone(),
            favours: self.favours.clone(),
            turn_start: self.turn_start.clone(),
            active: self.active.clone(),
            actions_left: self.actions_left.clone(),
            round: self.round.clone(),
            turn: self.turn.clone(),
            n_actions: self.n_actions.clone(),
            completed: self.completed.clone(),
            pending: self.pending.clone(),
            end_reason: self.end_reason.clone(),
            end_after_action: self.end_after_action.clone(),
            events: self.events.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let State {
            config,
            board,
            posts,
            offices,
            extras,
            supply_t,
            supply_m,
            stock_t,
            stock_m,
            prestige,
            levels,
            markers,
            markers_used,
            route_marker,
            bag,
            drawn,
            special,
            special_points,
            east_west,
            discarded,
            permits_used,
            neutral_pool,
            favour_display,
            favours,
            turn_start,
            active,
            actions_left,
            round,
            turn,
            n_actions,
            completed,
            pending,
            end_reason,
            end_after_action,
            events,
        } = source;
        if !Arc::ptr_eq(&self.config, config) {
            self.config.clone_from(config);
        }
        self.board = board;
        self.posts.clone_from(posts);
        self.offices.clone_from(offices);
        copy_rows(&mut self.extras, extras);
        self.supply_t.clone_from(supply_t);
        self.supply_m.clone_from(supply_m);
        self.stock_t.clone_from(stock_t);
        self.stock_m.clone_from(stock_m);
        self.prestige.clone_from(prestige);
        self.levels.clone_from(levels);
        copy_rows(&mut self.markers, markers);
        copy_rows(&mut self.markers_used, markers_used);
        self.route_marker.clone_from(route_marker);
        self.bag.clone_from(bag);
        self.drawn.clone_from(drawn);
        self.special.clone_from(special);
        self.special_points.clone_from(special_points);
        self.east_west.clone_from(east_west);
        self.discarded.clone_from(discarded);
        self.permits_used.clone_from(permits_used);
        self.neutral_pool.clone_from(neutral_pool);
        self.favour_display.clone_from(favour_display);
        copy_rows(&mut self.favours, favours);
        self.turn_start.clone_from(turn_start);
        self.active.clone_from(active);
        self.actions_left.clone_from(actions_left);
        self.round.clone_from(round);
        self.turn.clone_from(turn);
        self.n_actions.clone_from(n_actions);
        self.completed.clone_from(completed);
        self.pending.clone_from(pending);
        self.end_reason.clone_from(end_reason);
        self.end_after_action.clone_from(end_after_action);
        self.events.clone_from(events);
    }
}

/// `dst.clone_from(src)` for a list of short rows (extra Kontors per city, markers per
/// player): the same result, without a library call per row. Most rows are empty or
/// keep their length from one copy of a position to the next, so a row of the same
/// length is copied element by element and an empty one costs a comparison.
pub(crate) fn copy_rows<T: Copy>(dst: &mut Vec<Vec<T>>, src: &[Vec<T>]) {
    if dst.len() != src.len() {
        *dst = src.to_vec();
        return;
    }
    for (d, s) in dst.iter_mut().zip(src) {
        if d.len() == s.len() {
            for (x, y) in d.iter_mut().zip(s) {
                *x = *y;
            }
        } else {
            d.clear();
            d.extend_from_slice(s);
        }
    }
}

impl State {
    #[inline]
    pub fn n_players(&self) -> usize {
        self.config.n_players
    }
    /// Colour index of the neutral colour (two players), else -1.
    #[inline]
    pub fn neutral(&self) -> i32 {
        if self.neutral_pool >= 0 {
            self.config.n_players as i32
        } else {
            -1
        }
    }
    #[inline]
    pub fn n_colours(&self) -> usize {
        self.config.n_players + usize::from(self.neutral_pool >= 0)
    }
    #[inline]
    pub fn has_favour(&self, player: i32, tile: u8) -> bool {
        !self.favours.is_empty()
            && player >= 0
            && (player as usize) < self.favours.len()
            && self.favours[player as usize].contains(&tile)
    }
    #[inline]
    pub fn current_player(&self) -> usize {
        match self.pending.last() {
            Some(d) => d.player(),
            None => self.active,
        }
    }
    #[inline]
    pub fn is_over(&self) -> bool {
        self.end_reason.is_some()
    }
}

/// Two players: the neutral colour's start routes (sorted).
pub fn neutral_start_routes(b: &Board) -> Vec<usize> {
    let mut cities: Vec<usize> = (0..b.n_cities)
        .filter(|c| !b.city_abilities[*c].is_empty())
        .collect();
    cities.push(b.special_city);
    let mut routes: Vec<usize> = cities
        .iter()
        .flat_map(|c| b.city_routes[*c].iter().copied())
        .chain(b.tavern_routes.iter().copied())
        .collect();
    routes.sort_unstable();
    routes.dedup();
    routes
}

/// Set up a game (`new_game`): the same draws as Python from `Rng(seed)`.
pub fn new_game(config: &Config) -> Result<State, String> {
    covered(config)?;
    let b = board(&config.side, config.east_alternative).ok_or("unknown board side")?;
    let n = config.n_players;
    let mut rng = Rng::new(config.seed);
    let (counts, start) = config.markers();
    // the start markers, and an empty place (-1) for each tavern without one
    let mut slots: Vec<i8> = start.iter().map(|m| *m as i8).collect();
    slots.resize(b.tavern_routes.len(), -1);
    rng.shuffle(&mut slots);
    let mut route_marker = vec![-1i8; b.n_routes];
    for (r, m) in b.tavern_routes.iter().zip(slots.iter()) {
        route_marker[*r] = *m;
    }
    // the bag is filled in MARKER_KINDS order, as in Python, before its shuffle
    let mut bag: Vec<u8> = Vec::new();
    for (k, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            bag.push(k as u8);
        }
    }
    for m in &start {
        if let Some(i) = bag.iter().position(|x| x == m) {
            bag.remove(i);
        }
    }
    rng.shuffle(&mut bag);
    let supply_t: Vec<i32> = (0..n).map(|k| config.start_supply_of(k)).collect();
    // 27 traders = 15 on the player board + 1 prestige marker + supply + stock
    let stock_t: Vec<i32> = supply_t.iter().map(|t| 27 - 16 - t).collect();
    // 4 merchants = 3 on the Liber Sophiae + supply + stock
    let merchants = config.tuning.start_merchants;
    let special_points = match config.special_points {
        Some(sp) => sp.to_vec(),
        None => b.special_spaces.iter().map(|(p, _)| *p).collect(),
    };
    let mut posts = vec![EMPTY; b.n_posts];
    let mut neutral_pool = -1;
    if config.has_neutral() {
        let routes = neutral_start_routes(b);
        for r in &routes {
            if let Some(i) = b.route_posts(*r).find(|i| !b.post_merchant_only[*i]) {
                posts[i] = (2 * n) as i8;
            }
        }
        neutral_pool = NEUTRAL_TRADERS - routes.len() as i32;
    }
    let mut display = Vec::new();
    let mut favours = Vec::new();
    if config.emperor {
        let mut tiles: Vec<u8> = (0..FAVOUR_TILES.len() as u8).collect();
        rng.shuffle(&mut tiles);
        display = tiles[..n].to_vec();
        display.sort_unstable();
        favours = vec![Vec::new(); n];
    }
    Ok(State {
        config: Arc::new(config.clone()),
        board: b,
        posts,
        offices: vec![EMPTY; b.n_offices],
        extras: vec![Vec::new(); b.n_cities],
        supply_t,
        supply_m: vec![merchants; n],
        stock_t,
        stock_m: vec![1 - merchants; n],
        prestige: vec![0; n],
        levels: vec![[0; 5]; n],
        markers: vec![Vec::new(); n],
        markers_used: vec![Vec::new(); n],
        route_marker,
        bag,
        drawn: Vec::new(),
        special: vec![EMPTY; b.special_spaces.len()],
        special_points,
        east_west: Vec::new(),
        discarded: Vec::new(),
        permits_used: Vec::new(),
        neutral_pool,
        favour_display: display,
        favours,
        turn_start: 0,
        active: 0,
        actions_left: config.tuning.actions[0],
        round: 1,
        turn: 1,
        n_actions: 0,
        completed: 0,
        pending: Vec::new(),
        end_reason: None,
        end_after_action: None,
        events: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(tuning: Tuning) -> Config {
        Config {
            n_players: 3,
            side: "base_3p".into(),
            edition: 0,
            seed: 3,
            special_points: None,
            prestige_to_end: VOCABULARY.option_int("prestige_to_end"),
            emperor: false,
            east_alternative: false,
            tuning: Arc::new(tuning),
        }
    }

    #[test]
    fn default_tuning_is_the_printed_game() {
        let t = Tuning::default();
        assert_eq!(t.actions, [2, 3, 3, 4, 4, 5]);
        assert_eq!(t.bank, [Some(3), Some(5), Some(7), None]);
        assert_eq!(t.keys, [1, 2, 2, 3, 4]);
        let markers: Vec<i32> = (0..12).map(|n| t.marker_points(n)).collect();
        assert_eq!(markers, [0, 1, 3, 3, 6, 6, 10, 10, 15, 15, 21, 21]);
        assert_eq!(t.region_points.as_slice(), &[7, 4, 2]);
        assert_eq!(t.start_supply, [5, 6, 7, 8, 9]);
        assert_eq!(t.marker_set, marker_set(0).0);
        assert_eq!(
            Tuning::printed(1).start_markers,
            [MK_EXTRA, MK_SWAP, MK_REMOVE3]
        );
    }

    #[test]
    fn marker_points_option_repeats_its_last_entry() {
        let mut t = Tuning::default();
        t.set_marker_points(&[2, 5]);
        assert_eq!((t.marker_points(0), t.marker_points(1)), (0, 2));
        assert_eq!((t.marker_points(2), t.marker_points(40)), (5, 5));
        assert!(Points::new(&[1; 6]).is_none());
    }

    #[test]
    fn start_markers_supply_and_merchants_follow_the_options() {
        let mut t = Tuning {
            n_start_markers: 1,
            start_merchants: 0,
            start_supply: [8, 0, 3, 0, 0],
            ..Tuning::default()
        };
        let s = new_game(&config(t)).unwrap();
        let placed: Vec<i8> = s.route_marker.iter().copied().filter(|m| *m >= 0).collect();
        assert_eq!(placed, vec![MK_EXTRA as i8]);
        assert_eq!(s.bag.len(), 14);
        assert_eq!(
            (s.supply_t.clone(), s.stock_t.clone()),
            (vec![8, 0, 3], vec![3, 11, 8])
        );
        assert_eq!(
            (s.supply_m.clone(), s.stock_m.clone()),
            (vec![0; 3], vec![1; 3])
        );
        t.marker_set = [0, 1, 0, 0, 0, 0, 0];
        assert!(covered(&config(t)).is_err()); // the start marker "extra" is missing
    }
}
