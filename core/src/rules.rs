//! The forward model (twin of `hansa_lab/engine/rules.py`): legal actions in the Python
//! engine's order, and apply (in place) followed by settle.

use crate::actions::*;
use crate::board::{A_BOOK, A_PRIVILEGE, MERCHANT, PLAYER_BOARD, TRADER};
use crate::decisions::{set_relocation, settle_top, spend, stop_top, Decision};
use crate::effects::*;
use crate::events::*;
use crate::post_bits::PostBits;
use crate::state::{State, EMPTY, F_DISPLACED_TWO, MK_EXTRA};
use crate::variants::{favour, neutral, permanent, regions};

/// Every legal action of the current player (empty once the game is over).
pub fn legal_actions(s: &State, acts: &mut Vec<Action>) {
    acts.clear();
    if s.end_reason.is_some() {
        return;
    }
    if let Some(top) = s.pending.last() {
        top.legal(s, acts);
        return;
    }
    turn_actions(s, acts);
}

pub fn legal(s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    legal_actions(s, &mut v);
    v
}

fn turn_actions(s: &State, acts: &mut Vec<Action>) {
    let p = s.active;
    let b = s.board;
    if s.actions_left > 0 {
        let (st, sm) = (s.stock_t[p], s.stock_m[p]);
        if st + sm > 0 {
            let cap = income_limit(s, p).unwrap_or(st + sm);
            for m in 0..=cap.min(sm) {
                let t0 = if m == 0 { 1 } else { 0 };
                for t in t0..=(cap - m).min(st) {
                    acts.push(Action::k2(K_INCOME, t, m));
                }
            }
        }
        let (sup_t, sup_m) = (s.supply_t[p], s.supply_m[p]);
        let have = sup_t + sup_m;
        let posts = &s.posts;
        let mo = &b.post_merchant_only;
        let mut own_on_board = false;
        let mut any_free = false;
        // Britannia: Place/Displace in Wales/Scotland only with a permission this turn
        let allowed: u32 = if b.has_regions {
            regions::permitted_countries(s, p)
        } else {
            u32::MAX
        };
        let country = &b.route_country;
        let bits = PostBits::new(posts, p);
        for r in 0..b.n_routes {
            let (lo, hi) = (b.post_start[r], b.post_start[r + 1]);
            let (free, own) = (bits.free_in(lo, hi - lo), bits.own_in(lo, hi - lo));
            let len = hi - lo;
            // the route's posts as bits (free and own ones never overlap; no popcount:
            // it is slow without the POPCNT instruction)
            let full = (1u64 << len) - 1;
            let ri = r as i32;
            let closed = b.has_regions && allowed & (1 << country[r]) == 0;
            if free == full {
                any_free = true;
                if closed {
                    continue;
                }
                if sup_t > 0 && b.route_n_merchant_only[r] < len {
                    acts.push(Action::k2(K_PLACE, ri, TRADER));
                }
                if sup_m > 0 {
                    acts.push(Action::k2(K_PLACE, ri, MERCHANT));
                }
                continue;
            }
            if own != 0 {
                own_on_board = true;
                if own == full {
                    establish_options(s, p, r, acts);
                    continue;
                }
            }
            if closed {
                any_free = any_free || free != 0;
                continue;
            }
            if free | own != full && have >= 2 {
                // the other players' pieces, by post
                let mut others = !(free | own) & full;
                while others != 0 {
                    let i = lo + others.trailing_zeros() as usize;
                    others &= others - 1;
                    let o = posts[i];
                    if have >= 2 + (o & 1) as i32 {
                        displace_options(acts, i, o, sup_t, sup_m, mo[i]);
                    }
                }
            }
            if free != 0 {
                any_free = true;
                // a free post for a trader: any free post unless some are merchant-only
                if sup_t > 0
                    && (b.route_n_merchant_only[r] == 0
                        || (lo..hi).any(|i| posts[i] == EMPTY && !mo[i]))
                {
                    acts.push(Action::k2(K_PLACE, ri, TRADER));
                }
                if sup_m > 0 {
                    acts.push(Action::k2(K_PLACE, ri, MERCHANT));
                }
            }
        }
        if own_on_board && any_free {
            acts.push(Action::k(K_MOVE));
        }
    }
    if !s.markers[p].is_empty() {
        marker_options(s, p, acts);
        if !s.favour_display.is_empty() {
            favour::options(s, p, acts);
        }
    }
    acts.push(Action::k(K_END));
}

