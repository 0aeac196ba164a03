//! A position's fields against its board and player count (`CoreState.set_fields`), so
//! that no rule can index out of range.

use crate::board::PLAYER_BOARD;
use crate::decisions::Decision;
use crate::state::{State, FAVOUR_TILES, MARKER_KINDS};

/// Check that a state's fields fit its board and player count, so that no rule can index
/// out of range.
pub(super) fn validate(s: &State) -> Result<(), String> {
    let b = s.board;
    let n = s.n_players();
    let colours = (n + usize::from(s.neutral_pool >= 0)) as i8;
    let occupant = |o: &i8| *o >= -1 && *o < 2 * colours;
    let len = |name: &str, got: usize, want: usize| {
        if got == want {
            Ok(())
        } else {
            Err(format!(
                "state field {name}: {got} entries, expected {want}"
            ))
        }
    };
    len("posts", s.posts.len(), b.n_posts)?;
    len("offices", s.offices.len(), b.n_offices)?;
    len("extras", s.extras.len(), b.n_cities)?;
    len("route_marker", s.route_marker.len(), b.n_routes)?;
    len("special", s.special.len(), b.special_spaces.len())?;
    len(
        "special_points",
        s.special_points.len(),
        b.special_spaces.len(),
    )?;
    for (name, v) in [
        ("supply_t", &s.supply_t),
        ("supply_m", &s.supply_m),
        ("stock_t", &s.stock_t),
        ("stock_m", &s.stock_m),
        ("prestige", &s.prestige),
    ] {
        len(name, v.len(), n)?;
        if name != "prestige" && v.iter().any(|x| !(0..=1000).contains(x)) {
            return Err(format!("state field {name}: counts must be 0-1000"));
        }
    }
    len("levels", s.levels.len(), n)?;
    len("markers", s.markers.len(), n)?;
    len("markers_used", s.markers_used.len(), n)?;
    if !s.favours.is_empty() {
        len("favours", s.favours.len(), n)?;
    }
    let tm = PLAYER_BOARD.track_max;
    if s.levels.iter().any(|l| (0..5).any(|a| l[a] > tm[a])) {
        return Err("state field levels: beyond the player board".into());
    }
    if !s.posts.iter().all(occupant)
        || !s.offices.iter().all(occupant)
        || !s.special.iter().all(occupant)
        || !s.extras.iter().flatten().all(|o| *o >= 0 && occupant(o))
    {
        return Err("state field posts/offices/extras/special: occupant out of range".into());
    }
    let mk = MARKER_KINDS.len() as u8;
    let markers_ok = s
        .markers
        .iter()
        .chain(s.markers_used.iter())
        .flatten()
        .chain(s.bag.iter())
        .chain(s.drawn.iter())
        .chain(s.discarded.iter())
        .all(|m| *m < mk)
        && s.route_marker.iter().all(|m| *m >= -1 && *m < mk as i8);
    if !markers_ok {
        return Err("state field markers/bag/drawn/route_marker: unknown marker".into());
    }
    let ft = FAVOUR_TILES.len() as u8;
    if !s
        .favour_display
        .iter()
        .chain(s.favours.iter().flatten())
        .all(|t| *t < ft)
    {
        return Err("state field favours: unknown tile".into());
    }
    if s.permits_used.iter().any(|c| *c as usize >= b.n_cities) {
        return Err("state field permits_used: not a city".into());
    }
    if s.east_west.iter().any(|p| *p as usize >= n) {
        return Err("state field east_west: not a seat".into());
    }
    if s.active >= n {
        return Err("state field active: not a seat".into());
    }
    if s.end_reason.is_some_and(|r| r > 2) || s.end_after_action.is_some_and(|r| r > 2) {
        return Err("state field end_reason: unknown reason".into());
    }
    if s.neutral_pool >= 0 && n != 2 {
        return Err("state field neutral_pool: the neutral colour plays only with two".into());
    }
    for f in &s.pending {
        if f.player() >= n {
            return Err("state field pending: player out of range".into());
        }
        if let Some((origin, piece, extras)) = f.relocation() {
            if origin >= b.n_routes || !(-1..=1).contains(&piece) || !(0..=10).contains(&extras) {
                return Err("state field pending: relocation out of range".into());
            }
        }
        if matches!(f, Decision::RelocateNeutral { .. }) && s.neutral_pool < 0 {
            return Err("state field pending: no neutral colour".into());
        }
        if let Decision::PermanentMarker {
            kind,
            left,
            traders,
            merchants,
            ..
        } = *f
        {
            if kind as usize >= crate::board::PERMANENT_MARKERS.len()
                || !(0..=2).contains(&left)
                || !(0..=6).contains(&traders)
                || !(0..=6).contains(&merchants)
            {
                return Err("state field pending: permanent marker out of range".into());
            }
        }
        if matches!(f, Decision::PlaceMarkers { .. }) && s.drawn.is_empty() {
            return Err(
                "state field pending: a bonus-marker placement with no drawn marker".into(),
            );
        }
        if matches!(f, Decision::FavourIncome { .. }) && s.favours.is_empty() {
            return Err("state field pending: no Emperor's Favour in this game".into());
        }
    }
    Ok(())
}
