//! Observations (twin of `hansa_lab/env/observation.py`): a fixed-size `f32` vector of
//! what one seat can see. Colours are relative to the observing seat (0 = itself, then
//! turn order, `n` = the neutral colour); the replacement markers' order stays hidden.

use crate::decisions::Decision;
use crate::state::{State, EMPTY, FAVOUR_TILES, MARKER_KINDS};

/// The fields in order, as the Python reference names them.
pub const FIELD_NAMES: [&str; 19] = [
    "posts",
    "offices",
    "extra_kontors",
    "route_markers",
    "special_spaces",
    "players",
    "neutral_pool",
    "unplaced_markers",
    "drawn_markers",
    "drawn_count",
    "discarded_markers",
    "favour_display",
    "turn",
    "active",
    "to_act",
    "decision",
    "decision_numbers",
    "permits_used",
    "seat",
];
const N_MK: usize = MARKER_KINDS.len();
/// prestige, 5 levels, supply and stock of both pieces, markers held and used by kind,
/// favour tiles, east-west
pub const PLAYER_WIDTH: usize = 1 + 5 + 4 + 2 * N_MK + FAVOUR_TILES.len() + 1;
pub const TURN_WIDTH: usize = 5;
pub const N_DECISION_KINDS: usize = 8;

/// Where each field starts for one configuration (board side and player count).
#[derive(Clone, Debug)]
pub struct Layout {
    pub n_players: usize,
    pub n_colours: usize,
    pub sizes: [usize; FIELD_NAMES.len()],
    pub start: [usize; FIELD_NAMES.len() + 1],
}

const F_POSTS: usize = 0;
const F_OFFICES: usize = 1;
const F_EXTRA: usize = 2;
const F_ROUTE_MARKERS: usize = 3;
const F_SPECIAL: usize = 4;
const F_PLAYERS: usize = 5;
const F_NEUTRAL: usize = 6;
const F_UNPLACED: usize = 7;
const F_DRAWN: usize = 8;
const F_DRAWN_COUNT: usize = 9;
const F_DISCARDED: usize = 10;
const F_FAVOUR_DISPLAY: usize = 11;
const F_TURN: usize = 12;
const F_ACTIVE: usize = 13;
const F_TO_ACT: usize = 14;
const F_DECISION: usize = 15;
const F_DECISION_NUMBERS: usize = 16;
const F_PERMITS: usize = 17;
const F_SEAT: usize = 18;

impl Layout {
    pub fn new(b: &crate::board::Board, n_players: usize) -> Layout {
        let n = n_players;
        let nc = n + usize::from(n == 2);
        let sizes = [
            b.n_posts * 2 * nc,
            b.n_offices * 2 * nc,
            b.n_cities * nc,
            b.n_routes * N_MK,
            b.special_spaces.len() * nc,
            n * PLAYER_WIDTH,
            1,
            N_MK,
            N_MK,
            1,
            N_MK,
            FAVOUR_TILES.len(),
            TURN_WIDTH,
            n,
            n,
            1 + N_DECISION_KINDS,
            2,
            b.n_cities,
            n,
        ];
        let mut start = [0; FIELD_NAMES.len() + 1];
        for f in 0..sizes.len() {
            start[f + 1] = start[f] + sizes[f];
        }
        Layout {
            n_players: n,
            n_colours: nc,
            sizes,
            start,
        }
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.start[FIELD_NAMES.len()]
    }
}

/// (index into the decision field, the top decision's count of pieces or moves left).
fn decision_numbers(s: &State) -> (usize, f32) {
    match s.pending.last() {
        None => (0, 0.0),
        Some(d) => match *d {
            Decision::Relocate { piece, extras, .. } => {
                (1, (extras + i32::from(piece >= 0)) as f32)
            }
            Decision::RelocateNeutral { piece, extras, .. } => {
                (2, (extras + i32::from(piece >= 0)) as f32)
            }
            Decision::Move { left, .. } => (3, left as f32),
            Decision::MoveOpponents { left, .. } => (4, left as f32),
            Decision::RemoveOpponents { left, .. } => (5, left as f32),
            Decision::PlaceMarkers { .. } => (6, 0.0),
            Decision::PermanentMarker { left, .. } => (7, left as f32),
            Decision::FavourIncome { .. } => (8, 0.0),
        },
    }
}