fn displace_options(acts: &mut Vec<Action>, i: usize, o: i8, sup_t: i32, sup_m: i32, mo: bool) {
    let cost = 1 + (o & 1) as i32;
    for k in [TRADER, MERCHANT] {
        if mo && k == TRADER {
            continue;
        }
        let t = sup_t - i32::from(k == TRADER);
        let m = sup_m - i32::from(k == MERCHANT);
        if t < 0 || m < 0 || t + m < cost {
            continue;
        }
        for pay_m in (cost - t).max(0)..=cost.min(m) {
            acts.push(Action::new(K_DISPLACE, i as i32, k, pay_m));
        }
    }
}

fn special_route(s: &State, r: usize) -> bool {
    let b = s.board;
    match b.special_route {
        Some(sr) => r == sr,
        None => b.route_cities[r].contains(&b.special_city),
    }
}

fn establish_options(s: &State, p: usize, r: usize, acts: &mut Vec<Action>) {
    let b = s.board;
    let occ = &s.posts[b.route_posts(r)];
    let has = [
        occ.iter().any(|o| o & 1 == 0),
        occ.iter().any(|o| o & 1 == 1),
    ];
    let lv = s.levels[p];
    let privilege = lv[A_PRIVILEGE];
    let ri = r as i32;
    acts.push(Action::k2(K_ESTABLISH, ri, R_NONE));
    let ends = b.route_cities[r];
    let can_extra = s.markers[p].contains(&MK_EXTRA);
    for (e, &c) in ends.iter().enumerate() {
        let i = first_vacant_office(s, c);
        if i >= 0 {
            let i = i as usize;
            if b.office_colour[i] <= privilege && has[b.office_shape[i] as usize] {
                acts.push(Action::new(K_ESTABLISH, ri, R_KONTOR, e as i32));
            }
        }
        let (lo, hi) = (b.office_start[c], b.office_start[c + 1]);
        if can_extra && (b.city_yellow_green[c] || (hi > lo && s.offices[lo] != EMPTY)) {
            for k in [TRADER, MERCHANT] {
                if has[k as usize] {
                    acts.push(Action::new(K_ESTABLISH, ri, R_EXTRA, e as i32 * 2 + k));
                }
            }
        }
    }
    let mut abilities = [false; 5];
    for &c in &ends {
        for &a in &b.city_abilities[c] {
            abilities[a] = true;
        }
    }
    let tm = PLAYER_BOARD.track_max;
    for a in 0..5 {
        if abilities[a] && lv[a] < tm[a] {
            acts.push(Action::new(K_ESTABLISH, ri, R_DEVELOP, a as i32));
        }
    }
    if has[1] && special_route(s, r) {
        for (j, &(_, colour)) in b.special_spaces.iter().enumerate() {
            if s.special[j] == EMPTY && colour <= privilege {
                acts.push(Action::new(K_ESTABLISH, ri, R_SPECIAL, j as i32));
            }
        }
    }
}

fn marker_options(s: &State, p: usize, acts: &mut Vec<Action>) {
    use crate::state::{MK_DEVELOP, MK_MOVE3, MK_PLUS3, MK_PLUS4, MK_REMOVE3, MK_SWAP};
    let held = &s.markers[p];
    let has = |k: u8| held.contains(&k);
    if has(MK_PLUS3) {
        acts.push(Action::k1(K_MARKER, M_PLUS3));
    }
    if has(MK_PLUS4) {
        acts.push(Action::k1(K_MARKER, M_PLUS4));
    }
    if has(MK_DEVELOP) {
        let tm = PLAYER_BOARD.track_max;
        for a in 0..5 {
            if s.levels[p][a] < tm[a] {
                acts.push(Action::k2(K_MARKER, M_DEVELOP, a as i32));
            }
        }
    }
    let pi = p as i8;
    if has(MK_SWAP) {
        let b = s.board;
        let offices = &s.offices;
        for c in 0..b.n_cities {
            let (lo, hi) = (b.office_start[c], b.office_start[c + 1]);
            for i in lo..hi.saturating_sub(1).max(lo) {
                let (o1, o2) = (offices[i], offices[i + 1]);
                if o1 != EMPTY && o2 != EMPTY && o1 != o2 && (o1 >> 1 == pi || o2 >> 1 == pi) {
                    acts.push(Action::k2(K_MARKER, M_SWAP, i as i32));
                }
            }
        }
    }
    let (m3, r3) = (has(MK_MOVE3), has(MK_REMOVE3));
    if m3 || r3 {
        let opp = s.posts.iter().any(|&o| o != EMPTY && o >> 1 != pi);
        if opp && r3 {
            acts.push(Action::k1(K_MARKER, M_REMOVE3));
        }
        if opp && m3 && s.posts.contains(&EMPTY) {
            acts.push(Action::k1(K_MARKER, M_MOVE3));
        }
    }
}

