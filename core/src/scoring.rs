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

#[cfg(test)]
mod tests {
    //! Final scoring as /work/shared/RULES.md states it ("End of game and final scoring",
    //! "Other boards and variants"), on positions built from a printed new game.
    use super::*;
    use crate::board::{A_ACTIONS, A_BANK, A_BOOK, MERCHANT, TRADER};
    use crate::state::{new_game, Config, F_ABILITIES_7, F_CONTROL_4};
    use crate::test_support::{city, game};

    /// Office `k` (from the left) of the city `name` to `player`'s `piece`.
    fn kontor(s: &mut State, name: &str, k: usize, player: i32, piece: i32) {
        let c = city(s, name);
        let i = s.board.office_start[c] + k;
        assert!(i < s.board.office_start[c + 1], "{name} has no office {k}");
        s.offices[i] = (player * 2 + piece) as i8;
    }

    fn row(s: &State, p: usize) -> [i32; 7] {
        score_rows(s)[p]
    }

    #[test]
    fn the_rules_worked_example_scores_82() {
        // "Check: seed 001's example — 18 track + 8 abilities + 10 markers (7 taken) + 9
        // Coellen + 10 (5 cities) + 27 (9 Kontors × keys 3) = 82."
        let mut s = game(3, "base_3p");
        s.prestige[0] = 18;
        // two abilities fully developed (Bank 3, Liber Sophiae 3), City Keys at 3
        s.levels[0] = [1, 3, 3, 0, 3];
        s.markers[0] = vec![0, 1, 5];
        s.markers_used[0] = vec![0, 2, 4, 6];
        s.special[2] = MERCHANT as i8; // the pink Coellen space (9), player 0's merchant
        for (name, k) in [
            ("Hamburg", 0),
            ("Hamburg", 1),
            ("Hamburg", 2),
            ("Lubeck", 0),
            ("Lubeck", 1),
            ("Luneburg", 0),
            ("Stade", 0),
            ("Bremen", 0),
            ("Hannover", 0),
        ] {
            kontor(&mut s, name, k, 0, TRADER);
        }
        // Hannover 1-1: the rightmost Kontor's owner (player 1) controls it
        kontor(&mut s, "Hannover", 1, 1, TRADER);
        assert_eq!(row(&s, 0), [18, 8, 10, 9, 10, 27, 0]);
        assert_eq!(row(&s, 0).iter().sum::<i32>(), 82);
        assert_eq!(row(&s, 1), [0, 0, 0, 0, 2, 1, 0]);
    }

    #[test]
    fn control_is_most_kontors_then_the_rightmost_and_extras_count_lowest() {
        // "control: most Kontors; tie → the tied player owning the rightmost Kontor; extra
        // Kontors count, valued lowest" (A turn, Establish 1.)
        let mut s = game(3, "base_3p");
        let hannover = city(&s, "Hannover");
        assert_eq!(city_controller(&s, hannover), -1);
        kontor(&mut s, "Hannover", 0, 0, TRADER);
        assert_eq!(city_controller(&s, hannover), 0);
        kontor(&mut s, "Hannover", 1, 1, TRADER);
        assert_eq!(city_controller(&s, hannover), 1);
        // an extra Kontor sits left of all others: it breaks the tie by count
        s.extras[hannover].push(TRADER as i8); // player 0
        assert_eq!(city_controller(&s, hannover), 0);
        // 2-2: the rightmost Kontor (player 1's office) wins, never the extra
        s.extras[hannover].insert(0, (2 + TRADER) as i8); // player 1
        assert_eq!(city_controller(&s, hannover), 1);
        let c = &score_rows(&s);
        assert_eq!((c[0][4], c[1][4]), (0, 2));
    }

    #[test]
    fn the_network_is_the_largest_connected_group_and_counts_every_kontor() {
        // "Kontors in the largest connected network of cities holding own Kontors (several
        // Kontors in a city all count; one network only) × highest uncovered City Keys"
        let mut s = game(3, "base_3p");
        // Hamburg (2) – Lubeck (1): one network of 3
        kontor(&mut s, "Hamburg", 0, 0, TRADER);
        kontor(&mut s, "Hamburg", 1, 0, TRADER);
        kontor(&mut s, "Lubeck", 0, 0, TRADER);
        // Arnheim – Duisburg, cut off from Hamburg: 2
        kontor(&mut s, "Arnheim", 0, 0, TRADER);
        kontor(&mut s, "Duisburg", 0, 0, TRADER);
        assert_eq!(largest_network(&s, 0), 3);
        assert_eq!(row(&s, 0)[5], 3); // City Keys 1 at the start
                                      // an extra Kontor in Duisburg and one in Dortmund (a neighbour): 4 beat 3
        let duisburg = city(&s, "Duisburg");
        s.extras[duisburg].push(TRADER as i8);
        kontor(&mut s, "Dortmund", 0, 0, MERCHANT);
        assert_eq!(largest_network(&s, 0), 4);
        for (level, value) in [(0, 1), (1, 2), (2, 2), (3, 3), (4, 4)] {
            s.levels[0][A_KEYS] = level;
            assert_eq!(row(&s, 0)[5], 4 * value, "keys level {level}");
        }
        // a city between two others links them only with a Kontor of one's own
        assert!(!connects(&s, 0, city(&s, "Hamburg"), city(&s, "Arnheim")));
        assert!(connects(&s, 0, city(&s, "Arnheim"), city(&s, "Dortmund")));
    }

