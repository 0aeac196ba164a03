//! Positions as text (twin of `hansa_lab/engine/position.py`): one line holding a whole
//! game state, the same text in both engines (reading in `position/read.rs`).
//!
//! The line is the version tag [`VERSION`] and then `field=value` tokens separated by
//! single spaces in the order of [`FIELDS`]; docs/guides/positions.md documents every
//! field. The core does not know the names of the rule options, so [`to_text`] takes the
//! `options` token's JSON from its caller and [`from_text`] takes the configuration the
//! text must describe (its board, players, edition and seed are checked against it).

use std::fmt;

use crate::board::PERMANENT_MARKERS;
use crate::decisions::Decision;
use crate::state::{State, EMPTY, END_REASONS, FAVOUR_TILES};

mod read;
pub use read::from_text;

/// The first token of every position text.
pub const VERSION: &str = "hansa1";
/// One letter per bonus-marker kind, in `MARKER_KINDS` order.
pub const MARKER_LETTERS: [u8; 7] = [b'x', b's', b'm', b'r', b'd', b'3', b'4'];
pub(crate) const EDITIONS: [&str; 2] = ["bigbox", "original"];
/// The fields after the version tag, in order.
pub const FIELDS: [&str; 37] = [
    "board",
    "players",
    "edition",
    "seed",
    "round",
    "turn",
    "active",
    "actions_left",
    "turn_start",
    "n_actions",
    "completed",
    "posts",
    "offices",
    "extras",
    "special",
    "supply_t",
    "supply_m",
    "stock_t",
    "stock_m",
    "prestige",
    "levels",
    "markers",
    "markers_used",
    "route_marker",
    "bag",
    "drawn",
    "discarded",
    "special_points",
    "east_west",
    "permits_used",
    "neutral_pool",
    "favour_display",
    "favours",
    "pending",
    "end_reason",
    "end_after_action",
    "options",
];

/// Text that is not a position: the message names the field and its column (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

// ------------------------------------------------------------------------- writing
fn occupants(out: &mut String, values: &[i8]) {
    for &o in values {
        if o == EMPTY {
            out.push('.');
        } else {
            out.push((b'0' + (o >> 1) as u8) as char);
            out.push(if o & 1 == 0 { 't' } else { 'm' });
        }
    }
}

/// Groups separated by `/`; an empty group is `-`.
fn groups<T>(items: impl Iterator<Item = T>, mut one: impl FnMut(&mut String, T)) -> String {
    let mut out = String::new();
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push('/');
        }
        let start = out.len();
        one(&mut out, item);
        if out.len() == start {
            out.push('-');
        }
    }
    out
}

