//! Actions (twin of `hansa_lab/engine/actions.py`): a kind and up to three integers.

/// `ACTION_KINDS` of the Python engine: the turn kinds, then the decision kinds.
pub const ACTION_KINDS: [&str; 23] = [
    "income",
    "place",
    "displace",
    "move",
    "establish",
    "marker",
    "favour",
    "end",
    "move_piece",
    "swap",
    "shift",
    "remove",
    "stop",
    "relocate",
    "relocate_extra",
    "decline",
    "place_marker",
    "favour_take",
    "perm_move",
    "perm_swap",
    "perm_develop",
    "perm_kontor",
    "perm_place",
];
pub const K_INCOME: u8 = 0;
pub const K_PLACE: u8 = 1;
pub const K_DISPLACE: u8 = 2;
pub const K_MOVE: u8 = 3;
pub const K_ESTABLISH: u8 = 4;
pub const K_MARKER: u8 = 5;
pub const K_FAVOUR: u8 = 6;
pub const K_END: u8 = 7;
pub const K_MOVE_PIECE: u8 = 8;
pub const K_SWAP: u8 = 9;
pub const K_SHIFT: u8 = 10;
pub const K_REMOVE: u8 = 11;
pub const K_STOP: u8 = 12;
pub const K_RELOCATE: u8 = 13;
pub const K_RELOCATE_EXTRA: u8 = 14;
pub const K_DECLINE: u8 = 15;
pub const K_PLACE_MARKER: u8 = 16;
pub const K_FAVOUR_TAKE: u8 = 17;
pub const K_PERM_MOVE: u8 = 18;
pub const K_PERM_SWAP: u8 = 19;
pub const K_PERM_DEVELOP: u8 = 20;
pub const K_PERM_KONTOR: u8 = 21;
pub const K_PERM_PLACE: u8 = 22;
/// kinds before this one start from the turn itself
pub const N_TURN_KINDS: u8 = 8;

// establish rewards (Action.b)
pub const R_NONE: i32 = 0;
pub const R_KONTOR: i32 = 1;
pub const R_EXTRA: i32 = 2;
pub const R_DEVELOP: i32 = 3;
pub const R_SPECIAL: i32 = 4;

/// `USABLE_MARKERS` (Action.a of a `marker` action) as marker kinds.
pub const USABLE_MARKERS: [u8; 6] = [
    crate::state::MK_PLUS3,
    crate::state::MK_PLUS4,
    crate::state::MK_DEVELOP,
    crate::state::MK_SWAP,
    crate::state::MK_MOVE3,
    crate::state::MK_REMOVE3,
];
pub const M_PLUS3: i32 = 0;
pub const M_PLUS4: i32 = 1;
pub const M_DEVELOP: i32 = 2;
pub const M_SWAP: i32 = 3;
pub const M_MOVE3: i32 = 4;
pub const M_REMOVE3: i32 = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub kind: u8,
    pub a: i32,
    pub b: i32,
    pub c: i32,
}

impl Action {
    #[inline]
    pub const fn new(kind: u8, a: i32, b: i32, c: i32) -> Action {
        Action { kind, a, b, c }
    }
    #[inline]
    pub const fn k(kind: u8) -> Action {
        Action::new(kind, -1, -1, -1)
    }
    #[inline]
    pub const fn k1(kind: u8, a: i32) -> Action {
        Action::new(kind, a, -1, -1)
    }
    #[inline]
    pub const fn k2(kind: u8, a: i32, b: i32) -> Action {
        Action::new(kind, a, b, -1)
    }
    pub fn kind_name(&self) -> &'static str {
        ACTION_KINDS.get(self.kind as usize).copied().unwrap_or("?")
    }
}

pub fn kind_index(name: &str) -> Option<u8> {
    ACTION_KINDS
        .iter()
        .position(|k| *k == name)
        .map(|i| i as u8)
}