fn has_usable_marker(s: &State, p: usize) -> bool {
    if s.markers[p].is_empty() {
        return false;
    }
    let mut acts = Vec::new();
    marker_options(s, p, &mut acts);
    !acts.is_empty()
}

/// Whether `action` is among the legal actions.
pub fn is_legal(s: &State, action: &Action) -> bool {
    legal(s).contains(action)
}

/// Apply a legal action in place (the caller checked legality) and settle.
pub fn apply_unchecked(s: &mut State, a: &Action) {
    s.events.clear();
    match a.kind {
        K_INCOME => do_income(s, a),
        K_PLACE => do_place(s, a),
        K_DISPLACE => do_displace(s, a),
        K_MOVE => {
            s.actions_left -= 1;
            let left = s.config.tuning.book[s.levels[s.active][A_BOOK] as usize];
            s.pending.push(Decision::Move {
                player: s.active,
                left,
            });
        }
        K_MOVE_PIECE | K_SHIFT => {
            let (i, r) = (a.a as usize, a.b as usize);
            let o = s.posts[i];
            s.posts[i] = EMPTY;
            to_route(s, r, o);
            spend(s, 1);
        }
        K_SWAP => {
            s.posts.swap(a.a as usize, a.b as usize);
            spend(s, 2);
        }
        K_REMOVE => {
            let i = a.a as usize;
            let o = s.posts[i];
            s.posts[i] = EMPTY;
            let c = (o >> 1) as i32;
            if c == s.neutral() {
                s.neutral_pool += 1;
            } else if o & 1 == 1 {
                s.supply_m[c as usize] += 1;
            } else {
                s.supply_t[c as usize] += 1;
            }
            spend(s, 1);
        }
        K_STOP => stop_top(s),
        K_PERM_MOVE | K_PERM_SWAP | K_PERM_DEVELOP | K_PERM_KONTOR | K_PERM_PLACE => {
            permanent::apply(s, a)
        }
        K_RELOCATE => {
            if let Some(top) = s.pending.last().copied() {
                let v = top.colour(s);
                let (_, piece, extras) = top.relocation().unwrap_or((0, 0, 0));
                to_route(s, a.a as usize, (v * 2 + piece) as i8);
                set_relocation(s, -1, extras);
            }
        }
        K_RELOCATE_EXTRA => {
            if let Some(top) = s.pending.last().copied() {
                let v = top.colour(s);
                let (_, piece, extras) = top.relocation().unwrap_or((0, 0, 0));
                let k;
                if a.c >= 0 {
                    k = (s.posts[a.c as usize] & 1) as i32;
                    s.posts[a.c as usize] = EMPTY;
                } else {
                    k = a.b;
                    take_loose(s, v, k);
                }
                to_route(s, a.a as usize, (v * 2 + k) as i8);
                set_relocation(s, piece, extras - 1);
            }
        }
        K_DECLINE => match s.pending.last().copied() {
            Some(d) if d.relocation().is_some() => {
                let (_, piece, _) = d.relocation().unwrap_or((0, 0, 0));
                set_relocation(s, piece, 0);
            }
            _ => {
                s.pending.pop();
            }
        },
        K_ESTABLISH => do_establish(s, a),
        K_MARKER => do_marker(s, a),
        K_PLACE_MARKER => {
            let m = s.drawn.remove(0);
            s.route_marker[a.a as usize] = m as i8;
            log(
                s,
                Event::new(E_MARKER_PLACED)
                    .seat(s.active as i32)
                    .detail(Detail::Marker(m))
                    .route(a.a as usize),
            );
            if s.neutral_pool >= 0 {
                neutral::marker_placed(s, a.a as usize);
            }
        }
        K_FAVOUR => {
            favour::take(s, a);
            end_turn(s);
        }
        K_FAVOUR_TAKE => favour::do_take(s, a),
        K_END => end_turn(s),
        _ => {}
    }
    s.n_actions += 1;
    settle(s);
}

