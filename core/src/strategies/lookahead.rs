//! Look-ahead helpers of the searching strategies (twin of
//! `hansa_lab/strategies/lookahead.py`).

use crate::actions::*;
use crate::decisions::Decision;
use crate::rules::{apply_unchecked, legal_actions};
use crate::state::State;

/// Action kinds that may open a decision of the acting player (`OPENS_DECISION`).
pub fn opens_decision(a: &Action) -> bool {
    a.kind == K_MOVE || a.kind == K_MARKER
}

/// The route `action` filled with `player`'s pieces, judged on the position `after` it
/// (None if it filled none).
pub fn filled_route(after: &State, action: &Action, player: usize) -> Option<usize> {
    let b = after.board;
    let r = match action.kind {
        K_PLACE => action.a as usize,
        K_MOVE_PIECE => action.b as usize,
        K_DISPLACE => b.post_route[action.a as usize],
        _ => return None,
    };
    let full = after.posts[b.route_posts(r)]
        .iter()
        .all(|&o| o >= 0 && (o >> 1) as usize == player);
    full.then_some(r)
}

/// The routes whose every post holds one of `player`'s pieces, in route order
/// (`full_routes`).
pub fn full_routes(s: &State, player: usize) -> impl Iterator<Item = usize> + '_ {
    let b = s.board;
    (0..b.n_routes).filter(move |&r| {
        s.posts[b.route_posts(r)]
            .iter()
            .all(|&o| o >= 0 && (o >> 1) as usize == player)
    })
}

/// What `establish_value` reuses from call to call: the position after an
/// establishment and the legal actions (a greedy decision keeps one for its candidates).
#[derive(Default)]
pub struct EstablishBuffers {
    position: Option<State>,
    legal: Vec<Action>,
}

/// The best `value` of establishing route `r` right away (after finishing a Move in
/// progress); -inf when `player` cannot do that now.
pub fn establish_value(
    s: &State,
    r: usize,
    player: usize,
    value: &mut impl FnMut(&State) -> f64,
    buffers: &mut EstablishBuffers,
) -> f64 {
    if s.end_reason.is_some() || s.actions_left <= 0 {
        return f64::NEG_INFINITY;
    }
    let stopped;
    let mut s = s;
    if matches!(s.pending.last(), Some(Decision::Move { .. })) && s.current_player() == player {
        let mut t = s.clone();
        apply_unchecked(&mut t, &Action::k(K_STOP));
        stopped = t;
        s = &stopped;
    }
    if !s.pending.is_empty() || s.end_reason.is_some() || s.current_player() != player {
        return f64::NEG_INFINITY;
    }
    let EstablishBuffers { position, legal } = buffers;
    legal_actions(s, legal);
    let mut best = f64::NEG_INFINITY;
    for b in legal
        .iter()
        .filter(|b| b.kind == K_ESTABLISH && b.a == r as i32)
    {
        let t = position.get_or_insert_with(|| s.clone());
        t.clone_from(s);
        apply_unchecked(t, b);
        best = py_max(best, value(t));
    }
    best
}

/// Python's `max(a, b)` on floats: the first argument unless the second is larger.
#[inline]
pub fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}