fn ints<T: fmt::Display>(values: &[T]) -> String {
    if values.is_empty() {
        return "-".into();
    }
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn letters(out: &mut String, markers: &[u8]) {
    out.extend(markers.iter().map(|&m| MARKER_LETTERS[m as usize] as char));
}

fn or_dash(s: String) -> String {
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

fn names(table: &[&str], codes: &[u8]) -> String {
    codes
        .iter()
        .map(|&k| table[k as usize])
        .collect::<Vec<_>>()
        .join(",")
}

fn decision_text(out: &mut String, d: &Decision) {
    out.push_str(d.kind());
    for (i, v) in d.values().into_iter().enumerate() {
        out.push(':');
        match d {
            Decision::PermanentMarker { .. } if i == 1 => {
                out.push_str(PERMANENT_MARKERS[v as usize])
            }
            _ => out.push_str(&v.to_string()),
        }
    }
}

fn end_name(r: Option<u8>) -> &'static str {
    r.map_or("-", |k| END_REASONS[k as usize])
}

/// The position as one line of text; `options` is the configuration's rule options as
/// the Python engine writes them (compact JSON, `{}` for the printed game).
pub fn to_text(s: &State, options: &str) -> String {
    let b = s.board;
    let c = &s.config;
    let posts = groups(0..b.n_routes, |o, r| {
        occupants(o, &s.posts[b.post_start[r]..b.post_start[r + 1]])
    });
    let offices = groups(0..b.n_cities, |o, k| {
        occupants(o, &s.offices[b.office_start[k]..b.office_start[k + 1]])
    });
    let extras = groups(s.extras.iter(), |o, x| occupants(o, x));
    let mut special = String::new();
    occupants(&mut special, &s.special);
    let levels = groups(s.levels.iter(), |o, lv| {
        o.extend(lv.iter().map(|&v| char::from(b'0' + v)))
    });
    let mut route_marker = String::new();
    for &m in &s.route_marker {
        route_marker.push(if m < 0 {
            '.'
        } else {
            MARKER_LETTERS[m as usize] as char
        });
    }
    let marker_text = |v: &[u8]| {
        let mut o = String::new();
        letters(&mut o, v);
        or_dash(o)
    };
    let favours = if s.favours.is_empty() {
        "-".into()
    } else {
        groups(s.favours.iter(), |o, f| {
            o.push_str(&names(&FAVOUR_TILES, f))
        })
    };
    let pending = if s.pending.is_empty() {
        "-".into()
    } else {
        groups(s.pending.iter(), decision_text)
    };
    let values: [String; 37] = [
        c.side.clone(),
        c.n_players.to_string(),
        EDITIONS[c.edition as usize].into(),
        c.seed.to_string(),
        s.round.to_string(),
        s.turn.to_string(),
        s.active.to_string(),
        s.actions_left.to_string(),
        s.turn_start.to_string(),
        s.n_actions.to_string(),
        s.completed.to_string(),
        posts,
        offices,
        extras,
        or_dash(special),
        ints(&s.supply_t),
        ints(&s.supply_m),
        ints(&s.stock_t),
        ints(&s.stock_m),
        ints(&s.prestige),
        levels,
        groups(s.markers.iter(), |o, m| letters(o, m)),
        groups(s.markers_used.iter(), |o, m| letters(o, m)),
        route_marker,
        marker_text(&s.bag),
        marker_text(&s.drawn),
        marker_text(&s.discarded),
        ints(&s.special_points),
        ints(&s.east_west),
        ints(&s.permits_used),
        s.neutral_pool.to_string(),
        or_dash(names(&FAVOUR_TILES, &s.favour_display)),
        favours,
        pending,
        end_name(s.end_reason).into(),
        end_name(s.end_after_action).into(),
        options.into(),
    ];
    let mut out = String::from(VERSION);
    for (name, value) in FIELDS.iter().zip(values.iter()) {
        out.push(' ');
        out.push_str(name);
        out.push('=');
        out.push_str(value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{apply_unchecked, legal};
    use crate::state::{new_game, Config};

    fn game(n: usize, side: &str, seed: u64) -> Config {
        Config::printed(n, side, seed)
    }

    #[test]
    fn positions_of_random_games_round_trip() {
        for (n, side) in [
            (3, "base_3p"),
            (2, "base_3p"),
            (4, "east"),
            (5, "britannia_45p"),
        ] {
            let c = game(n, side, 5);
            let mut s = new_game(&c).unwrap();
            let mut k = 0usize;
            while !s.is_over() && s.n_actions < 400 {
                let text = to_text(&s, "{}");
                let back = from_text(&text, &c).unwrap();
                assert_eq!(to_text(&back, "{}"), text);
                let acts = legal(&s);
                k = (k * 31 + 7) % acts.len().max(1);
                apply_unchecked(&mut s, &acts[k]);
            }
        }
    }

    #[test]
    fn malformed_text_names_the_field_and_column() {
        let c = game(3, "base_3p", 1);
        let text = to_text(&new_game(&c).unwrap(), "{}");
        let bad = text.replace("supply_t=5,6,7", "supply_t=5,x,7");
        let err = from_text(&bad, &c).unwrap_err().0;
        let column = bad.find("supply_t=").unwrap() + 1 + "supply_t=".len();
        assert!(
            err.contains(&format!("field 'supply_t' at column {column}")),
            "{err}"
        );
        let err = from_text(&text.replace(" bag=", " bug="), &c)
            .unwrap_err()
            .0;
        assert!(err.contains("expected field 'bag'"), "{err}");
        let err = from_text(&text.replace("players=3", "players=4"), &c)
            .unwrap_err()
            .0;
        assert!(err.contains("field 'board'"), "{err}");
    }
}
