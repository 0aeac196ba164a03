//! Control, networks and final scoring (twin of `hansa_lab/engine/scoring.py`).

use crate::board::{A_KEYS, PLAYER_BOARD};
use crate::state::{State, EMPTY, F_ABILITIES_7, F_CONTROL_4};

pub const CATEGORIES: [&str; 7] = [
    "track",
    "abilities",
    "markers",
    "special",
    "control",
    "network",
    "regions",
];

/// Points for `n` collected markers with the printed score table.
pub fn marker_points(n: usize) -> i32 {
    let t = &PLAYER_BOARD.marker_points;
    t[n.min(t.len() - 1)]
}

/// The colour controlling city `c` (-1 if nobody has a Kontor there): most Kontors, a tie
/// going to the tied colour owning the rightmost Kontor.
pub fn city_controller(s: &State, c: usize) -> i32 {
    let b = s.board;
    let offices = &s.offices[b.city_offices(c)];
    let extras = &s.extras[c];
    let mut counts = [0i32; 6];
    for &o in extras.iter().chain(offices.iter()) {
        if o != EMPTY {
            counts[(o >> 1) as usize] += 1;
        }
    }
    let (mut best, mut best_n, mut tied) = (-1i32, 0, false);
    for (p, &k) in counts.iter().enumerate().take(s.n_colours()) {
        if k > best_n {
            best = p as i32;
            best_n = k;
            tied = false;
        } else if k > 0 && k == best_n {
            tied = true;
        }
    }
    if !tied {
        return best;
    }
    for &o in extras.iter().chain(offices.iter()).rev() {
        if o != EMPTY && counts[(o >> 1) as usize] == best_n {
            return (o >> 1) as i32;
        }
    }
    -1
}

/// Kontors (printed and extra) of the player per city.
fn kontors_by_city(s: &State, player: usize, out: &mut [i32]) {
    let b = s.board;
    out.iter_mut().for_each(|x| *x = 0);
    for (i, &o) in s.offices.iter().enumerate() {
        if o != EMPTY && (o >> 1) as usize == player {
            out[b.office_city[i]] += 1;
        }
    }
    for (c, ex) in s.extras.iter().enumerate() {
        for &o in ex {
            if (o >> 1) as usize == player {
                out[c] += 1;
            }
        }
    }
}

pub fn largest_network(s: &State, player: usize) -> i32 {
    let n = s.board.n_cities;
    if n > NETWORK_CITIES {
        return network_search(
            s,
            player,
            &mut vec![0; n],
            &mut vec![false; n],
            &mut vec![0; n],
        );
    }
    let mut kc = [0i32; NETWORK_CITIES];
    let mut seen = [false; NETWORK_CITIES];
    let mut stack = [0usize; NETWORK_CITIES];
    network_search(s, player, &mut kc[..n], &mut seen[..n], &mut stack[..n])
}

/// Cities a board may have for `largest_network`'s buffers to live on the stack (every
/// shipped board has far fewer; a larger one takes the heap).
const NETWORK_CITIES: usize = 64;

/// `largest_network` on buffers of one slot per city: Kontors per city, cities reached,
/// and the search's stack (each city is pushed at most once).
fn network_search(
    s: &State,
    player: usize,
    kc: &mut [i32],
    seen: &mut [bool],
    stack: &mut [usize],
) -> i32 {
    kontors_by_city(s, player, kc);
    let nbrs = &s.board.city_neighbours;
    let mut best = 0;
    for start in 0..kc.len() {
        if kc[start] == 0 || seen[start] {
            continue;
        }
        seen[start] = true;
        stack[0] = start;
        let mut depth = 1;
        let mut total = 0;
        while depth > 0 {
            depth -= 1;
            let c = stack[depth];
            total += kc[c];
            for &d in &nbrs[c] {
                if kc[d] > 0 && !seen[d] {
                    seen[d] = true;
                    stack[depth] = d;
                    depth += 1;
                }
            }
        }
        best = best.max(total);
    }
    best
}

