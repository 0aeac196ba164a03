//! Position features for a learned evaluation: a fixed, named list of numbers describing
//! a position from one seat's point of view (`FEATURE_NAMES`, exported to Python as
//! `hansa_lab._core.FEATURE_NAMES`; documented in `docs/guides/learned_players.md`).
//!
//! The vector is three parts: the seat's own block (`own_*`, `SEAT_FEATURES`), the
//! strongest rival's block (`rival_*`: each feature's maximum over the other seats, so
//! the size does not depend on the player count) and the table (`GLOBAL_FEATURES`).
//! Everything `greedy`'s evaluation reads is here (scores by category, supply, stock,
//! ability values, route progress and the plan terms), plus tracks, Kontors and control
//! margins per city aggregated to counts, presence per route aggregated to counts, bonus
//! markers, special-prestige spaces, East–West, and how close each end condition is.

use crate::board::{A_ACTIONS, A_BANK, A_KEYS, PLAYER_BOARD};
use crate::scoring::{city_controller, largest_network, score_rows};
use crate::state::{State, EMPTY};

use super::evaluation::{
    coellen_plan_with, control_plan_with, rewarding_cities, route_progress_with, track_plan_with,
    PlanCache, RouteCounts, ABILITY_VALUE,
};

/// The features of one seat, in order (each appears as `own_NAME` and `rival_NAME`).
pub const SEAT_FEATURES: [&str; 47] = [
    // final score by category if the game ended now (`score_rows`), and its total
    "score_track",
    "score_abilities",
    "score_markers",
    "score_special",
    "score_control",
    "score_network",
    "score_regions",
    "score_total",
    // ability levels (developments taken) and what they are worth
    "lv_actions",
    "lv_bank",
    "lv_book",
    "lv_privilege",
    "lv_keys",
    "actions_per_turn",
    "ability_value",
    "abilities_full",
    // pieces
    "supply_traders",
    "supply_merchants",
    "stock_traders",
    "stock_merchants",
    "pieces_on_routes",
    // greedy's evaluation terms
    "route_progress",
    "plan_actions",
    "plan_bank",
    "plan_keys",
    "plan_coellen",
    "plan_control",
    // Kontors and control, aggregated over cities
    "network",
    "kontors",
    "kontor_cities",
    "cities_controlled",
    "ability_cities_controlled",
    "cities_lead_by_1",
    "cities_lead_by_2_plus",
    "cities_behind_by_1",
    "control_margin_sum",
    // presence per route, aggregated over routes
    "routes_present",
    "routes_full",
    "routes_open",
    "routes_contested",
    "routes_to_ability_cities",
    // bonus markers, special prestige, East-West, turn order
    "markers_held",
    "markers_used",
    "special_spaces",
    "east_west",
    "is_active",
    "seats_until_turn",
];

/// The features of the table, after the two seat blocks.
pub const GLOBAL_FEATURES: [&str; 9] = [
    "round",
    "actions_left",
    "prestige_end_progress",
    "cities_end_progress",
    "markers_in_bag",
    "markers_on_board",
    "special_spaces_free",
    "cities_completed",
    "n_players",
];

/// The number of features of a seat's vector.
pub const N_FEATURES: usize = 2 * SEAT_FEATURES.len() + GLOBAL_FEATURES.len();

/// Every feature name, in vector order.
pub fn feature_names() -> Vec<String> {
    let mut names = Vec::with_capacity(N_FEATURES);
    names.extend(SEAT_FEATURES.iter().map(|n| format!("own_{n}")));
    names.extend(SEAT_FEATURES.iter().map(|n| format!("rival_{n}")));
    names.extend(GLOBAL_FEATURES.iter().map(|n| n.to_string()));
    names
}

/// The seat blocks of every seat (`SEAT_FEATURES` order), one per seat.
pub fn seat_blocks(s: &State) -> Vec<[f64; SEAT_FEATURES.len()]> {
    seat_blocks_with(s, &mut FeatureMemo::default())
}

/// What the Kontor part of the features reads (the score inputs): positions that differ
/// only in pieces on routes, in supply and stock, or in whose turn it is share it.
#[derive(Clone, Debug, Default, PartialEq)]
struct KontorKey {
    offices: Vec<i8>,
    extras: Vec<Vec<i8>>,
    levels: Vec<[u8; 5]>,
    prestige: Vec<i32>,
    markers: Vec<Vec<u8>>,
    markers_used: Vec<Vec<u8>>,
    special: Vec<i8>,
    special_points: Vec<i32>,
    east_west: Vec<u8>,
    favours: Vec<Vec<u8>>,
}