fn do_income(s: &mut State, a: &Action) {
    let p = s.active;
    s.stock_t[p] -= a.a;
    s.stock_m[p] -= a.b;
    s.supply_t[p] += a.a;
    s.supply_m[p] += a.b;
    s.actions_left -= 1;
    if !s.favours.is_empty() {
        favour::after_income(s, p);
    }
}

fn do_place(s: &mut State, a: &Action) {
    let p = s.active;
    take_from_supply(s, p, a.b);
    to_route(s, a.a as usize, (p as i32 * 2 + a.b) as i8);
    s.actions_left -= 1;
    let country = s.board.route_country[a.a as usize];
    if country != 0 {
        regions::use_permit(s, p, country);
    }
}

fn do_displace(s: &mut State, a: &Action) {
    let p = s.active;
    let (i, k, pay_m) = (a.a as usize, a.b, a.c);
    let victim = s.posts[i];
    let cost = 1 + (victim & 1) as i32;
    take_from_supply(s, p, k);
    s.posts[i] = (p as i32 * 2 + k) as i8;
    s.supply_m[p] -= pay_m;
    s.stock_m[p] += pay_m;
    s.supply_t[p] -= cost - pay_m;
    s.stock_t[p] += cost - pay_m;
    s.actions_left -= 1;
    let r = s.board.post_route[i];
    let country = s.board.route_country[r];
    if country != 0 {
        regions::use_permit(s, p, country);
    }
    let v = (victim >> 1) as i32;
    log(
        s,
        Event::new(E_DISPLACE)
            .seat(p as i32)
            .other(v)
            .route(r)
            .detail(Detail::Piece((victim & 1) as u8)),
    );
    if v == s.neutral() {
        s.pending.push(Decision::RelocateNeutral {
            player: 1 - p,
            origin: r,
            piece: TRADER,
            extras: 1,
        });
        return;
    }
    let extras =
        cost + i32::from((victim & 1) as i32 == TRADER && s.has_favour(v, F_DISPLACED_TWO));
    s.pending.push(Decision::Relocate {
        player: v as usize,
        origin: r,
        piece: (victim & 1) as i32,
        extras,
    });
}

fn remove_one(v: &mut Vec<i32>, x: i32) {
    if let Some(i) = v.iter().position(|y| *y == x) {
        v.remove(i);
    }
}

/// The end of an established route that offers `ability` (the first if both do).
fn ability_city(b: &crate::board::Board, ends: [usize; 2], ability: usize) -> i32 {
    ends.iter()
        .find(|&&c| b.city_abilities[c].contains(&ability))
        .map_or(-1, |&c| c as i32)
}

