//! Primitives shared by the rules (twin of `hansa_lab/engine/effects.py`).

use crate::board::{A_ACTIONS, A_BANK, A_BOOK, MERCHANT, TRADER};
use crate::events::*;
use crate::post_bits::PostBits;
use crate::scoring::{city_controller, connects};
use crate::state::{State, EMPTY, F_EXTRA_ACTION};

/// Tradesmen one Income action may take (`None` = all).
#[inline]
pub fn income_limit(s: &State, p: usize) -> Option<i32> {
    s.config.tuning.bank[s.levels[p][A_BANK] as usize]
}

/// Post a piece of kind `piece` would take on route `r` (-1 if none); a merchant prefers a
/// merchant-only post.
#[inline]
pub fn free_post(s: &State, r: usize, piece: i32) -> i32 {
    let b = s.board;
    let mut best = -1;
    for i in b.route_posts(r) {
        if s.posts[i] == EMPTY {
            if b.post_merchant_only[i] {
                if piece == MERCHANT {
                    return i as i32;
                }
            } else if best < 0 {
                best = i as i32;
            }
        }
    }
    best
}

/// Routes with a free post for a trader, and for a merchant.
pub fn free_routes(s: &State) -> (Vec<usize>, Vec<usize>) {
    let b = s.board;
    let mut for_t = Vec::with_capacity(b.n_routes);
    let mut for_m = Vec::with_capacity(b.n_routes);
    for r in 0..b.n_routes {
        let mut t = false;
        let mut m = false;
        for i in b.route_posts(r) {
            if s.posts[i] == EMPTY {
                m = true;
                if !b.post_merchant_only[i] {
                    t = true;
                }
            }
        }
        if t {
            for_t.push(r);
        }
        if m {
            for_m.push(r);
        }
    }
    (for_t, for_m)
}

#[inline]
pub fn first_vacant_office(s: &State, c: usize) -> i32 {
    for i in s.board.city_offices(c) {
        if s.offices[i] == EMPTY {
            return i as i32;
        }
    }
    -1
}

/// Whether a piece on route `src` may go to route `dst` (Britannia's countries): within
/// its country, or also to England unless `strict`.
#[inline]
pub fn may_go(s: &State, src: usize, dst: usize, strict: bool) -> bool {
    let c = &s.board.route_country;
    let (a, z) = (c[src], c[dst]);
    a == z || (!strict && z == 0)
}

/// `Action(kind, post, route)` for every piece on `pieces` (post indices) and every other
/// route with a free post for it; `strict` is the country rule (None: no rule).
pub fn shift_options(
    s: &State,
    pieces: impl IntoIterator<Item = usize>,
    kind: u8,
    strict: Option<bool>,
    acts: &mut Vec<crate::actions::Action>,
) {
    let (for_t, for_m) = free_route_masks(s);
    let rule = if s.board.has_regions { strict } else { None };
    for i in pieces {
        let mut dest = piece_destinations(s, i, for_t, for_m, rule);
        // every destination: one exact-size extend (no capacity check per action)
        acts.extend((0..dest.count_ones()).map(|_| {
            let r = dest.trailing_zeros() as i32;
            dest &= dest - 1;
            crate::actions::Action::k2(kind, i as i32, r)
        }));
    }
}

/// The routes (bits) the piece on post `i` may go to in [`shift_options`]: every other
/// route with a free post for it (`for_t`, `for_m`: [`free_route_masks`]), by the country
/// rule `rule` (None: no rule).
#[inline]
pub fn piece_destinations(s: &State, i: usize, for_t: u64, for_m: u64, rule: Option<bool>) -> u64 {
    let here = s.board.post_route[i];
    let dest = if s.posts[i] & 1 == 0 { for_t } else { for_m } & !(1u64 << here);
    let Some(strict) = rule else {
        return dest;
    };
    let (mut rest, mut kept) = (dest, 0u64);
    while rest != 0 {
        let r = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if may_go(s, here, r, strict) {
            kept |= 1 << r;
        }
    }
    kept
}