/// `a == b` for rows of small integers, element by element: the rows are short and
/// mostly empty (a city's extra Kontors, a seat's markers), and `==` on them calls the
/// library's `memcmp` once per row, which took a third of an all-`learned` game's time.
fn rows_equal<T: PartialEq>(a: &[Vec<T>], b: &[Vec<T>]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p == q))
}

impl KontorKey {
    fn matches(&self, s: &State) -> bool {
        self.offices == s.offices
            && self.prestige == s.prestige
            && self.levels == s.levels
            && self.special == s.special
            && rows_equal(&self.extras, &s.extras)
            && rows_equal(&self.markers, &s.markers)
            && rows_equal(&self.markers_used, &s.markers_used)
            && self.special_points == s.special_points
            && self.east_west == s.east_west
            && rows_equal(&self.favours, &s.favours)
    }

    fn set(&mut self, s: &State) {
        self.offices.clone_from(&s.offices);
        self.extras.clone_from(&s.extras);
        self.levels.clone_from(&s.levels);
        self.prestige.clone_from(&s.prestige);
        self.markers.clone_from(&s.markers);
        self.markers_used.clone_from(&s.markers_used);
        self.special.clone_from(&s.special);
        self.special_points.clone_from(&s.special_points);
        self.east_west.clone_from(&s.east_west);
        self.favours.clone_from(&s.favours);
    }
}

/// The Kontor part of one seat's block (the features that read only the score inputs),
/// its largest network and the Kontor part of the control plan.
#[derive(Clone, Debug)]
struct KontorPart {
    f: [f64; SEAT_FEATURES.len()],
    network: i32,
    control: f64,
}

/// The Kontor parts of the last position seen: the candidates of one decision mostly move
/// pieces on routes, so they are computed once per decision, not once per candidate.
#[derive(Clone, Debug, Default)]
pub struct FeatureMemo {
    valid: bool,
    key: KontorKey,
    parts: Vec<KontorPart>,
}

fn kontor_parts(s: &State) -> Vec<KontorPart> {
    let b = s.board;
    let n = s.n_players();
    let rows = score_rows(s);
    let controllers: Vec<i32> = (0..b.n_cities).map(|c| city_controller(s, c)).collect();
    // Kontors per city and colour
    let mut kontors = vec![[0i32; 6]; b.n_cities];
    for (i, &o) in s.offices.iter().enumerate() {
        if o != EMPTY {
            kontors[b.office_city[i]][(o >> 1) as usize] += 1;
        }
    }
    for (c, ex) in s.extras.iter().enumerate() {
        for &o in ex {
            if o != EMPTY {
                kontors[c][(o >> 1) as usize] += 1;
            }
        }
    }
    let tm = PLAYER_BOARD.track_max;
    let actions = &s.config.tuning.actions;
    (0..n)
        .map(|p| {
            let network = largest_network(s, p);
            let mut f = [0.0f64; SEAT_FEATURES.len()];
            let row = &rows[p];
            for (k, &v) in row.iter().enumerate() {
                f[k] = v as f64;
            }
            f[7] = row.iter().sum::<i32>() as f64;
            let lv = s.levels[p];
            for a in 0..5 {
                f[8 + a] = lv[a] as f64;
            }
            f[13] = actions[lv[A_ACTIONS] as usize] as f64;
            f[14] = (0..5)
                .map(|a| ABILITY_VALUE[a][lv[a] as usize])
                .sum::<i32>() as f64;
            f[15] = (0..5).filter(|&a| lv[a] >= tm[a]).count() as f64;
            f[27] = network as f64;
            let (mut total, mut cities, mut lead1, mut lead2, mut behind1) = (0, 0, 0, 0, 0);
            let mut margin_sum = 0;
            let mut control = 0.0;
            for c in 0..b.n_cities {
                let k = kontors[c][p];
                let ability_city = !b.city_abilities[c].is_empty();
                if ability_city {
                    // the Kontor part of greedy's control plan (`control_plan`)
                    control += 0.5 * k as f64;
                    if controllers[c] == p as i32 {
                        control += 2.0;
                    }
                }
                total += k;
                if k == 0 {
                    continue;
                }
                cities += 1;
                let best_other = (0..s.n_colours())
                    .filter(|&q| q != p)
                    .map(|q| kontors[c][q])
                    .max()
                    .unwrap_or(0);
                let margin = k - best_other;
                margin_sum += margin;
                if controllers[c] == p as i32 {
                    if margin <= 1 {
                        lead1 += 1;
                    } else {
                        lead2 += 1;
                    }
                } else if margin >= -1 {
                    behind1 += 1;
                }
            }
            f[28] = total as f64;
            f[29] = cities as f64;
            f[30] = controllers.iter().filter(|&&c| c == p as i32).count() as f64;
            f[31] = (0..b.n_cities)
                .filter(|&c| controllers[c] == p as i32 && !b.city_abilities[c].is_empty())
                .count() as f64;
            f[32] = lead1 as f64;
            f[33] = lead2 as f64;
            f[34] = behind1 as f64;
            f[35] = margin_sum as f64;
            f[41] = s.markers[p].len() as f64;
            f[42] = s.markers_used[p].len() as f64;
            f[43] = s
                .special
                .iter()
                .filter(|&&o| o != EMPTY && (o >> 1) as usize == p)
                .count() as f64;
            f[44] = f64::from(u8::from(s.east_west.contains(&(p as u8))));
            KontorPart {
                f,
                network,
                control,
            }
        })
        .collect()
}