fn do_establish(s: &mut State, a: &Action) {
    let p = s.active;
    let b = s.board;
    let (r, reward, arg) = (a.a as usize, a.b, a.c);
    s.actions_left -= 1;
    log(s, Event::new(E_ESTABLISH).seat(p as i32).route(r));
    score_control(s, r);
    let m = s.route_marker[r];
    if m >= 0 {
        s.route_marker[r] = -1;
        s.markers[p].push(m as u8);
        log(
            s,
            Event::new(E_MARKER_TAKEN)
                .seat(p as i32)
                .detail(Detail::Marker(m as u8))
                .route(r),
        );
        if !s.bag.is_empty() {
            let d = s.bag.remove(0);
            s.drawn.push(d);
        } else {
            s.end_after_action = Some(1);
        }
    }
    let mut pieces: Vec<i32> = Vec::with_capacity(6);
    for i in b.route_posts(r) {
        pieces.push((s.posts[i] & 1) as i32);
        s.posts[i] = EMPTY;
    }
    let ends = b.route_cities[r];
    let pi = p as i32;
    match reward {
        R_KONTOR => {
            let i = first_vacant_office(s, ends[arg as usize]) as usize;
            let k = b.office_shape[i];
            remove_one(&mut pieces, k);
            fill_office(s, pi, i, k);
        }
        R_EXTRA => {
            let k = arg & 1;
            remove_one(&mut pieces, k);
            use_marker(s, p, MK_EXTRA);
            add_extra(s, pi, ends[(arg >> 1) as usize], k, false);
        }
        R_DEVELOP => {
            let city = ability_city(b, ends, arg as usize);
            develop(s, p, arg as usize, city);
        }
        R_SPECIAL => {
            remove_one(&mut pieces, MERCHANT);
            s.special[arg as usize] = (pi * 2 + MERCHANT) as i8;
            let pts = s.special_points[arg as usize];
            log(
                s,
                Event::new(E_SPECIAL)
                    .seat(pi)
                    .detail(Detail::Number(arg))
                    .value(pts),
            );
        }
        _ => {}
    }
    let n_m: i32 = pieces.iter().sum();
    to_stock(s, pi, MERCHANT, n_m);
    to_stock(s, pi, TRADER, pieces.len() as i32 - n_m);
    // a maritime route's permanent marker, then (once it is resolved) the end check
    let pm = b.route_permanent_kind[r];
    if pm >= 0 {
        permanent::start(s, p, r, pm as u8, &pieces);
    } else {
        check_end(s);
    }
}

pub fn use_marker(s: &mut State, p: usize, kind: u8) {
    if let Some(i) = s.markers[p].iter().position(|k| *k == kind) {
        s.markers[p].remove(i);
    }
    s.markers_used[p].push(kind);
    log(
        s,
        Event::new(E_MARKER_USED)
            .seat(p as i32)
            .detail(Detail::Marker(kind)),
    );
}

fn do_marker(s: &mut State, a: &Action) {
    let p = s.active;
    let kind = USABLE_MARKERS[a.a as usize];
    use_marker(s, p, kind);
    match a.a {
        M_PLUS3 => s.actions_left += 3,
        M_PLUS4 => s.actions_left += 4,
        M_DEVELOP => develop(s, p, a.b as usize, -1),
        M_SWAP => s.offices.swap(a.b as usize, a.b as usize + 1),
        M_MOVE3 => s
            .pending
            .push(Decision::MoveOpponents { player: p, left: 3 }),
        M_REMOVE3 => s
            .pending
            .push(Decision::RemoveOpponents { player: p, left: 3 }),
        _ => {}
    }
}

fn end_turn(s: &mut State) {
    s.actions_left = 0;
    if !s.drawn.is_empty() {
        s.pending.push(Decision::PlaceMarkers { player: s.active });
    } else {
        next_player(s);
    }
}

/// Resolve what needs no decision (`_settle`).
fn settle(s: &mut State) {
    loop {
        if s.end_reason.is_some() {
            let pending = std::mem::take(&mut s.pending);
            for f in pending {
                if let Some((_, piece, _)) = f.relocation() {
                    if piece >= 0 {
                        let v = f.colour(s);
                        to_stock(s, v, piece, 1);
                    }
                }
            }
            return;
        }
        if s.neutral_pool >= 0
            && !matches!(s.pending.last(), Some(Decision::RelocateNeutral { .. }))
            && neutral::settle(s)
        {
            continue;
        }
        if !s.pending.is_empty() {
            if settle_top(s) {
                continue;
            }
            return;
        }
        if s.actions_left <= 0 && !has_usable_marker(s, s.active) {
            end_turn(s);
            continue;
        }
        return;
    }
}

#[cfg(test)]
mod tests {
    //! The turn's actions against /work/shared/RULES.md ("A turn", "Bonus markers", "End
    //! of game"), on positions built from a printed new game (base board, 3 players).
    use super::*;
    use crate::state::MK_SWAP;
    use crate::test_support::{self, city, route};

    fn game() -> State {
        test_support::game(3, "base_3p")
    }