/// colour -> colour relative to `seat` (a table: no division per piece)
fn relative_colours(n: usize, seat: usize) -> [usize; 8] {
    let mut rel_of = [n; 8];
    for (c, r) in rel_of.iter_mut().enumerate().take(n) {
        *r = (c + n - seat) % n;
    }
    rel_of
}

/// The channel of each occupant within its row of `2 * nc` channels: `channel[o + 1]` is
/// occupant `o`'s (`channel[0]`, the empty space's, is 0 and never set to 1).
fn piece_channels(lay: &Layout, rel_of: &[usize; 8]) -> [usize; 2 * 6 + 1] {
    let mut channel = [0usize; 2 * 6 + 1];
    for o in 0..2 * lay.n_colours {
        channel[o + 1] = 2 * rel_of[o >> 1] + (o & 1);
    }
    channel
}

/// Write the observation of `seat` into `out` (length [`Layout::size`]).
pub fn observe_into(s: &State, seat: usize, lay: &Layout, out: &mut [f32]) {
    let rel_of = relative_colours(lay.n_players, seat);
    let channel = piece_channels(lay, &rel_of);
    let w = 2 * lay.n_colours;
    let st = &lay.start;
    // one fill, then branch-free (occupancy is as good as random to a branch predictor):
    // an empty space adds 0 to its row's first channel
    out[..st[F_EXTRA]].fill(0.0);
    let pieces = |occupants: &[i8], rows: &mut [f32]| {
        for (&o, row) in occupants.iter().zip(rows.chunks_exact_mut(w)) {
            row[channel[(o + 1) as usize]] += f32::from(u8::from(o != EMPTY));
        }
    };
    pieces(&s.posts, &mut out[st[F_POSTS]..st[F_POSTS + 1]]);
    pieces(&s.offices, &mut out[st[F_OFFICES]..st[F_OFFICES + 1]]);
    observe_rest(s, seat, lay, &rel_of, out, Kept::default());
}

/// What an observation buffer row holds of the posts, offices and markers (for
/// [`observe_update`]): the seat it was written for, the occupants and the markers it
/// shows.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// None: the row's contents are unknown (write it whole)
    pub seat: Option<usize>,
    pub posts: Vec<i8>,
    pub offices: Vec<i8>,
    /// the route markers and the unplaced markers (bag, then drawn) it shows
    pub route_marker: Vec<i8>,
    pub unplaced: (Vec<u8>, Vec<u8>),
}

/// The fields of [`observe_rest`] a row already holds (they are left as they are).
#[derive(Clone, Copy, Debug, Default)]
struct Kept {
    route_markers: bool,
    unplaced: bool,
}

/// [`observe_into`] for a buffer row that holds the observation `written` describes: the
/// rows of posts and offices whose occupant is unchanged (and the seat the same), and the
/// route-marker and unplaced-marker fields when they show the same markers, are left as
/// they are, the rest is written; `written` then describes the new contents. After a
/// seat change (colours are seat-relative) only the rows empty before and after are left
/// (they are all 0). The result equals [`observe_into`]'s.
pub fn observe_update(
    s: &State,
    seat: usize,
    lay: &Layout,
    out: &mut [f32],
    written: &mut Written,
) {
    let Some(was_seat) = written.seat else {
        observe_into(s, seat, lay, out);
        written.seat = Some(seat);
        written.posts.clone_from(&s.posts);
        written.offices.clone_from(&s.offices);
        written.route_marker.clone_from(&s.route_marker);
        written.unplaced.0.clone_from(&s.bag);
        written.unplaced.1.clone_from(&s.drawn);
        return;
    };
    let same_seat = was_seat == seat;
    written.seat = Some(seat);
    let rel_of = relative_colours(lay.n_players, seat);
    let channel = piece_channels(lay, &rel_of);
    // the channels the row's occupants were written in (the old seat's colours)
    let old_channel = if same_seat {
        channel
    } else {
        piece_channels(lay, &relative_colours(lay.n_players, was_seat))
    };
    let w = 2 * lay.n_colours;
    let st = &lay.start;
    for (field, now, was) in [
        (F_POSTS, &s.posts, &mut written.posts),
        (F_OFFICES, &s.offices, &mut written.offices),
    ] {
        // the same seat and the same occupants: nothing to write (one comparison)
        if same_seat && now == was {
            continue;
        }
        let rows = &mut out[st[field]..st[field + 1]];
        let spaces = Spaces {
            w,
            same_seat,
            channel: &channel,
            old_channel: &old_channel,
        };
        // eight spaces at a time, as one word, then the short group left
        let whole = now.len() / 8 * 8;
        let (now_whole, now_rest) = now.split_at(whole);
        let (was_whole, was_rest) = was.split_at_mut(whole);
        for (g, (now8, was8)) in now_whole
            .chunks_exact(8)
            .zip(was_whole.chunks_exact_mut(8))
            .enumerate()
        {
            spaces.update(rows, g, now8, was8);
        }
        if !now_rest.is_empty() {
            spaces.update(rows, whole / 8, now_rest, was_rest);
        }
    }
    // fields that do not depend on the seat, left as they are when unchanged
    let kept = Kept {
        route_markers: written.route_marker == s.route_marker,
        unplaced: written.unplaced.0 == s.bag && written.unplaced.1 == s.drawn,
    };
    if !kept.route_markers {
        written.route_marker.clone_from(&s.route_marker);
    }
    if !kept.unplaced {
        written.unplaced.0.clone_from(&s.bag);
        written.unplaced.1.clone_from(&s.drawn);
    }
    observe_rest(s, seat, lay, &rel_of, out, kept);
}

