//! Game logs built in the core (twin of `GameRecorder` and `StallWatch` of
//! `hansa_lab/sim/logs.py`): the `turns` rows (the position at every turn end, scored)
//! and the `events` rows of one game, handed to Python as flat columns.

use crate::actions::*;
use crate::events::Event;
use crate::scoring::score_rows;
use crate::state::{State, EMPTY};

/// Columns of one `turns` row, in this order (the Python side names them).
pub const TURN_COLUMNS: [&str; 26] = [
    "round",
    "turn",
    "acting_seat",
    "seat",
    "actions_used",
    "prestige",
    "proj_track",
    "proj_abilities",
    "proj_markers",
    "proj_special",
    "proj_control",
    "proj_network",
    "proj_regions",
    "lv_actions",
    "lv_bank",
    "lv_book",
    "lv_privilege",
    "lv_keys",
    "supply_t",
    "supply_m",
    "stock_t",
    "stock_m",
    "posts",
    "kontors",
    "markers_held",
    "markers_used",
];

/// Action kinds that use up one of the turn's actions (`USES_AN_ACTION`).
fn uses_an_action(kind: u8) -> bool {
    matches!(kind, K_INCOME | K_PLACE | K_DISPLACE | K_MOVE | K_ESTABLISH)
}

/// One `events` row without the game's key: (action index, round, turn, the event).
pub type EventRow = (i32, i32, i32, Event);

/// Collects the rows of one game while it is played (`GameRecorder`).
#[derive(Clone, Debug, Default)]
pub struct GameLog {
    pub turns: Vec<i32>,
    pub events: Vec<EventRow>,
    turn: i32,
    round: i32,
    acting: usize,
    used: i32,
    snapped_at: i32,
}

impl GameLog {
    /// A log for a game whose next action is taken in the position `s`.
    pub fn new(s: &State) -> GameLog {
        GameLog {
            // a game has some 100-250 turns: no regrowing of the rows as it goes
            turns: Vec::with_capacity(TURN_COLUMNS.len() * s.n_players() * 256),
            events: Vec::with_capacity(512),
            turn: s.turn,
            round: s.round,
            acting: s.active,
            snapped_at: s.n_actions,
            ..GameLog::default()
        }
    }

    /// After action number `index` (of `kind`) was applied, giving `s`.
    pub fn observe(&mut self, s: &State, index: usize, kind: u8) {
        for e in &s.events {
            // logged in the turn the action was taken in, not the next one
            self.events.push((index as i32, self.round, self.turn, *e));
        }
        if uses_an_action(kind) {
            self.used += 1;
        }
        if s.turn != self.turn {
            self.snapshot(s);
            self.turn = s.turn;
            self.round = s.round;
            self.acting = s.active;
            self.used = 0;
        }
    }

    /// Log the last turn: the game ended during it (by rule, or cut short).
    pub fn finish(&mut self, s: &State) {
        if s.n_actions != self.snapped_at {
            self.snapshot(s);
        }
    }

    fn snapshot(&mut self, s: &State) {
        let rows = score_rows(s);
        // pieces on posts and Kontors per colour, one pass each
        let mut posts = [0i32; 8];
        let mut kontors = [0i32; 8];
        for &o in &s.posts {
            if o != EMPTY {
                posts[(o >> 1) as usize] += 1;
            }
        }
        for &o in s.offices.iter().chain(s.extras.iter().flatten()) {
            if o != EMPTY {
                kontors[(o >> 1) as usize] += 1;
            }
        }
        for p in 0..s.n_players() {
            self.turns.extend_from_slice(&[
                self.round,
                self.turn,
                self.acting as i32,
                p as i32,
                if p == self.acting { self.used } else { 0 },
                s.prestige[p],
            ]);
            self.turns.extend_from_slice(&rows[p]);
            self.turns.extend(s.levels[p].iter().map(|&l| l as i32));
            self.turns.extend_from_slice(&[
                s.supply_t[p],
                s.supply_m[p],
                s.stock_t[p],
                s.stock_m[p],
                posts[p],
                kontors[p],
                s.markers[p].len() as i32,
                s.markers_used[p].len() as i32,
            ]);
        }
        self.snapped_at = s.n_actions;
    }
}

/// The longest run of whole rounds in which no prestige and no Kontor changed
/// (`StallWatch`).
#[derive(Clone, Debug)]
pub struct StallWatch {
    round: i32,
    last: Option<(Vec<i32>, usize, usize)>,
    quiet: i32,
    pub longest: i32,
}

impl StallWatch {
    pub fn new(s: &State) -> StallWatch {
        StallWatch {
            round: s.round,
            last: None,
            quiet: 0,
            longest: 0,
        }
    }

    pub fn observe(&mut self, s: &State) {
        if s.round == self.round {
            return;
        }
        self.round = s.round;
        let now = (
            s.prestige.clone(),
            s.offices.iter().filter(|&&o| o == EMPTY).count(),
            s.extras.iter().map(Vec::len).sum::<usize>(),
        );
        self.quiet = if self.last.as_ref() == Some(&now) {
            self.quiet + 1
        } else {
            0
        };
        self.last = Some(now);
        self.longest = self.longest.max(self.quiet);
    }
}