    /// Every post of route `r` to `player`'s pieces (`pieces`, one per post).
    fn fill(s: &mut State, r: usize, player: i32, pieces: &[i32]) {
        let posts: Vec<usize> = s.board.route_posts(r).collect();
        assert_eq!(posts.len(), pieces.len());
        for (i, k) in posts.into_iter().zip(pieces) {
            s.posts[i] = (player * 2 + k) as i8;
        }
    }

    fn of_kind(s: &State, kind: u8) -> Vec<Action> {
        legal(s).into_iter().filter(|a| a.kind == kind).collect()
    }

    #[test]
    fn income_offers_every_mix_up_to_the_bank_value() {
        // "Income — move up to Bank value (3/5/7/all) of own tradesmen, any mix, from the
        // general stock to the personal supply."
        let mut s = game();
        s.stock_m[0] = 1;
        let incomes = of_kind(&s, K_INCOME);
        assert_eq!(incomes.len(), 6); // 1-3 traders, or the merchant and 0-2 traders
        assert!(incomes.iter().all(|a| a.a + a.b >= 1 && a.a + a.b <= 3));
        s.levels[0][crate::board::A_BANK] = 3; // "all": 6 traders and the merchant
        let incomes = of_kind(&s, K_INCOME);
        assert_eq!(incomes.len(), 6 + 7);
        assert!(incomes.contains(&Action::k2(K_INCOME, 6, 1)));
        let (t, m) = (s.supply_t[0], s.supply_m[0]);
        apply_unchecked(&mut s, &Action::k2(K_INCOME, 2, 1));
        assert_eq!((s.supply_t[0], s.supply_m[0]), (t + 2, m + 1));
        assert_eq!((s.stock_t[0], s.stock_m[0], s.actions_left), (4, 0, 1));
    }

    #[test]
    fn displacing_costs_one_more_for_a_trader_and_two_for_a_merchant() {
        // "Displace — ... pay 1 more tradesman (displaced trader) or 2 more (displaced
        // merchant) from your supply to the general stock. Not allowed unless you can pay
        // in full."
        let mut s = game();
        let hl = route(&s, "Hamburg", "Lubeck");
        let trader_post = s.board.post_start[hl];
        let merchant_post = trader_post + 1;
        s.posts[trader_post] = 2; // player 1's trader
        s.posts[merchant_post] = 3; // player 1's merchant
        let on = |s: &State, i: usize| -> Vec<Action> {
            of_kind(s, K_DISPLACE)
                .into_iter()
                .filter(|a| a.a == i as i32)
                .collect()
        };
        s.supply_t[0] = 1;
        s.supply_m[0] = 0;
        assert!(on(&s, trader_post).is_empty() && on(&s, merchant_post).is_empty());
        s.supply_t[0] = 2;
        assert_eq!(
            on(&s, trader_post),
            vec![Action::new(K_DISPLACE, trader_post as i32, TRADER, 0)]
        );
        assert!(on(&s, merchant_post).is_empty());
        // two traders and a merchant: the merchant's two must be paid by what is left
        s.supply_t[0] = 2;
        s.supply_m[0] = 1;
        let post = merchant_post as i32;
        assert_eq!(
            on(&s, merchant_post),
            vec![
                Action::new(K_DISPLACE, post, TRADER, 1),
                Action::new(K_DISPLACE, post, MERCHANT, 0)
            ]
        );
        s.supply_m[0] = 0;
        s.supply_t[0] = 3;
        assert_eq!(on(&s, merchant_post).len(), 1);
        // displace the merchant with a trader, paying two traders
        let stock = s.stock_t[0];
        apply_unchecked(
            &mut s,
            &Action::new(K_DISPLACE, merchant_post as i32, TRADER, 0),
        );
        assert_eq!((s.supply_t[0], s.stock_t[0]), (0, stock + 2));
        assert_eq!(s.posts[merchant_post], TRADER as i8);
        // the displaced owner decides next: the merchant and up to 2 extras
        assert_eq!(
            s.pending.last(),
            Some(&Decision::Relocate {
                player: 1,
                origin: hl,
                piece: MERCHANT,
                extras: 2
            })
        );
        assert_eq!(s.current_player(), 1);
    }

