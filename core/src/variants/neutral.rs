//! The neutral colour of the two-player game (twin of `variants/neutral.py`).

use crate::board::TRADER;
use crate::effects::{check_end, fill_office, first_vacant_office, log, score_control, to_route};
use crate::events::{Event, E_ESTABLISH, E_NEUTRAL_PLACED};
use crate::state::{State, EMPTY};

/// Establish the first route whose posts are all neutral; true if one was.
pub fn settle(s: &mut State) -> bool {
    let b = s.board;
    let code = (2 * s.neutral()) as i8;
    for r in 0..b.n_routes {
        let (lo, hi) = (b.post_start[r], b.post_start[r + 1]);
        if s.posts[lo] == code && s.posts[lo..hi].iter().all(|&o| o == code) {
            establish(s, r);
            return true;
        }
    }
    false
}

/// The endpoint city that receives the neutral Kontor of route `r` (-1: none).
pub fn kontor_city(s: &State, r: usize) -> i32 {
    let b = s.board;
    let (mut best, mut best_vacant) = (-1i32, 0usize);
    for c in b.route_cities[r] {
        let i = first_vacant_office(s, c);
        if i >= 0 && b.office_shape[i as usize] == TRADER {
            let vacant = b.office_start[c + 1] - i as usize;
            if vacant > best_vacant {
                best = c as i32;
                best_vacant = vacant;
            }
        }
    }
    best
}

fn establish(s: &mut State, r: usize) {
    let b = s.board;
    let n = s.neutral();
    log(s, Event::new(E_ESTABLISH).seat(n).route(r));
    score_control(s, r);
    let mut pieces = b.route_n_posts[r] as i32;
    for i in b.route_posts(r) {
        s.posts[i] = EMPTY;
    }
    let c = kontor_city(s, r);
    if c >= 0 {
        let i = first_vacant_office(s, c as usize) as usize;
        fill_office(s, n, i, TRADER);
        pieces -= 1;
    }
    s.neutral_pool += pieces;
    check_end(s);
}

/// A newly placed bonus marker receives a neutral trader (while the pool has one).
pub fn marker_placed(s: &mut State, r: usize) {
    if s.neutral_pool > 0 {
        s.neutral_pool -= 1;
        let code = (2 * s.neutral()) as i8;
        to_route(s, r, code);
        let n = s.neutral();
        log(s, Event::new(E_NEUTRAL_PLACED).seat(n).route(r));
    }
}