/// `seat_blocks`, with the Kontor part taken from `memo` when the position has the same
/// score inputs as the last one it saw.
pub fn seat_blocks_with(s: &State, memo: &mut FeatureMemo) -> Vec<[f64; SEAT_FEATURES.len()]> {
    if !(memo.valid && memo.key.matches(s)) {
        memo.key.set(s);
        memo.parts = kontor_parts(s);
        memo.valid = true;
    }
    let b = s.board;
    let n = s.n_players();
    let mut counts = RouteCounts::default();
    let mut rewarding = Vec::with_capacity(b.n_cities);
    (0..n)
        .map(|p| {
            let part = &memo.parts[p];
            counts.count(s, p);
            let mut cache = PlanCache {
                network: Some(part.network),
                control: Some(part.control),
            };
            let mut f = part.f;
            f[16] = s.supply_t[p] as f64;
            f[17] = s.supply_m[p] as f64;
            f[18] = s.stock_t[p] as f64;
            f[19] = s.stock_m[p] as f64;
            f[20] = counts.own[..b.n_routes].iter().map(|&k| k as f64).sum();
            f[21] = route_progress_with(
                s,
                &counts,
                &mut |out: &mut Vec<bool>| rewarding_cities(s, p, out),
                &mut rewarding,
            );
            f[22] = track_plan_with(s, p, A_ACTIONS, &counts, &mut cache);
            f[23] = track_plan_with(s, p, A_BANK, &counts, &mut cache);
            f[24] = track_plan_with(s, p, A_KEYS, &counts, &mut cache);
            f[25] = coellen_plan_with(s, p, &counts);
            f[26] = control_plan_with(s, p, &counts, &mut cache);
            let (mut present, mut full, mut open, mut contested, mut to_ability) = (0, 0, 0, 0, 0);
            for r in 0..b.n_routes {
                let mine = counts.own[r] as usize;
                if mine == 0 {
                    continue;
                }
                present += 1;
                let posts = b.route_n_posts[r];
                if mine == posts {
                    full += 1;
                } else if mine + counts.empty[r] as usize == posts {
                    open += 1;
                } else {
                    contested += 1;
                }
                let [x, y] = b.route_cities[r];
                if !b.city_abilities[x].is_empty() || !b.city_abilities[y].is_empty() {
                    to_ability += 1;
                }
            }
            f[36] = present as f64;
            f[37] = full as f64;
            f[38] = open as f64;
            f[39] = contested as f64;
            f[40] = to_ability as f64;
            f[45] = f64::from(u8::from(s.active == p));
            f[46] = ((p + n - s.active) % n) as f64;
            f
        })
        .collect()
}

/// The table's features (`GLOBAL_FEATURES` order).
pub fn global_features(s: &State) -> [f64; GLOBAL_FEATURES.len()] {
    let b = s.board;
    let cities_to_end = s
        .config
        .tuning
        .cities_to_end
        .unwrap_or(b.completed_cities_to_end)
        .max(1);
    let max_prestige = s.prestige.iter().copied().max().unwrap_or(0);
    [
        s.round as f64,
        if s.end_reason.is_none() {
            s.actions_left as f64
        } else {
            0.0
        },
        max_prestige as f64 / s.config.prestige_to_end.max(1) as f64,
        s.completed as f64 / cities_to_end as f64,
        s.bag.len() as f64,
        s.route_marker.iter().filter(|&&m| m >= 0).count() as f64,
        s.special.iter().filter(|&&o| o == EMPTY).count() as f64,
        s.completed as f64,
        s.n_players() as f64,
    ]
}