    #[test]
    fn markers_score_by_the_printed_table_used_or_not() {
        // "bonus markers taken (1→1, 2–3→3, 4–5→6, 6–7→10, 8–9→15, 10+→21)"
        let want = [0, 1, 3, 3, 6, 6, 10, 10, 15, 15, 21, 21, 21];
        for (n, &points) in want.iter().enumerate() {
            assert_eq!(marker_points(n), points, "{n} markers");
        }
        let mut s = game(3, "base_3p");
        s.markers[1] = vec![0, 0];
        s.markers_used[1] = vec![1, 2, 3];
        assert_eq!(row(&s, 1)[2], 6);
        s.markers[1].clear();
        assert_eq!(row(&s, 1)[2], 3);
    }

    #[test]
    fn abilities_score_four_each_when_full_except_city_keys() {
        // "4 per fully developed ability except City Keys"
        let mut s = game(3, "base_3p");
        s.levels[2] = [5, 3, 3, 3, 4];
        assert_eq!(row(&s, 2)[1], 16);
        s.levels[2][A_ACTIONS] = 4;
        assert_eq!(row(&s, 2)[1], 12);
        s.levels[2][A_BANK] = 2;
        s.levels[2][A_BOOK] = 2;
        assert_eq!(row(&s, 2)[1], 4);
    }

    #[test]
    fn the_emperors_favour_tiles_raise_control_and_abilities() {
        // Emperor's Favour: "final scoring 4 (not 2) per controlled city; final scoring 7
        // (not 4) per fully developed ability"
        let mut c = Config::printed(3, "base_3p", 1);
        c.emperor = true;
        let mut s = new_game(&c).unwrap();
        kontor(&mut s, "Hamburg", 0, 0, TRADER);
        kontor(&mut s, "Bremen", 0, 0, TRADER);
        s.levels[0] = [5, 0, 3, 0, 0];
        assert_eq!((row(&s, 0)[1], row(&s, 0)[4]), (8, 4));
        s.favours[0] = vec![F_CONTROL_4];
        assert_eq!((row(&s, 0)[1], row(&s, 0)[4]), (8, 8));
        s.favours[0] = vec![F_CONTROL_4, F_ABILITIES_7];
        assert_eq!((row(&s, 0)[1], row(&s, 0)[4]), (14, 8));
        s.favours[1] = vec![F_CONTROL_4];
        assert_eq!(row(&s, 1)[4], 0);
    }

    #[test]
    fn britannia_regions_pay_seven_four_two_and_ties_share_rounded_down() {
        // Britannia: "at the end Wales (and Scotland) pay 7/4/2 by cities controlled there,
        // then Kontors there ... Ties that remain share the points of the tied places (sum,
        // divided equally, rounded down) ... a player with no Kontor in the region scores
        // nothing there."
        let mut s = game(3, "britannia_3p");
        let wales: Vec<usize> = ["Cardiff", "Conway", "Chester", "Pembroke"]
            .iter()
            .map(|n| city(&s, n))
            .collect();
        assert!(wales.iter().all(|c| s.board.country_cities[1].contains(c)));
        let none: Vec<i32> = vec![0; 3];
        assert_eq!(region_points(&s, &vec![-1; s.board.n_cities]), none);
        // player 0 controls Cardiff and Conway, player 1 Chester, player 2 has no Kontor
        kontor(&mut s, "Cardiff", 0, 0, TRADER);
        kontor(&mut s, "Conway", 0, 0, TRADER);
        kontor(&mut s, "Chester", 0, 1, TRADER);
        let regions = |s: &State| {
            let controllers: Vec<i32> = (0..s.board.n_cities)
                .map(|c| city_controller(s, c))
                .collect();
            region_points(s, &controllers)
        };
        assert_eq!(regions(&s), vec![7, 4, 0]);
        // player 2 also controls one city with one Kontor: 2nd and 3rd places shared, 3 each
        kontor(&mut s, "Pembroke", 0, 2, TRADER);
        assert_eq!(regions(&s), vec![7, 3, 3]);
        assert_eq!(row(&s, 2)[6], 3);
        // with a second Kontor (in a city player 0 controls) player 2 ranks above player 1
        kontor(&mut s, "Cardiff", 1, 2, TRADER);
        kontor(&mut s, "Cardiff", 2, 0, TRADER);
        assert_eq!(regions(&s), vec![7, 2, 4]);
    }

    #[test]
    fn ties_go_to_fewer_actions_developments_then_the_network() {
        // "Ties: fewest Actions developments wins, then most network points, then the
        // victory is shared."
        let mut s = game(3, "base_3p");
        let even = [10, 0, 0, 0, 0, 4, 0];
        let rows = vec![even, even, even];
        assert_eq!(ranking(&s, &rows), vec![1, 1, 1]);
        s.levels[0][A_ACTIONS] = 1;
        assert_eq!(ranking(&s, &rows), vec![3, 1, 1]);
        // the same total with more network points
        let rows = vec![even, even, [9, 0, 0, 0, 0, 5, 0]];
        assert_eq!(ranking(&s, &rows), vec![3, 2, 1]);
        s.levels[0][A_ACTIONS] = 0;
        assert_eq!(ranking(&s, &rows), vec![2, 2, 1]);
        let rows = vec![[20, 0, 0, 0, 0, 0, 0], even, even];
        assert_eq!(ranking(&s, &rows), vec![1, 2, 2]);
    }
}