    #[test]
    fn a_complete_route_offers_the_establish_choices_the_rules_allow() {
        // Establish 3.: "At most one of: Kontor (leftmost vacant office of either endpoint
        // city; Privilege must allow its colour; a trader only on a square, a merchant
        // only on a circle) ... Develop (an endpoint city shows an ability)" — or nothing.
        let mut s = game();
        let hl = route(&s, "Hamburg", "Lubeck"); // Hamburg white square, Lubeck white square + Bank
        fill(&mut s, hl, 0, &[TRADER, TRADER, TRADER]);
        let ri = hl as i32;
        let (hamburg_end, lubeck_end) = if s.board.route_cities[hl][0] == city(&s, "Hamburg") {
            (0, 1)
        } else {
            (1, 0)
        };
        let mut want = vec![
            Action::k2(K_ESTABLISH, ri, R_NONE),
            Action::new(K_ESTABLISH, ri, R_KONTOR, hamburg_end),
            Action::new(K_ESTABLISH, ri, R_KONTOR, lubeck_end),
            Action::new(K_ESTABLISH, ri, R_DEVELOP, crate::board::A_BANK as i32),
        ];
        want.sort_by_key(|a| (a.b, a.c));
        let mut got = of_kind(&s, K_ESTABLISH);
        got.sort_by_key(|a| (a.b, a.c));
        assert_eq!(got, want);
        // merchants only: neither first office is a circle
        fill(&mut s, hl, 0, &[MERCHANT, MERCHANT, MERCHANT]);
        let got: Vec<i32> = of_kind(&s, K_ESTABLISH).iter().map(|a| a.b).collect();
        assert_eq!(got, vec![R_NONE, R_DEVELOP]);
        // Warburg's first office is orange: Privilege white does not allow it
        let pw = route(&s, "Paderborn", "Warburg");
        fill(&mut s, pw, 0, &[TRADER, TRADER, TRADER]);
        let warburg_end = if s.board.route_cities[pw][0] == city(&s, "Warburg") {
            0
        } else {
            1
        };
        let kontor = Action::new(K_ESTABLISH, pw as i32, R_KONTOR, warburg_end);
        assert!(!legal(&s).contains(&kontor));
        s.levels[0][A_PRIVILEGE] = 1;
        assert!(legal(&s).contains(&kontor));
    }

    #[test]
    fn the_coellen_spaces_take_a_merchant_of_an_allowed_colour() {
        // "Special prestige — on the Coellen–Warburg route, move a merchant from the route
        // onto a vacant Coellen space (7 white, 8 orange, 9 pink, 11 black) that Privilege
        // allows."
        let mut s = game();
        let wc = route(&s, "Warburg", "Coellen");
        let special = |s: &State| -> Vec<i32> {
            of_kind(s, K_ESTABLISH)
                .iter()
                .filter(|a| a.b == R_SPECIAL)
                .map(|a| a.c)
                .collect()
        };
        fill(&mut s, wc, 0, &[TRADER, TRADER, TRADER, TRADER]);
        assert!(special(&s).is_empty());
        fill(&mut s, wc, 0, &[TRADER, MERCHANT, TRADER, TRADER]);
        assert_eq!(special(&s), vec![0]);
        s.levels[0][A_PRIVILEGE] = 3;
        assert_eq!(special(&s), vec![0, 1, 2, 3]);
        s.special[1] = 3; // orange space taken by player 1
        assert_eq!(special(&s), vec![0, 2, 3]);
        let stock = (s.stock_t[0], s.stock_m[0]);
        apply_unchecked(&mut s, &Action::new(K_ESTABLISH, wc as i32, R_SPECIAL, 3));
        assert_eq!(s.special[3], MERCHANT as i8);
        assert_eq!((s.stock_t[0], s.stock_m[0]), (stock.0 + 3, stock.1));
    }