/// How [`observe_update`] writes the rows of one field's spaces (posts or offices).
struct Spaces<'a> {
    /// channels per row
    w: usize,
    same_seat: bool,
    /// each occupant's channel for the new seat and for the one the row was written for
    channel: &'a [usize; 2 * 6 + 1],
    old_channel: &'a [usize; 2 * 6 + 1],
}

impl Spaces<'_> {
    /// Write the rows of group `g` (up to eight spaces, occupants `now`) that are stale
    /// given what they show (`was`, then set to `now`).
    #[inline(always)]
    fn update(&self, rows: &mut [f32], g: usize, now: &[i8], was: &mut [i8]) {
        let (n, o) = (word(now), word(was));
        // a byte of `stale` is nonzero for a space whose row must be written: a new
        // occupant (same seat), or not empty before and after (a new seat)
        let mut stale = if self.same_seat { n ^ o } else { !(n & o) };
        while stale != 0 {
            let k = (stale.trailing_zeros() / 8) as usize;
            stale &= !(0xff << (8 * k));
            // the row holds one 1 (its old occupant's channel) or none (empty): clear that
            // channel, then set the new occupant's (channel 0 gets a 0 for an empty space)
            let row = (8 * g + k) * self.w;
            let (now_k, was_k) = ((n >> (8 * k)) as u8 as i8, (o >> (8 * k)) as u8 as i8);
            rows[row + self.old_channel[(was_k + 1) as usize]] = 0.0;
            rows[row + self.channel[(now_k + 1) as usize]] = f32::from(u8::from(now_k != EMPTY));
        }
        if n != o {
            set_word(was, n);
        }
    }
}

/// Up to eight spaces' occupants as the bytes of one word (first space lowest), a short
/// group padded with empty spaces.
#[inline]
fn word(spaces: &[i8]) -> u64 {
    // a whole group as one 8-byte load, not a loop
    if let Ok(group) = <&[i8; 8]>::try_from(spaces) {
        return u64::from_le_bytes(group.map(|o| o as u8));
    }
    let mut bytes = [EMPTY as u8; 8];
    for (b, &o) in bytes.iter_mut().zip(spaces) {
        *b = o as u8;
    }
    u64::from_le_bytes(bytes)
}

/// Store [`word`]'s bytes back into up to eight spaces.
#[inline]
fn set_word(spaces: &mut [i8], w: u64) {
    let bytes = w.to_le_bytes().map(|b| b as i8);
    if let Ok(group) = <&mut [i8; 8]>::try_from(&mut *spaces) {
        *group = bytes;
        return;
    }
    let k = spaces.len();
    spaces.copy_from_slice(&bytes[..k]);
}

