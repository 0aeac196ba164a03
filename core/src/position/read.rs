//! Reading position text (`from_text`): the tokens, each field's syntax and ranges, and
//! the check of the text's configuration against the game's.

use super::{PositionError, EDITIONS, FIELDS, MARKER_LETTERS, VERSION};
use crate::board::{ABILITIES, PERMANENT_MARKERS, PLAYER_BOARD};
use crate::decisions::Decision;
use crate::state::{Config, State, EMPTY, END_REASONS, FAVOUR_TILES};
use std::fmt;

/// The longest integer (in digits) a field can hold: a seed below 2**63.
const MAX_DIGITS: usize = 19;
/// The characters stripped from both ends of a text (the Python reader strips the same).
const BLANKS: [char; 4] = [' ', '\t', '\r', '\n'];

/// One `field=value` token and the column of its value (1-based).
struct Token<'a> {
    name: &'static str,
    value: &'a str,
    column: usize,
}

impl Token<'_> {
    fn fail(&self, why: impl fmt::Display) -> PositionError {
        let shown: String = self.value.chars().take(60).collect();
        PositionError(format!(
            "position text: field '{}' at column {}: {why} (got '{shown}')",
            self.name, self.column
        ))
    }

    /// An integer as the writer writes it: digits with an optional `-`, no leading zero,
    /// no `-0`, and within `lo`-`hi` (so never more digits than `hi` has).
    fn int(&self, text: &str, lo: i64, hi: i64) -> Result<i64, PositionError> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(self.fail("expected an integer"));
        }
        if digits.len() > MAX_DIGITS {
            return Err(self.fail(format!(
                "{}… ({} digits) is outside {lo}-{hi}",
                &text[..MAX_DIGITS],
                digits.len()
            )));
        }
        if (digits.len() > 1 && digits.starts_with('0')) || text == "-0" {
            return Err(self.fail(format!(
                "'{text}' is not an integer as the writer writes it (no leading zero, no \
                 sign on 0)"
            )));
        }
        let n: i64 = text
            .parse()
            .map_err(|_| self.fail(format!("{text} is outside {lo}-{hi}")))?;
        if n < lo || n > hi {
            return Err(self.fail(format!("{n} is outside {lo}-{hi}")));
        }
        Ok(n)
    }

    fn whole(&self, lo: i64, hi: i64) -> Result<i64, PositionError> {
        self.int(self.value, lo, hi)
    }

    fn int_list(&self, lo: i64, hi: i64, count: Option<usize>) -> Result<Vec<i64>, PositionError> {
        let out: Vec<i64> = if self.value == "-" {
            Vec::new()
        } else {
            self.value
                .split(',')
                .map(|v| self.int(v, lo, hi))
                .collect::<Result<_, _>>()?
        };
        match count {
            Some(n) if out.len() != n => Err(self.fail(format!(
                "expected {n} comma-separated integers, found {}",
                out.len()
            ))),
            _ => Ok(out),
        }
    }

    /// The `/`-separated groups (`-` = empty), `count` of them when given.
    fn split(&self, count: Option<usize>) -> Result<Vec<&str>, PositionError> {
        let groups: Vec<&str> = self
            .value
            .split('/')
            .map(|g| if g == "-" { "" } else { g })
            .collect();
        match count {
            Some(n) if groups.len() != n => Err(self.fail(format!(
                "expected {n} groups separated by '/', found {}",
                groups.len()
            ))),
            _ => Ok(groups),
        }
    }

    fn maybe_empty(&self) -> &str {
        if self.value == "-" {
            ""
        } else {
            self.value
        }
    }

    fn occupants(
        &self,
        text: &str,
        colours: usize,
        size: Option<usize>,
    ) -> Result<Vec<i8>, PositionError> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'.' {
                out.push(EMPTY);
                i += 1;
                continue;
            }
            let colour = bytes[i].wrapping_sub(b'0') as usize;
            let piece = bytes.get(i + 1).and_then(|p| match p {
                b't' => Some(0),
                b'm' => Some(1),
                _ => None,
            });
            match piece {
                Some(p) if bytes[i].is_ascii_digit() && colour < colours => {
                    out.push((colour * 2 + p) as i8);
                    i += 2;
                }
                _ => {
                    let bad: String = text[i..].chars().take(2).collect();
                    return Err(self.fail(format!(
                        "bad occupant '{bad}' (expected '.' or a colour 0-{} and t/m)",
                        colours - 1
                    )));
                }
            }
        }
        match size {
            Some(n) if out.len() != n => Err(self.fail(format!(
                "expected {n} occupants in '{text}', found {}",
                out.len()
            ))),
            _ => Ok(out),
        }
    }

    fn markers(&self, text: &str) -> Result<Vec<u8>, PositionError> {
        text.bytes()
            .map(|ch| {
                MARKER_LETTERS
                    .iter()
                    .position(|&l| l == ch)
                    .map(|k| k as u8)
                    .ok_or_else(|| {
                        let all: String = MARKER_LETTERS.iter().map(|&l| l as char).collect();
                        self.fail(format!(
                            "unknown marker letter '{}' (letters: {all})",
                            ch as char
                        ))
                    })
            })
            .collect()
    }

    fn name(&self, table: &[&str], text: &str) -> Result<u8, PositionError> {
        table
            .iter()
            .position(|t| *t == text)
            .map(|k| k as u8)
            .ok_or_else(|| {
                self.fail(format!(
                    "unknown name '{text}' (one of {})",
                    table.join(", ")
                ))
            })
    }

    fn end(&self) -> Result<Option<u8>, PositionError> {
        if self.value == "-" {
            Ok(None)
        } else {
            self.name(&END_REASONS, self.value).map(Some)
        }
    }
}