/// [`free_routes`] as bitmasks of routes (boards have at most 64 routes).
#[inline]
pub fn free_route_masks(s: &State) -> (u64, u64) {
    free_route_masks_from(s, &PostBits::new(&s.posts, 0))
}

/// [`free_route_masks`] given the position's [`PostBits`] (of any player).
#[inline]
pub fn free_route_masks_from(s: &State, bits: &PostBits) -> (u64, u64) {
    let b = s.board;
    let mo = &b.post_merchant_only;
    let (mut for_t, mut for_m) = (0u64, 0u64);
    for r in 0..b.n_routes {
        let (lo, hi) = (b.post_start[r], b.post_start[r + 1]);
        let free = bits.free_in(lo, hi - lo);
        if free != 0 {
            let bit = 1u64 << r;
            for_m |= bit;
            // a free post for a trader: any free post unless some are merchant-only
            if b.route_n_merchant_only[r] == 0
                || (lo..hi).any(|i| free >> (i - lo) & 1 == 1 && !mo[i])
            {
                for_t |= bit;
            }
        }
    }
    (for_t, for_m)
}

/// A colour's (traders, merchants) in the general stock (the neutral pool for the
/// neutral colour).
#[inline]
pub fn stock_of(s: &State, colour: i32) -> (i32, i32) {
    if colour == s.neutral() {
        (s.neutral_pool, 0)
    } else {
        (s.stock_t[colour as usize], s.stock_m[colour as usize])
    }
}

#[inline]
pub fn to_route(s: &mut State, r: usize, occupant: i8) {
    let i = free_post(s, r, (occupant & 1) as i32);
    if i >= 0 {
        s.posts[i as usize] = occupant;
    }
}

pub fn to_stock(s: &mut State, colour: i32, piece: i32, n: i32) {
    if colour == s.neutral() {
        s.neutral_pool += n;
    } else if piece == MERCHANT {
        s.stock_m[colour as usize] += n;
    } else {
        s.stock_t[colour as usize] += n;
    }
}

#[inline]
pub fn take_from_supply(s: &mut State, p: usize, k: i32) {
    if k == TRADER {
        s.supply_t[p] -= 1;
    } else {
        s.supply_m[p] -= 1;
    }
}

pub fn take_from_stock(s: &mut State, colour: i32, k: i32) {
    if colour == s.neutral() {
        s.neutral_pool -= 1;
    } else if k == TRADER {
        s.stock_t[colour as usize] -= 1;
    } else {
        s.stock_m[colour as usize] -= 1;
    }
}

/// From the general stock while it holds any tradesman, else from the personal supply.
pub fn take_loose(s: &mut State, colour: i32, k: i32) {
    let (t, m) = stock_of(s, colour);
    if t + m > 0 {
        take_from_stock(s, colour, k);
    } else {
        take_from_supply(s, colour as usize, k);
    }
}

/// Develop an ability; `city` is the ability city it came from (an establish reward), -1
/// for a development without one (a bonus marker, a printed permanent marker).
pub fn develop(s: &mut State, p: usize, ability: usize, city: i32) {
    let old = s.levels[p][ability] as usize;
    s.levels[p][ability] = (old + 1) as u8;
    if ability == A_BOOK {
        s.supply_m[p] += 1;
    } else {
        s.supply_t[p] += 1;
    }
    if ability == A_ACTIONS && p == s.active {
        let v = &s.config.tuning.actions;
        s.actions_left += v[old + 1] - v[old];
    }
    log(
        s,
        Event {
            city,
            ..Event::new(E_DEVELOP)
        }
        .seat(p as i32)
        .detail(Detail::Ability(ability as u8))
        .value(old as i32 + 1),
    );
}

#[inline]
pub fn log(s: &mut State, e: Event) {
    s.events.push(e);
}

#[inline]
pub fn score(s: &mut State, p: i32, points: i32, cause: u8) {
    if points != 0 && p >= 0 && (p as usize) < s.prestige.len() {
        s.prestige[p as usize] += points;
        log(
            s,
            Event::new(E_PRESTIGE)
                .seat(p)
                .value(points)
                .detail(Detail::Cause(cause)),
        );
    }
}