pub fn connects(s: &State, player: usize, a: usize, z: usize) -> bool {
    let n = s.board.n_cities;
    let mut kc = vec![0i32; n];
    kontors_by_city(s, player, &mut kc);
    if kc[a] == 0 || kc[z] == 0 {
        return false;
    }
    let nbrs = &s.board.city_neighbours;
    let mut seen = vec![false; n];
    seen[a] = true;
    let mut stack = vec![a];
    while let Some(c) = stack.pop() {
        if c == z {
            return true;
        }
        for &d in &nbrs[c] {
            if kc[d] > 0 && !seen[d] {
                seen[d] = true;
                stack.push(d);
            }
        }
    }
    false
}

/// Final score by category (CATEGORIES order) per player, as if the game ended now.
pub fn score_rows(s: &State) -> Vec<[i32; 7]> {
    let n = s.n_players();
    let b = s.board;
    let controllers: Vec<i32> = (0..b.n_cities).map(|c| city_controller(s, c)).collect();
    let mut special = vec![0i32; n];
    for (&occ, &pts) in s.special.iter().zip(s.special_points.iter()) {
        if occ != EMPTY {
            special[(occ >> 1) as usize] += pts;
        }
    }
    let regions = if b.has_regions {
        region_points(s, &controllers)
    } else {
        vec![0; n]
    };
    let tm = PLAYER_BOARD.track_max;
    let t = &s.config.tuning;
    (0..n)
        .map(|p| {
            let lv = s.levels[p];
            let full = (0..4).filter(|&a| lv[a] >= tm[a]).count() as i32;
            let fav: &[u8] = if s.favours.is_empty() {
                &[]
            } else {
                &s.favours[p]
            };
            let controlled = controllers.iter().filter(|&&c| c == p as i32).count() as i32;
            [
                s.prestige[p],
                (t.ability_points
                    + t.favour_abilities_bonus * i32::from(fav.contains(&F_ABILITIES_7)))
                    * full,
                t.marker_points(s.markers[p].len() + s.markers_used[p].len()),
                special[p],
                (t.control_points + t.favour_control_bonus * i32::from(fav.contains(&F_CONTROL_4)))
                    * controlled,
                largest_network(s, p) * t.keys[lv[A_KEYS] as usize],
                regions[p],
            ]
        })
        .collect()
}

/// Final regional majorities per player (Britannia): players ranked by cities controlled
/// in the region, then Kontors there; places pay 7 / 4 / 2, ties share (rounded down).
pub fn region_points(s: &State, controllers: &[i32]) -> Vec<i32> {
    let n = s.n_players();
    let b = s.board;
    let mut out = vec![0; n];
    let places = s.config.tuning.region_points;
    let places = places.as_slice();
    for cities in &b.country_cities[1..] {
        let mut ranked: Vec<((i32, i32), usize)> = Vec::new();
        for p in 0..n {
            let kontors: i32 = cities
                .iter()
                .map(|&c| {
                    s.extras[c]
                        .iter()
                        .chain(s.offices[b.city_offices(c)].iter())
                        .filter(|&&o| o != EMPTY && (o >> 1) as usize == p)
                        .count() as i32
                })
                .sum();
            if kontors > 0 {
                let controlled = cities
                    .iter()
                    .filter(|&&c| controllers[c] == p as i32)
                    .count();
                ranked.push(((controlled as i32, kontors), p));
            }
        }
        ranked.sort_unstable_by(|x, y| y.cmp(x));
        let mut place = 0;
        while place < ranked.len() {
            let key = ranked[place].0;
            let group: Vec<usize> = ranked[place..]
                .iter()
                .filter(|(k, _)| *k == key)
                .map(|(_, p)| *p)
                .collect();
            let end = (place + group.len()).min(places.len());
            let total: i32 = if place < end {
                places[place..end].iter().sum()
            } else {
                0
            };
            let share = total / group.len() as i32;
            for p in &group {
                out[*p] += share;
            }
            place += group.len();
        }
    }
    out
}

/// Rank of every player (1 = winner): total, fewer Actions developments, network.
pub fn ranking(s: &State, rows: &[[i32; 7]]) -> Vec<i32> {
    let keys: Vec<(i32, i32, i32)> = rows
        .iter()
        .enumerate()
        .map(|(p, r)| (r.iter().sum(), -(s.levels[p][0] as i32), r[5]))
        .collect();
    keys.iter()
        .map(|mine| 1 + keys.iter().filter(|k| *k > mine).count() as i32)
        .collect()
}