fn tokens(text: &str) -> Result<Vec<Token<'_>>, PositionError> {
    let line = text.trim_matches(&BLANKS[..]);
    if let Some(i) = line.find('\n') {
        return Err(PositionError(format!(
            "position text: one line expected, found a line break at column {}",
            i + 1
        )));
    }
    let mut words = line.split(' ');
    let tag = words.next().unwrap_or("");
    if tag != VERSION {
        let shown: String = tag.chars().take(20).collect();
        return Err(PositionError(format!(
            "position text: column 1: expected the version tag '{VERSION}', got '{shown}'"
        )));
    }
    let mut out = Vec::with_capacity(FIELDS.len());
    let mut column = VERSION.len() + 2;
    for (i, word) in words.enumerate() {
        let shown: String = word.chars().take(40).collect();
        let Some(&expected) = FIELDS.get(i) else {
            return Err(PositionError(format!(
                "position text: column {column}: unexpected text after the last field \
                 'options': '{shown}'"
            )));
        };
        match word.split_once('=') {
            Some((key, value)) if key == expected => out.push(Token {
                name: expected,
                value,
                column: column + key.len() + 1,
            }),
            _ => {
                return Err(PositionError(format!(
                    "position text: column {column}: expected field '{expected}' (as \
                     {expected}=…), got '{shown}'"
                )))
            }
        }
        column += word.chars().count() + 1;
    }
    if out.len() < FIELDS.len() {
        return Err(PositionError(format!(
            "position text: column {column}: field '{}' is missing",
            FIELDS[out.len()]
        )));
    }
    Ok(out)
}

/// The fields of each decision kind after `player`, in order (the Python dataclasses').
fn decision_fields(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "relocate" | "relocate_neutral" => &["player", "origin", "piece", "extras"],
        "move" | "move3" | "remove3" => &["player", "left"],
        "place_marker" | "favour_income" => &["player"],
        "permanent" => &["player", "kind", "left", "traders", "merchants"],
        _ => return None,
    })
}

