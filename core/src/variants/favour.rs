//! Emperor's Favour (twin of `variants/favour.py`, rule option `emperor`).

use crate::actions::{Action, K_FAVOUR};
use crate::board::TRADER;
use crate::decisions::Decision;
use crate::events::{Detail, Event, E_FAVOUR, E_FAVOUR_INCOME};
use crate::state::{State, F_INCOME_SHARE, MARKER_KINDS};

/// `favour` actions open to the active player `p` at the start of the turn.
pub fn options(s: &State, p: usize, acts: &mut Vec<Action>) {
    if s.favour_display.is_empty() || s.n_actions != s.turn_start || s.markers[p].len() < 2 {
        return;
    }
    let mut held = [0u8; MARKER_KINDS.len()];
    for &m in &s.markers[p] {
        held[m as usize] += 1;
    }
    let kinds: Vec<usize> = (0..held.len()).filter(|&k| held[k] > 0).collect();
    let mut pairs = Vec::new();
    for (n, &x) in kinds.iter().enumerate() {
        for &y in &kinds[n..] {
            if x != y || held[x] >= 2 {
                pairs.push((x as i32, y as i32));
            }
        }
    }
    for &tile in &s.favour_display {
        for &(x, y) in &pairs {
            acts.push(Action::new(K_FAVOUR, tile as i32, x, y));
        }
    }
}

/// Take tile `a.a` with markers `a.b` and `a.c`; the caller ends the turn.
pub fn take(s: &mut State, a: &Action) {
    let p = s.active;
    let tile = a.a as u8;
    for k in [a.b as u8, a.c as u8] {
        if let Some(i) = s.markers[p].iter().position(|m| *m == k) {
            s.markers[p].remove(i);
        }
    }
    s.markers_used[p].push(a.b as u8);
    s.markers_used[p].push(a.c as u8);
    s.favour_display.retain(|t| *t != tile);
    s.favours[p].push(tile);
    s.events.push(
        Event::new(E_FAVOUR)
            .seat(p as i32)
            .detail(Detail::Tile(tile)),
    );
}

/// Player `p` took Income: each `income_share` holder may take a tradesman.
pub fn after_income(s: &mut State, p: usize) {
    for h in 0..s.favours.len() {
        if h != p && s.favours[h].contains(&F_INCOME_SHARE) && s.stock_t[h] + s.stock_m[h] > 0 {
            s.pending.push(Decision::FavourIncome { player: h });
        }
    }
}

pub fn do_take(s: &mut State, a: &Action) {
    let Some(top) = s.pending.last().copied() else {
        return;
    };
    let h = top.player();
    if a.a == TRADER {
        s.stock_t[h] -= 1;
        s.supply_t[h] += 1;
    } else {
        s.stock_m[h] -= 1;
        s.supply_m[h] += 1;
    }
    s.pending.pop();
    s.events.push(
        Event::new(E_FAVOUR_INCOME)
            .seat(h as i32)
            .detail(Detail::Piece(a.a as u8)),
    );
}