    #[test]
    fn establishing_scores_control_then_takes_the_marker_and_returns_the_rest() {
        // Establish: "1. Each endpoint city's controller scores 1 prestige. 2. If the
        // route has a bonus marker, take it and draw one replacement at once ... All other
        // pieces on the route return to the general stock."
        let mut s = game();
        let hl = route(&s, "Hamburg", "Lubeck");
        let hamburg = city(&s, "Hamburg");
        s.offices[s.board.office_start[hamburg]] = 2; // player 1 controls Hamburg
        fill(&mut s, hl, 0, &[TRADER, MERCHANT, TRADER]);
        s.route_marker[hl] = MK_SWAP as i8;
        s.actions_left = 3;
        let (bag, stock_t, stock_m) = (s.bag.len(), s.stock_t[0], s.stock_m[0]);
        let lubeck_end = if s.board.route_cities[hl][0] == city(&s, "Lubeck") {
            0
        } else {
            1
        };
        apply_unchecked(
            &mut s,
            &Action::new(K_ESTABLISH, hl as i32, R_KONTOR, lubeck_end),
        );
        // player 1: Hamburg's control; player 0: Lubeck's coin office (control came first)
        assert_eq!(s.prestige, vec![1, 1, 0]);
        assert_eq!(
            s.offices[s.board.office_start[city(&s, "Lubeck")]],
            TRADER as i8
        );
        assert_eq!((s.stock_t[0], s.stock_m[0]), (stock_t + 1, stock_m + 1));
        assert!(s.board.route_posts(hl).all(|i| s.posts[i] == EMPTY));
        assert_eq!(s.markers[0], vec![MK_SWAP]);
        assert_eq!(
            (s.bag.len(), s.drawn.len(), s.route_marker[hl]),
            (bag - 1, 1, -1)
        );
        assert_eq!((s.actions_left, s.end_reason), (2, None));
    }

    #[test]
    fn an_empty_bag_ends_the_game_after_the_establish_action() {
        // "If the supply is empty, the game will end after this action." / "The active
        // player loses the remaining actions; nobody else plays."
        let mut s = game();
        let hl = route(&s, "Hamburg", "Lubeck");
        fill(&mut s, hl, 0, &[TRADER, TRADER, TRADER]);
        s.route_marker[hl] = MK_SWAP as i8;
        s.bag.clear();
        s.actions_left = 4;
        apply_unchecked(&mut s, &Action::k2(K_ESTABLISH, hl as i32, R_NONE));
        assert_eq!(s.end_reason, Some(1));
        assert!(s.is_over() && legal(&s).is_empty());
    }

    #[test]
    fn a_drawn_marker_is_placed_at_the_end_of_the_turn_then_the_next_player_plays() {
        // "End of turn — place each drawn replacement marker beside a route that has no
        // marker, no tradesmen, and at least one endpoint city with a vacant office. Then
        // the next player in seat order."
        let mut s = game();
        let hl = route(&s, "Hamburg", "Lubeck");
        fill(&mut s, hl, 0, &[TRADER, TRADER, TRADER]);
        s.route_marker[hl] = MK_SWAP as i8;
        s.actions_left = 1;
        s.markers[0].clear();
        apply_unchecked(&mut s, &Action::k2(K_ESTABLISH, hl as i32, R_NONE));
        // the swap marker has no use yet (no two Kontors side by side): the turn ends
        assert_eq!(
            s.pending.last(),
            Some(&Decision::PlaceMarkers { player: 0 })
        );
        let places = legal(&s);
        assert!(!places.is_empty() && places.iter().all(|a| a.kind == K_PLACE_MARKER));
        let taken: Vec<usize> = (0..s.board.n_routes)
            .filter(|&r| s.route_marker[r] >= 0)
            .collect();
        assert!(places.iter().all(|a| !taken.contains(&(a.a as usize))));
        let drawn = s.drawn[0];
        let to = places[0];
        apply_unchecked(&mut s, &to);
        assert_eq!(s.route_marker[to.a as usize], drawn as i8);
        assert_eq!((s.active, s.actions_left, s.pending.len()), (1, 2, 0));
    }

    #[test]
    fn actions_run_out_then_the_turn_passes_and_end_is_always_legal() {
        // "The active player performs up to their Actions value of actions"
        let mut s = game();
        assert!(legal(&s).contains(&Action::k(K_END)));
        let place = of_kind(&s, K_PLACE)[0];
        apply_unchecked(&mut s, &place);
        assert_eq!((s.active, s.actions_left), (0, 1));
        let place = of_kind(&s, K_PLACE)[0];
        apply_unchecked(&mut s, &place);
        assert_eq!((s.active, s.actions_left, s.turn), (1, 2, 2));
        apply_unchecked(&mut s, &Action::k(K_END));
        assert_eq!(s.active, 2);
    }
}