/// The feature vector of `seat` from the seat blocks and the table's features.
pub fn assemble(
    blocks: &[[f64; SEAT_FEATURES.len()]],
    global: &[f64; GLOBAL_FEATURES.len()],
    seat: usize,
    out: &mut Vec<f64>,
) {
    out.clear();
    out.extend_from_slice(&blocks[seat]);
    for k in 0..SEAT_FEATURES.len() {
        let rival = (0..blocks.len())
            .filter(|&q| q != seat)
            .map(|q| blocks[q][k])
            .fold(f64::NEG_INFINITY, f64::max);
        out.push(if rival.is_finite() { rival } else { 0.0 });
    }
    out.extend_from_slice(global);
}

/// The feature vector of `seat` in `s` (`N_FEATURES` numbers, `feature_names` order).
pub fn features(s: &State, seat: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(N_FEATURES);
    assemble(&seat_blocks(s), &global_features(s), seat, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{new_game, Config};

    #[test]
    fn the_memo_gives_the_features_computed_afresh() {
        use crate::rng::Rng;
        use crate::rules::{apply_unchecked, legal};
        use crate::strategies::random_policy;
        let mut s = new_game(&Config::printed(4, "base_45p", 11)).unwrap();
        let mut rng = Rng::new(5);
        let mut memo = FeatureMemo::default();
        let mut n = 0;
        while !s.is_over() && n < 1500 {
            // every position, and every candidate after it, against the same memo
            let acts = legal(&s);
            for a in acts.iter().take(6) {
                let mut t = s.clone();
                apply_unchecked(&mut t, a);
                assert_eq!(seat_blocks_with(&t, &mut memo), seat_blocks(&t));
            }
            assert_eq!(seat_blocks_with(&s, &mut memo), seat_blocks(&s));
            let a = random_policy::choose(&s, &acts, &mut rng);
            apply_unchecked(&mut s, &a);
            n += 1;
        }
        assert!(n > 100);
    }

    #[test]
    fn names_are_unique_and_match_the_vector() {
        let names = feature_names();
        assert_eq!(names.len(), N_FEATURES);
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        let s = new_game(&Config::printed(4, "base_45p", 3)).unwrap();
        let f = features(&s, 2);
        assert_eq!(f.len(), N_FEATURES);
        assert!(f.iter().all(|x| x.is_finite()));
        // at the start seat 2 moves after seats 0 and 1, and has the third start supply
        assert_eq!(f[46], 2.0);
        assert_eq!(f[45], 0.0);
    }
}

/// The sampled positions of one self-play game: per sample its round and every seat's
/// feature vector (seat order), then the final totals and ranks.
#[derive(Clone, Debug, Default)]
pub struct GameSamples {
    pub rounds: Vec<i32>,
    /// `rounds.len() × n_players` vectors of `N_FEATURES`, flattened
    pub features: Vec<f64>,
    pub totals: Vec<i32>,
    /// each seat's final rank (`ranking`: 1 is first, tied seats share a rank)
    pub ranks: Vec<i32>,
    pub actions: usize,
    pub ended: bool,
}

/// Play one game with `seats` (streams `Rng::seat_stream(config.seed, p)`, so the same
/// game as `play::play`) and sample positions: each decision point is kept with
/// probability `rate`, drawn from a stream of its own (the game does not change).
pub fn sample_game(
    config: &crate::state::Config,
    seats: &[super::Policy],
    rate: f64,
    max_actions: usize,
) -> Result<GameSamples, String> {
    use crate::rng::{mix64, Rng};
    use crate::rules::{apply_unchecked, legal_actions};
    let mut s = crate::state::new_game(config)?;
    let n = s.n_players();
    if seats.len() != n {
        return Err(format!("{} strategies for {n} seats", seats.len()));
    }
    let mut rngs: Vec<Rng> = (0..n as u64)
        .map(|p| Rng::seat_stream(config.seed, p))
        .collect();
    let mut pick = Rng::new(mix64(config.seed ^ 0x5eed_fea7));
    let mut out = GameSamples::default();
    let mut legal = Vec::with_capacity(256);
    let mut row = Vec::with_capacity(N_FEATURES);
    while !s.is_over() && out.actions < max_actions {
        legal_actions(&s, &mut legal);
        if legal.is_empty() {
            return Err("no legal action in a running game".into());
        }
        if pick.random() < rate {
            let blocks = seat_blocks(&s);
            let global = global_features(&s);
            out.rounds.push(s.round);
            for p in 0..n {
                assemble(&blocks, &global, p, &mut row);
                out.features.extend_from_slice(&row);
            }
        }
        let p = s.current_player();
        let a = seats[p].choose(&s, &legal, &mut rngs[p]);
        apply_unchecked(&mut s, &a);
        out.actions += 1;
    }
    let rows = score_rows(&s);
    out.totals = rows.iter().map(|r| r.iter().sum()).collect();
    out.ranks = crate::scoring::ranking(&s, &rows);
    out.ended = s.is_over();
    Ok(out)
}