fn decision(t: &Token<'_>, text: &str, n: usize, routes: usize) -> Result<Decision, PositionError> {
    let mut parts = text.split(':');
    let kind = parts.next().unwrap_or("");
    let values: Vec<&str> = parts.collect();
    let names = decision_fields(kind).ok_or_else(|| {
        t.fail(format!(
            "unknown decision '{kind}' (one of relocate, relocate_neutral, move, move3, \
             remove3, place_marker, favour_income, permanent)"
        ))
    })?;
    if values.len() != names.len() {
        return Err(t.fail(format!(
            "decision '{kind}' takes {} values ({}), found {} in '{text}'",
            names.len(),
            names.join(", "),
            values.len()
        )));
    }
    let mut v = Vec::with_capacity(values.len());
    for (name, value) in names.iter().zip(&values) {
        v.push(match *name {
            "kind" => i64::from(t.name(&PERMANENT_MARKERS, value)?),
            "player" => t.int(value, 0, n as i64 - 1)?,
            "origin" => t.int(value, 0, routes as i64 - 1)?,
            _ => t.int(value, -1, 999)?,
        });
    }
    let (player, a, b) = (v[0] as usize, v.get(1).copied(), v.get(2).copied());
    let int = |x: Option<i64>| x.unwrap_or(0) as i32;
    Ok(match kind {
        "relocate" => Decision::Relocate {
            player,
            origin: a.unwrap_or(0) as usize,
            piece: int(b),
            extras: v[3] as i32,
        },
        "relocate_neutral" => Decision::RelocateNeutral {
            player,
            origin: a.unwrap_or(0) as usize,
            piece: int(b),
            extras: v[3] as i32,
        },
        "move" => Decision::Move {
            player,
            left: int(a),
        },
        "move3" => Decision::MoveOpponents {
            player,
            left: int(a),
        },
        "remove3" => Decision::RemoveOpponents {
            player,
            left: int(a),
        },
        "place_marker" => Decision::PlaceMarkers { player },
        "favour_income" => Decision::FavourIncome { player },
        _ => Decision::PermanentMarker {
            player,
            kind: a.unwrap_or(0) as u8,
            left: int(b),
            traders: v[3] as i32,
            merchants: v[4] as i32,
        },
    })
}

