//! Events (twin of `hansa_lab/engine/events.py`): what the last applied action caused,
//! one record per event with the Python engine's fields; `detail` is kept as a code and
//! becomes the Python text in the bindings.

/// Event kinds, in `EVENT_KINDS` order of the Python engine.
pub const EVENT_KINDS: [&str; 18] = [
    "establish",
    "displace",
    "develop",
    "kontor",
    "prestige",
    "special",
    "marker_taken",
    "marker_used",
    "marker_placed",
    "marker_discarded",
    "east_west",
    "city_completed",
    "game_end",
    "permanent",
    "permit",
    "favour",
    "favour_income",
    "neutral_placed",
];
pub const E_ESTABLISH: u8 = 0;
pub const E_DISPLACE: u8 = 1;
pub const E_DEVELOP: u8 = 2;
pub const E_KONTOR: u8 = 3;
pub const E_PRESTIGE: u8 = 4;
pub const E_SPECIAL: u8 = 5;
pub const E_MARKER_TAKEN: u8 = 6;
pub const E_MARKER_USED: u8 = 7;
pub const E_MARKER_PLACED: u8 = 8;
pub const E_MARKER_DISCARDED: u8 = 9;
pub const E_EAST_WEST: u8 = 10;
pub const E_CITY_COMPLETED: u8 = 11;
pub const E_GAME_END: u8 = 12;
pub const E_PERMANENT: u8 = 13;
pub const E_PERMIT: u8 = 14;
pub const E_FAVOUR: u8 = 15;
pub const E_FAVOUR_INCOME: u8 = 16;
pub const E_NEUTRAL_PLACED: u8 = 17;

/// The `detail` text of an event, as a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    None,
    /// PIECE_NAMES
    Piece(u8),
    /// ABILITIES
    Ability(u8),
    /// MARKER_KINDS
    Marker(u8),
    /// "control", "coin", "east_west"
    Cause(u8),
    /// END_REASONS
    Reason(u8),
    /// FAVOUR_TILES
    Tile(u8),
    /// PERMANENT_MARKERS
    Permanent(u8),
    /// a number printed as text
    Number(i32),
}

pub const CAUSES: [&str; 3] = ["control", "coin", "east_west"];
pub const C_CONTROL: u8 = 0;
pub const C_COIN: u8 = 1;
pub const C_EAST_WEST: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub kind: u8,
    pub seat: i32,
    pub other: i32,
    pub route: i32,
    pub city: i32,
    pub detail: Detail,
    pub value: i32,
}

impl Event {
    pub fn new(kind: u8) -> Event {
        Event {
            kind,
            seat: -1,
            other: -1,
            route: -1,
            city: -1,
            detail: Detail::None,
            value: -1,
        }
    }
    pub fn seat(mut self, seat: i32) -> Event {
        self.seat = seat;
        self
    }
    pub fn other(mut self, other: i32) -> Event {
        self.other = other;
        self
    }
    pub fn route(mut self, route: usize) -> Event {
        self.route = route as i32;
        self
    }
    pub fn city(mut self, city: usize) -> Event {
        self.city = city as i32;
        self
    }
    pub fn detail(mut self, detail: Detail) -> Event {
        self.detail = detail;
        self
    }
    pub fn value(mut self, value: i32) -> Event {
        self.value = value;
        self
    }
}

/// The `detail` text the Python engine writes.
pub fn detail_text(d: Detail) -> String {
    use crate::board::{ABILITIES, PERMANENT_MARKERS, PIECE_NAMES};
    use crate::state::{END_REASONS, FAVOUR_TILES, MARKER_KINDS};
    let pick = |t: &[&str], i: u8| t.get(i as usize).copied().unwrap_or("?").to_string();
    match d {
        Detail::None => String::new(),
        Detail::Piece(i) => pick(&PIECE_NAMES, i),
        Detail::Ability(i) => pick(&ABILITIES, i),
        Detail::Marker(i) => pick(&MARKER_KINDS, i),
        Detail::Cause(i) => pick(&CAUSES, i),
        Detail::Reason(i) => pick(&END_REASONS, i),
        Detail::Tile(i) => pick(&FAVOUR_TILES, i),
        Detail::Permanent(i) => pick(&PERMANENT_MARKERS, i),
        Detail::Number(n) => n.to_string(),
    }
}