/// Every field after the posts and offices (zeroed, then written), but those `kept`.
fn observe_rest(
    s: &State,
    seat: usize,
    lay: &Layout,
    rel_of: &[usize; 8],
    out: &mut [f32],
    kept: Kept,
) {
    let n = lay.n_players;
    let nc = lay.n_colours;
    let rel = |colour: usize| rel_of[colour];
    let st = &lay.start;
    // zero every field from the extra Kontors on, but the kept ones
    let mut from = st[F_EXTRA];
    for (field, keep) in [
        (F_ROUTE_MARKERS, kept.route_markers),
        (F_UNPLACED, kept.unplaced),
    ] {
        if keep {
            out[from..st[field]].fill(0.0);
            from = st[field + 1];
        }
    }
    out[from..].fill(0.0);
    for (c, extra) in s.extras.iter().enumerate() {
        for &o in extra {
            out[st[F_EXTRA] + c * nc + rel(o as usize >> 1)] += 1.0;
        }
    }
    if !kept.route_markers {
        for (r, &m) in s.route_marker.iter().enumerate() {
            if m >= 0 {
                out[st[F_ROUTE_MARKERS] + r * N_MK + m as usize] = 1.0;
            }
        }
    }
    for (j, &o) in s.special.iter().enumerate() {
        if o != EMPTY {
            out[st[F_SPECIAL] + j * nc + rel(o as usize >> 1)] = 1.0;
        }
    }
    for p in 0..n {
        let row = st[F_PLAYERS] + rel(p) * PLAYER_WIDTH;
        out[row] = s.prestige[p] as f32;
        for a in 0..5 {
            out[row + 1 + a] = f32::from(s.levels[p][a]);
        }
        out[row + 6] = s.supply_t[p] as f32;
        out[row + 7] = s.supply_m[p] as f32;
        out[row + 8] = s.stock_t[p] as f32;
        out[row + 9] = s.stock_m[p] as f32;
        for &m in &s.markers[p] {
            out[row + 10 + m as usize] += 1.0;
        }
        for &m in &s.markers_used[p] {
            out[row + 10 + N_MK + m as usize] += 1.0;
        }
        if let Some(tiles) = s.favours.get(p) {
            for &t in tiles {
                out[row + 10 + 2 * N_MK + t as usize] = 1.0;
            }
        }
        if s.east_west.iter().any(|&x| x as usize == p) {
            out[row + PLAYER_WIDTH - 1] = 1.0;
        }
    }
    out[st[F_NEUTRAL]] = s.neutral_pool.max(0) as f32;
    if !kept.unplaced {
        for &m in s.bag.iter().chain(s.drawn.iter()) {
            out[st[F_UNPLACED] + m as usize] += 1.0;
        }
    }
    if seat == s.active {
        for &m in &s.drawn {
            out[st[F_DRAWN] + m as usize] += 1.0;
        }
    }
    out[st[F_DRAWN_COUNT]] = s.drawn.len() as f32;
    for &m in &s.discarded {
        out[st[F_DISCARDED] + m as usize] += 1.0;
    }
    for &t in &s.favour_display {
        out[st[F_FAVOUR_DISPLAY] + t as usize] = 1.0;
    }
    let t = st[F_TURN];
    out[t] = s.actions_left as f32;
    out[t + 1] = s.round as f32;
    out[t + 2] = s.completed as f32;
    out[t + 3] = f32::from(u8::from(s.n_actions == s.turn_start));
    out[t + 4] = f32::from(u8::from(s.is_over()));
    out[st[F_ACTIVE] + rel(s.active)] = 1.0;
    out[st[F_TO_ACT] + rel(s.current_player())] = 1.0;
    let (kind, left) = decision_numbers(s);
    out[st[F_DECISION] + kind] = 1.0;
    out[st[F_DECISION_NUMBERS]] = left;
    out[st[F_DECISION_NUMBERS] + 1] = s.pending.len() as f32;
    for &c in &s.permits_used {
        out[st[F_PERMITS] + c as usize] = 1.0;
    }
    out[st[F_SEAT] + seat] = 1.0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::{apply_unchecked, legal_actions};
    use crate::state::{new_game, Config};
    use crate::strategies::random_policy;

    #[test]
    fn an_updated_row_equals_a_whole_observation() {
        for (n, side) in [
            (2, "base_3p"),
            (3, "base_3p"),
            (4, "east"),
            (5, "britannia_45p"),
        ] {
            let mut s = new_game(&Config::printed(n, side, 3)).unwrap();
            let lay = Layout::new(s.board, n);
            let (mut row, mut whole) = (vec![7.0; lay.size()], vec![0.0; lay.size()]);
            let mut written = Written::default();
            let (mut rng, mut legal) = (Rng::new(5), Vec::new());
            for _ in 0..400 {
                if s.is_over() {
                    break;
                }
                let seat = s.current_player();
                observe_update(&s, seat, &lay, &mut row, &mut written);
                observe_into(&s, seat, &lay, &mut whole);
                assert_eq!(row, whole, "{side} {n} players, action {}", s.n_actions);
                legal_actions(&s, &mut legal);
                let a = random_policy::choose(&s, &legal, &mut rng);
                apply_unchecked(&mut s, &a);
            }
        }
    }
}