fn check_config(tok: &[Token<'_>], c: &Config) -> Result<(), PositionError> {
    let (board, players, edition, seed) = (&tok[0], &tok[1], &tok[2], &tok[3]);
    let n = players.whole(2, 5)? as usize;
    let e = edition.name(&EDITIONS, edition.value)?;
    seed.whole(0, i64::MAX)?;
    let options = &tok[36];
    match serde_json::from_str::<serde_json::Value>(options.value) {
        Ok(v) if v.is_object() => {}
        Ok(_) => return Err(options.fail("expected a JSON object of rule options")),
        Err(err) => return Err(options.fail(format!("not JSON: {err}"))),
    }
    let seed_matches = seed.value.parse::<u64>().ok() == Some(c.seed);
    if board.value != c.side || n != c.n_players || e != c.edition || !seed_matches {
        return Err(board.fail(format!(
            "the text's configuration ({} players, {}, seed {}) is not the given one ({} \
             players on {}, {}, seed {})",
            players.value,
            edition.value,
            seed.value,
            c.n_players,
            c.side,
            EDITIONS[c.edition as usize],
            c.seed
        )));
    }
    Ok(())
}

/// The state a position text describes in the game `config` (whose board, players,
/// edition and seed the text must name); [`PositionError`] names the first malformed
/// field. The rules can index every field of the result (lengths and ranges checked).
pub fn from_text(text: &str, config: &Config) -> Result<State, PositionError> {
    let tok = tokens(text)?;
    check_config(&tok, config)?;
    let t = |name: &str| &tok[FIELDS.iter().position(|f| *f == name).unwrap_or(0)];
    let mut s = crate::state::new_game(config).map_err(|e| tok[0].fail(e))?;
    let b = s.board;
    let n = config.n_players;
    let neutral = t("neutral_pool");
    s.neutral_pool = neutral.whole(-1, 99)? as i32;
    if (s.neutral_pool >= 0) != config.has_neutral() {
        return Err(neutral.fail("-1 unless two players (then the neutral pool)"));
    }
    let colours = n + usize::from(s.neutral_pool >= 0);
    let by_group = |name: &str, starts: &[usize]| -> Result<Vec<i8>, PositionError> {
        let t = t(name);
        let mut out = Vec::new();
        for (k, g) in t.split(Some(starts.len() - 1))?.iter().enumerate() {
            out.extend(t.occupants(g, colours, Some(starts[k + 1] - starts[k]))?);
        }
        Ok(out)
    };
    s.posts = by_group("posts", &b.post_start)?;
    s.offices = by_group("offices", &b.office_start)?;
    let extras = t("extras");
    s.extras = extras
        .split(Some(b.n_cities))?
        .iter()
        .map(|g| extras.occupants(g, colours, None))
        .collect::<Result<_, _>>()?;
    if s.extras.iter().flatten().any(|o| *o == EMPTY) {
        return Err(extras.fail("an extra Kontor always holds a piece ('.' is not one)"));
    }
    let special = t("special");
    s.special = special.occupants(special.maybe_empty(), colours, Some(b.special_spaces.len()))?;
    let per_player = |name: &str, hi: i64| -> Result<Vec<i32>, PositionError> {
        let v = t(name).int_list(0, hi, Some(n))?;
        Ok(v.into_iter().map(|x| x as i32).collect())
    };
    s.supply_t = per_player("supply_t", 99)?;
    s.supply_m = per_player("supply_m", 99)?;
    s.stock_t = per_player("stock_t", 99)?;
    s.stock_m = per_player("stock_m", 99)?;
    s.prestige = per_player("prestige", 9999)?;
    let levels = t("levels");
    s.levels = Vec::with_capacity(n);
    for g in levels.split(Some(n))? {
        if g.len() != 5 || !g.bytes().all(|c| c.is_ascii_digit()) {
            return Err(levels.fail(format!(
                "expected 5 digits per player (actions, bank, book, privilege, keys), got '{g}'"
            )));
        }
        let mut lv = [0u8; 5];
        for (k, ch) in g.bytes().enumerate() {
            lv[k] = ch - b'0';
            let most = PLAYER_BOARD.track_max[k];
            if lv[k] > most {
                return Err(levels.fail(format!(
                    "{} developed {} times, beyond the player board (at most {most})",
                    ABILITIES[k], lv[k]
                )));
            }
        }
        s.levels.push(lv);
    }
    let marker_groups = |name: &str| -> Result<Vec<Vec<u8>>, PositionError> {
        let t = t(name);
        t.split(Some(n))?.iter().map(|g| t.markers(g)).collect()
    };
    s.markers = marker_groups("markers")?;
    s.markers_used = marker_groups("markers_used")?;
    let rm = t("route_marker");
    if rm.value.len() != b.n_routes {
        return Err(rm.fail(format!("expected one character per route ({})", b.n_routes)));
    }
    s.route_marker = Vec::with_capacity(b.n_routes);
    for ch in rm.value.split("").filter(|c| !c.is_empty()) {
        s.route_marker.push(if ch == "." {
            -1
        } else {
            rm.markers(ch)?[0] as i8
        });
    }
    let marker_field = |name: &str| t(name).markers(t(name).maybe_empty());
    s.bag = marker_field("bag")?;
    s.drawn = marker_field("drawn")?;
    s.discarded = marker_field("discarded")?;
    let as_i32 = |v: Vec<i64>| v.into_iter().map(|x| x as i32).collect::<Vec<i32>>();
    let as_u8 = |v: Vec<i64>| v.into_iter().map(|x| x as u8).collect::<Vec<u8>>();
    let points = t("special_points").int_list(-99, 99, Some(b.special_spaces.len()))?;
    s.special_points = as_i32(points);
    s.east_west = as_u8(t("east_west").int_list(0, n as i64 - 1, None)?);
    s.permits_used = as_u8(t("permits_used").int_list(0, b.n_cities as i64 - 1, None)?);
    // comma-separated tile names; only a whole group may be empty (`-`), not a name
    let tiles = |t: &Token<'_>, g: &str| -> Result<Vec<u8>, PositionError> {
        g.split(',').map(|x| t.name(&FAVOUR_TILES, x)).collect()
    };
    let display = t("favour_display");
    s.favour_display = if display.value == "-" {
        Vec::new()
    } else {
        tiles(display, display.value)?
    };
    let favours = t("favours");
    s.favours = if favours.value == "-" {
        Vec::new()
    } else {
        favours
            .split(Some(n))?
            .iter()
            .map(|g| {
                if g.is_empty() {
                    Ok(Vec::new())
                } else {
                    tiles(favours, g)
                }
            })
            .collect::<Result<_, _>>()?
    };
    s.turn_start = t("turn_start").whole(0, 1_000_000_000)? as i32;
    s.active = t("active").whole(0, n as i64 - 1)? as usize;
    s.actions_left = t("actions_left").whole(0, 99)? as i32;
    s.round = t("round").whole(1, 1_000_000_000)? as i32;
    s.turn = t("turn").whole(1, 1_000_000_000)? as i32;
    s.n_actions = t("n_actions").whole(0, 1_000_000_000)? as i32;
    s.completed = t("completed").whole(0, 999)? as i32;
    let pending = t("pending");
    s.pending = if pending.value == "-" {
        Vec::new()
    } else {
        pending
            .split(None)?
            .iter()
            .map(|g| decision(pending, g, n, b.n_routes))
            .collect::<Result<_, _>>()?
    };
    s.end_reason = t("end_reason").end()?;
    s.end_after_action = t("end_after_action").end()?;
    Ok(s)
}