/// Establishing route `r`: each endpoint city's controller scores prestige (printed 1:
/// the option `control_prestige`).
pub fn score_control(s: &mut State, r: usize) {
    let points = s.config.tuning.control_prestige;
    for c in s.board.route_cities[r] {
        let ctrl = city_controller(s, c);
        if ctrl >= 0 {
            score(s, ctrl, points, C_CONTROL);
        }
    }
}

/// After a new Kontor of `p` in city `c`: the East-West connection.
pub fn kontor_placed(s: &mut State, p: i32, _c: usize) {
    let b = s.board;
    let n_ew = s.east_west.len();
    let points = match &s.config.tuning.east_west_points {
        Some(v) => v.as_slice(),
        None => b.east_west_points.as_slice(),
    };
    if p >= 0
        && (p as usize) < s.n_players()
        && !s.east_west.contains(&(p as u8))
        && n_ew < points.len()
    {
        let award = points[n_ew];
        let [a, z] = b.east_west;
        if connects(s, p as usize, a, z) {
            score(s, p, award, C_EAST_WEST);
            s.east_west.push(p as u8);
            log(s, Event::new(E_EAST_WEST).seat(p).value(n_ew as i32 + 1));
        }
    }
}

pub fn fill_office(s: &mut State, colour: i32, i: usize, piece: i32) {
    let b = s.board;
    let c = b.office_city[i];
    s.offices[i] = (colour * 2 + piece) as i8;
    log(
        s,
        Event::new(E_KONTOR)
            .seat(colour)
            .city(c)
            .value((i - b.office_start[c]) as i32),
    );
    score(s, colour, b.office_coin[i], C_COIN);
    if i == b.office_start[c + 1] - 1 {
        city_done(s, c);
    }
    kontor_placed(s, colour, c);
}

pub fn add_extra(s: &mut State, p: i32, c: usize, piece: i32, right: bool) {
    let was_empty = s.extras[c].is_empty();
    let o = (p * 2 + piece) as i8;
    if right {
        s.extras[c].push(o);
    } else {
        s.extras[c].insert(0, o);
    }
    let value = if right {
        -1
    } else {
        -(s.extras[c].len() as i32)
    };
    log(s, Event::new(E_KONTOR).seat(p).city(c).value(value));
    if was_empty && s.board.city_yellow_green[c] {
        city_done(s, c);
    }
    kontor_placed(s, p, c);
}

pub fn check_end(s: &mut State) {
    let limit = s.config.prestige_to_end;
    let reason = if s.prestige.iter().copied().max().unwrap_or(0) >= limit {
        Some(0)
    } else if s.end_after_action.is_some() {
        s.end_after_action
    } else if s.completed
        >= s.config
            .tuning
            .cities_to_end
            .unwrap_or(s.board.completed_cities_to_end)
    {
        Some(2)
    } else {
        None
    };
    if let Some(r) = reason {
        s.end_reason = reason;
        log(s, Event::new(E_GAME_END).detail(Detail::Reason(r)));
    }
}

pub fn city_done(s: &mut State, c: usize) {
    s.completed += 1;
    log(s, Event::new(E_CITY_COMPLETED).city(c));
}

pub fn next_player(s: &mut State) {
    s.active = (s.active + 1) % s.n_players();
    if s.active == 0 {
        s.round += 1;
    }
    s.turn += 1;
    s.actions_left = s.config.tuning.actions[s.levels[s.active][A_ACTIONS] as usize];
    if !s.favours.is_empty() && s.favours[s.active].contains(&F_EXTRA_ACTION) {
        s.actions_left += 1;
    }
    s.turn_start = s.n_actions;
    s.permits_used.clear();
}

