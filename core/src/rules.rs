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
