//! Permanent markers of maritime routes, East and Britannia (twin of
//! `variants/permanent.py`): the decision `PermanentMarker` right after establishing.

use crate::actions::*;
use crate::board::*;
use crate::decisions::Decision;
use crate::effects::*;
use crate::events::{Detail, Event, E_PERMANENT};
use crate::state::{State, EMPTY};

/// How many uses each permanent marker gives (PERMANENT_MARKERS order).
pub const USES: [i32; 5] = [2, 1, 1, 2, 2];

/// Push the permanent-marker decision after establishing a route (`returned`: kinds of
/// the route's pieces that went back to the general stock).
pub fn start(s: &mut State, p: usize, r: usize, kind: u8, returned: &[i32]) {
    let n_m: i32 = returned.iter().sum();
    log(
        s,
        Event::new(E_PERMANENT)
            .seat(p as i32)
            .detail(Detail::Permanent(kind))
            .route(r),
    );
    s.pending.push(Decision::PermanentMarker {
        player: p,
        kind,
        left: USES[kind as usize],
        traders: returned.len() as i32 - n_m,
        merchants: n_m,
    });
}

/// The options of the marker (without the final `stop`).
pub fn options(
    s: &State,
    player: usize,
    kind: u8,
    left: i32,
    traders: i32,
    merchants: i32,
    acts: &mut Vec<Action>,
) {
    let b = s.board;
    match kind {
        P_MOVE2 => {
            let posts = &s.posts;
            let occupied: Vec<usize> = (0..posts.len()).filter(|&i| posts[i] != EMPTY).collect();
            let strict = if b.has_regions { Some(true) } else { None };
            shift_options(s, occupied.iter().copied(), K_PERM_MOVE, strict, acts);
            if left < 2 {
                return;
            }
            let pr = &b.post_route;
            let mo = &b.post_merchant_only;
            for (n, &x) in occupied.iter().enumerate() {
                let ox = posts[x];
                for &y in &occupied[n + 1..] {
                    let oy = posts[y];
                    if ox == oy || pr[x] == pr[y] {
                        continue;
                    }
                    if ((ox & 1) as i32 == TRADER && mo[y]) || ((oy & 1) as i32 == TRADER && mo[x])
                    {
                        continue;
                    }
                    if strict == Some(true) && !may_go(s, pr[x], pr[y], true) {
                        continue;
                    }
                    acts.push(Action::k2(K_PERM_SWAP, x as i32, y as i32));
                }
            }
        }
        P_PRIVILEGE if s.levels[player][A_PRIVILEGE] < PLAYER_BOARD.track_max[A_PRIVILEGE] => {
            acts.push(Action::k1(K_PERM_DEVELOP, A_PRIVILEGE as i32));
        }
        P_KONTOR_YELLOW_GREEN => {
            for &c in &b.yellow_green {
                for (k, n) in [(TRADER, s.supply_t[player]), (MERCHANT, s.supply_m[player])] {
                    if n > 0 {
                        acts.push(Action::k2(K_PERM_KONTOR, c as i32, k));
                    }
                }
            }
        }
        P_PLACE2_FROM_ROUTE => {
            let (for_t, for_m) = free_routes(s);
            for (k, n, dest) in [(TRADER, traders, &for_t), (MERCHANT, merchants, &for_m)] {
                if n > 0 {
                    for &r in dest {
                        acts.push(Action::k2(K_PERM_PLACE, r as i32, k));
                    }
                }
            }
        }
        P_PLACE2_REGIONS => {
            let country = &b.route_country;
            let (for_t, for_m) = free_routes(s);
            let dest: [Vec<usize>; 2] = [
                for_t.into_iter().filter(|&r| country[r] != 0).collect(),
                for_m.into_iter().filter(|&r| country[r] != 0).collect(),
            ];
            let p = player;
            let pools = [(s.stock_t[p], s.stock_m[p]), (s.supply_t[p], s.supply_m[p])];
            for (t, m) in pools {
                if t + m > 0 {
                    for (k, n) in [(TRADER, t), (MERCHANT, m)] {
                        if n > 0 {
                            for &r in &dest[k as usize] {
                                acts.push(Action::k2(K_PERM_PLACE, r as i32, k));
                            }
                        }
                    }
                    return;
                }
            }
            let pr = &b.post_route;
            for (i, &o) in s.posts.iter().enumerate() {
                if o != EMPTY && (o >> 1) as usize == p {
                    for &r in &dest[(o & 1) as usize] {
                        if r != pr[i] {
                            acts.push(Action::new(K_PERM_PLACE, r as i32, -1, i as i32));
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// Apply a `perm_*` action to the top PermanentMarker decision.
pub fn apply(s: &mut State, a: &Action) {
    let Some(Decision::PermanentMarker {
        player,
        kind,
        left,
        traders,
        merchants,
    }) = s.pending.last().copied()
    else {
        return;
    };
    let p = player;
    let (mut t, mut m) = (traders, merchants);
    let mut used = 1;
    match a.kind {
        K_PERM_MOVE => {
            let o = s.posts[a.a as usize];
            s.posts[a.a as usize] = EMPTY;
            to_route(s, a.b as usize, o);
        }
        K_PERM_SWAP => {
            s.posts.swap(a.a as usize, a.b as usize);
            used = 2;
        }
        K_PERM_DEVELOP => develop(s, p, a.a as usize, -1),
        K_PERM_KONTOR => {
            take_from_supply(s, p, a.b);
            add_extra(s, p as i32, a.a as usize, a.b, true);
        }
        K_PERM_PLACE => {
            let k;
            if a.c >= 0 {
                k = (s.posts[a.c as usize] & 1) as i32;
                s.posts[a.c as usize] = EMPTY;
            } else {
                k = a.b;
                if kind == P_PLACE2_FROM_ROUTE {
                    take_from_stock(s, p as i32, k);
                    if k == TRADER {
                        t -= 1;
                    } else {
                        m -= 1;
                    }
                } else {
                    take_loose(s, p as i32, k);
                }
            }
            to_route(s, a.a as usize, (p as i32 * 2 + k) as i8);
        }
        _ => return,
    }
    if let Some(Decision::PermanentMarker {
        left: l,
        traders: tt,
        merchants: mm,
        ..
    }) = s.pending.last_mut()
    {
        *l = left - used;
        *tt = t;
        *mm = m;
    }
}