#[cfg(test)]
mod tests {
    //! The primitives the rules are made of, each against its sentence of
    //! /work/shared/RULES.md, on positions built from a printed new game.
    use super::*;
    use crate::board::{A_KEYS, A_PRIVILEGE};
    use crate::state::{new_game, Config, F_EXTRA_ACTION};
    use crate::test_support::{city, game};

    fn office(s: &State, name: &str, k: usize) -> usize {
        s.board.office_start[city(s, name)] + k
    }

    #[test]
    fn developing_an_ability_moves_its_covering_piece_into_the_supply() {
        // "Developing an ability moves its leftmost covering piece into the personal
        // supply" — "3 merchants cover the book", traders cover the others.
        let mut s = game(3, "base_3p");
        let (t, m) = (s.supply_t[1], s.supply_m[1]);
        develop(&mut s, 1, A_BOOK, -1);
        assert_eq!((s.supply_t[1], s.supply_m[1]), (t, m + 1));
        assert_eq!(s.levels[1], [0, 0, 1, 0, 0]);
        for a in [A_ACTIONS, A_BANK, A_PRIVILEGE, A_KEYS] {
            develop(&mut s, 1, a, -1);
        }
        assert_eq!((s.supply_t[1], s.supply_m[1]), (t + 4, m + 1));
        assert_eq!(s.levels[1], [1, 1, 1, 1, 1]);
        assert_eq!(s.events.iter().filter(|e| e.kind == E_DEVELOP).count(), 5);
    }

    #[test]
    fn a_new_actions_value_applies_at_once_to_the_active_player() {
        // Develop: "new value applies at once; a new action is usable this turn"
        // (Actions 2,3,3,4,4,5)
        let mut s = game(3, "base_3p");
        assert_eq!((s.active, s.actions_left), (0, 2));
        develop(&mut s, 0, A_ACTIONS, -1); // 2 -> 3
        assert_eq!(s.actions_left, 3);
        develop(&mut s, 0, A_ACTIONS, -1); // 3 -> 3
        assert_eq!(s.actions_left, 3);
        develop(&mut s, 0, A_ACTIONS, -1); // 3 -> 4
        assert_eq!(s.actions_left, 4);
        // another player's development waits for their turn
        develop(&mut s, 2, A_ACTIONS, -1);
        assert_eq!(s.actions_left, 4);
    }

    #[test]
    fn income_takes_up_to_the_bank_value() {
        // "Income — move up to Bank value (3/5/7/all)"
        let mut s = game(3, "base_3p");
        let want = [Some(3), Some(5), Some(7), None];
        for (level, &limit) in want.iter().enumerate() {
            s.levels[0][A_BANK] = level as u8;
            assert_eq!(income_limit(&s, 0), limit, "Bank level {level}");
        }
    }

    #[test]
    fn a_coin_office_scores_and_the_last_office_completes_the_city() {
        // Kontor: "a coin office gives 1 prestige when first established; filling a city's
        // last office completes the city"
        let mut s = game(3, "base_3p");
        let lubeck = city(&s, "Lubeck");
        assert_eq!(s.board.office_coin[office(&s, "Lubeck", 0)], 1);
        let (first, second) = (office(&s, "Lubeck", 0), office(&s, "Lubeck", 1));
        fill_office(&mut s, 1, first, TRADER);
        assert_eq!((s.prestige[1], s.completed), (1, 0));
        assert_eq!(first_vacant_office(&s, lubeck), second as i32);
        fill_office(&mut s, 2, second, TRADER);
        assert_eq!((s.prestige[2], s.completed), (0, 1));
        assert_eq!(first_vacant_office(&s, lubeck), -1);
        assert!(s.events.iter().any(|e| e.kind == E_CITY_COMPLETED));
    }

