//! Britannia's countries: Place/Displace permissions in Wales and Scotland (twin of
//! `variants/regions.py`). Countries are bitmasks: bit 0 is England (the home country).

use crate::state::{State, EMPTY};

/// Colour owning the rightmost Kontor of city `c` (-1 if it has none).
pub fn rightmost_owner(s: &State, c: usize) -> i32 {
    let b = s.board;
    for i in b.city_offices(c).rev() {
        if s.offices[i] != EMPTY {
            return (s.offices[i] >> 1) as i32;
        }
    }
    s.extras[c].last().map_or(-1, |o| (o >> 1) as i32)
}

/// Permission cities `p` may still use this turn, fewest countries first.
fn open_permits(s: &State, p: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
    s.board
        .permission_cities
        .iter()
        .copied()
        .filter(move |(c, _)| {
            !s.permits_used.contains(&(*c as u8)) && rightmost_owner(s, *c) == p as i32
        })
}

/// Countries (bitmask) where `p` may Place/Displace now: England plus open permissions.
pub fn permitted_countries(s: &State, p: usize) -> u32 {
    open_permits(s, p).fold(1, |acc, (_, m)| acc | m)
}

/// Use the open permission granting the fewest countries for an action in `country`.
pub fn use_permit(s: &mut State, p: usize, country: usize) {
    let found = open_permits(s, p).find(|(_, m)| m & (1 << country) != 0);
    if let Some((c, _)) = found {
        s.permits_used.push(c as u8);
        s.events.push(
            crate::events::Event::new(crate::events::E_PERMIT)
                .seat(p as i32)
                .city(c),
        );
    }
}