    #[test]
    fn the_east_west_connection_pays_seven_four_two() {
        // "when a new Kontor links the two marked cities (Stendal and Arnheim on the base
        // board) through a chain of cities each holding one of your Kontors, score 7 / 4 /
        // 2 for the first / second / third player to do so"
        let mut s = game(4, "base_45p");
        // Stendal - Brunswick - Minden - Munster - Arnheim: an extra Kontor of every
        // player in each city but Stendal (extras count for the network)
        for name in ["Brunswick", "Minden", "Munster", "Arnheim"] {
            let c = city(&s, name);
            s.extras[c] = (0..4).map(|p| (p * 2) as i8).collect();
        }
        let stendal = city(&s, "Stendal");
        let mut points = Vec::new();
        for p in 0..4i32 {
            let before = s.prestige[p as usize];
            let i = s.board.office_start[stendal] + p as usize;
            fill_office(&mut s, p, i, TRADER);
            points.push(s.prestige[p as usize] - before - s.board.office_coin[i]);
        }
        assert_eq!(points, vec![7, 4, 2, 0]);
        assert_eq!(s.east_west, vec![0, 1, 2]);
    }

    #[test]
    fn the_game_ends_at_twenty_prestige_an_empty_bag_or_the_tenth_city() {
        // "The game ends after the establish action in which a player reaches 20
        // prestige, a replacement marker cannot be drawn, or the 10th city is completed"
        let mut s = game(3, "base_3p");
        check_end(&mut s);
        assert_eq!(s.end_reason, None);
        s.prestige[2] = 19;
        check_end(&mut s);
        assert_eq!(s.end_reason, None);
        s.prestige[2] = 20;
        check_end(&mut s);
        assert_eq!(s.end_reason, Some(0));

        let mut s = game(3, "base_3p");
        s.end_after_action = Some(1);
        check_end(&mut s);
        assert_eq!(s.end_reason, Some(1));

        let mut s = game(3, "base_3p");
        s.completed = 9;
        check_end(&mut s);
        assert_eq!(s.end_reason, None);
        city_done(&mut s, 0);
        check_end(&mut s);
        assert_eq!(s.end_reason, Some(2));
        // Britannia: the 8th city
        let mut s = game(3, "britannia_3p");
        s.completed = 8;
        check_end(&mut s);
        assert_eq!(s.end_reason, Some(2));
    }

    #[test]
    fn the_next_player_gets_the_actions_of_their_track_and_a_new_round_starts() {
        // "Then the next player in seat order"; Actions per turn from the Actions track;
        // the Emperor's Favour tile "+1 action every turn (may exceed 5)"
        let mut c = Config::printed(3, "base_3p", 1);
        c.emperor = true;
        let mut s = new_game(&c).unwrap();
        s.levels[1][A_ACTIONS] = 5;
        s.favours[1] = vec![F_EXTRA_ACTION];
        next_player(&mut s);
        assert_eq!((s.active, s.actions_left, s.round), (1, 6, 1));
        next_player(&mut s);
        assert_eq!((s.active, s.actions_left, s.round), (2, 2, 1));
        next_player(&mut s);
        assert_eq!((s.active, s.round, s.turn), (0, 2, 4));
    }

    #[test]
    fn a_merchant_takes_a_merchant_only_post_first_and_a_trader_never_does() {
        // East: "a maritime route's boat posts take merchants only (its other posts take
        // either tradesman)"
        let s = game(3, "east");
        let b = s.board;
        let r = (0..b.n_routes)
            .find(|&r| {
                b.route_n_merchant_only[r] > 0 && b.route_n_merchant_only[r] < b.route_n_posts[r]
            })
            .expect("a route with boat posts and other posts");
        let boat = b.route_posts(r).find(|&i| b.post_merchant_only[i]).unwrap();
        let other = b
            .route_posts(r)
            .find(|&i| !b.post_merchant_only[i])
            .unwrap();
        assert_eq!(free_post(&s, r, MERCHANT), boat as i32);
        assert_eq!(free_post(&s, r, TRADER), other as i32);
        let mut s = s.clone();
        for i in b.route_posts(r).filter(|&i| !b.post_merchant_only[i]) {
            s.posts[i] = 0;
        }
        assert_eq!(free_post(&s, r, TRADER), -1);
        let (for_t, for_m) = free_routes(&s);
        assert!(!for_t.contains(&r) && for_m.contains(&r));
    }
}
