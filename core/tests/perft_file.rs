//! The saved perft counts (`tests/data/perft.txt`, written by `scripts/make_goldens.py`)
//! counted by the crate itself: every count at every depth of every position, read with
//! the crate's own position reader (`position::from_text`). The Python side checks the
//! same file through the bindings (`tests/test_perft.py`); this test needs no Python.
//!
//! Each line is `name d1,d2,d3 position`; the configuration (board, players, edition,
//! seed and the rule options' JSON) is read from the position text's own fields, as
//! `hansa_lab.engine.position.read_config` does on the Python side.

use std::path::PathBuf;
use std::sync::Arc;

use hansa_core::perft::perft;
use hansa_core::position::from_text;
use hansa_core::state::{Config, Tuning};
use hansa_core::vocabulary::VOCABULARY;
use serde_json::Value;

/// One line of the perft file.
#[derive(Clone, Debug)]
struct SavedPerft {
    name: String,
    /// the counts at depths 1, 2, 3 …
    counts: Vec<u64>,
    text: String,
}

fn perft_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("data")
        .join("perft.txt")
}

/// The positions of a perft file (`#` lines and blank lines skipped); `Err` names the
/// first malformed line.
fn read_perft(text: &str) -> Result<Vec<SavedPerft>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || {
            format!(
                "perft file line {}: expected 'name d1,d2,d3 position'",
                i + 1
            )
        };
        let mut parts = line.splitn(3, ' ');
        let (Some(name), Some(counts), Some(position)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let counts = counts
            .split(',')
            .map(|c| c.parse::<u64>().map_err(|_| bad()))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(SavedPerft {
            name: name.to_string(),
            counts,
            text: position.to_string(),
        });
    }
    Ok(out)
}

/// The value of field `name` in a position text (`name=value` tokens).
fn field<'a>(text: &'a str, name: &str) -> &'a str {
    let prefix = format!("{name}=");
    text.split(' ')
        .find_map(|t| t.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("position text without field {name}"))
}

fn int(v: &Value, name: &str) -> i32 {
    v.as_i64()
        .and_then(|x| i32::try_from(x).ok())
        .unwrap_or_else(|| panic!("rule option {name}: expected an integer, got {v}"))
}

/// The configuration a position text names: board, players, edition, seed and its rule
/// options resolved onto the printed game of the edition (as `engine/options.resolve`
/// does for the options used here). An option this reader does not know fails the test,
/// naming it, so that a new option in the file is resolved here on purpose.
fn config_of(text: &str) -> Config {
    let n_players: usize = field(text, "players").parse().expect("players");
    let edition_name = field(text, "edition");
    let edition = VOCABULARY
        .editions
        .iter()
        .position(|e| e == edition_name)
        .unwrap_or_else(|| panic!("unknown edition {edition_name}")) as u8;
    let mut c = Config {
        edition,
        tuning: Arc::new(Tuning::printed(edition)),
        ..Config::printed(
            n_players,
            field(text, "board"),
            field(text, "seed").parse().expect("seed"),
        )
    };
    let options: serde_json::Map<String, Value> =
        serde_json::from_str(field(text, "options")).expect("options: a JSON object");
    let mut t = *c.tuning;
    for (name, v) in &options {
        match name.as_str() {
            "emperor" => c.emperor = v.as_bool().expect("emperor: true or false"),
            "east_alternative" => {
                c.east_alternative = v.as_bool().expect("east_alternative: true or false")
            }
            "prestige_to_end" => c.prestige_to_end = int(v, name),
            "control_points" => t.control_points = int(v, name),
            "ability_points" => t.ability_points = int(v, name),
            "favour_control_bonus" => t.favour_control_bonus = int(v, name),
            "favour_abilities_bonus" => t.favour_abilities_bonus = int(v, name),
            "start_merchants" => t.start_merchants = int(v, name),
            "cities_to_end" => t.cities_to_end = Some(int(v, name)),
            "start_supply" => {
                let first = int(v, name);
                t.start_supply = std::array::from_fn(|seat| first + seat as i32);
            }
            other => panic!(
                "the perft file uses rule option {other:?}, which core/tests/perft_file.rs \
                 does not resolve: add it to config_of"
            ),
        }
    }
    c.tuning = Arc::new(t);
    c
}

/// Counts every position of a perft file's text at every saved depth: the number of
/// positions, or `Err` naming the first wrong count (or a file without positions, or a
/// position with no counts).
fn check_file(text: &str) -> Result<usize, String> {
    let saved = read_perft(text)?;
    if saved.is_empty() {
        return Err("the perft file holds no positions".into());
    }
    for p in &saved {
        if p.counts.is_empty() {
            return Err(format!("{}: no counts", p.name));
        }
        let s =
            from_text(&p.text, &config_of(&p.text)).map_err(|e| format!("{}: {}", p.name, e.0))?;
        for (k, &want) in p.counts.iter().enumerate() {
            let got = perft(&s, k as u32 + 1);
            if got != want {
                return Err(format!(
                    "{}: perft({}) is {got}, the file says {want}",
                    p.name,
                    k + 1
                ));
            }
        }
    }
    Ok(saved.len())
}

fn the_file() -> String {
    let path = perft_file();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

#[test]
fn the_crate_counts_every_saved_perft() {
    let text = the_file();
    let n = check_file(&text).unwrap_or_else(|e| panic!("{}: {e}", perft_file().display()));
    // 31 positions when this test was written (every board, player count and decision)
    assert!(
        n >= 31,
        "the perft file holds {n} positions, fewer than the 31 it had"
    );
    let saved = read_perft(&text).unwrap();
    assert!(
        saved.iter().all(|p| p.counts.len() == 3),
        "every position has counts at depths 1, 2 and 3"
    );
}

/// The file's text with one line's count at `depth` (1-based) moved by `by`: only the
/// line of the position whose three counts sum lowest (cheap to count), and that line alone.
fn with_one_count_off(text: &str, depth: usize, by: i64) -> (String, String) {
    let saved = read_perft(text).unwrap();
    let cheap = saved
        .iter()
        .min_by_key(|p| p.counts.iter().sum::<u64>())
        .unwrap();
    let mut counts = cheap.counts.clone();
    counts[depth - 1] = (counts[depth - 1] as i64 + by) as u64;
    let shown: Vec<String> = counts.iter().map(u64::to_string).collect();
    let line = format!("{} {} {}", cheap.name, shown.join(","), cheap.text);
    (line, cheap.name.clone())
}

#[test]
fn a_wrong_count_in_the_file_fails_the_check() {
    let text = the_file();
    for (depth, by) in [(1, -1), (2, 1), (3, 1)] {
        let (line, name) = with_one_count_off(&text, depth, by);
        // the mutated line alone, and the mutated line in place of the real one
        let err = check_file(&line).unwrap_err();
        assert!(
            err.starts_with(&format!("{name}: perft({depth}) is ")),
            "{err}"
        );
        let real = text
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        let mutated = text.replacen(real, &line, 1);
        assert_ne!(mutated, text);
        assert!(check_file(&mutated).is_err());
    }
}

#[test]
fn a_file_without_positions_or_with_a_malformed_line_fails_the_check() {
    assert_eq!(
        check_file("").unwrap_err(),
        "the perft file holds no positions"
    );
    let header: String = the_file()
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(!header.is_empty());
    assert_eq!(
        check_file(&header).unwrap_err(),
        "the perft file holds no positions"
    );
    let err = check_file("# header\nbase 1,2,x hansa1 board=base_3p").unwrap_err();
    assert!(err.contains("line 2"), "{err}");
    assert!(check_file("lonely_name_only").is_err());
}

#[test]
fn an_unknown_rule_option_is_not_silently_ignored() {
    let saved = read_perft(&the_file()).unwrap();
    let text = saved[0]
        .text
        .replace("options={}", "options={\"no_such_option\":1}");
    assert_ne!(text, saved[0].text);
    assert!(std::panic::catch_unwind(|| config_of(&text)).is_err());
    let tuned = saved
        .iter()
        .find(|p| p.text.contains("\"start_supply\""))
        .expect("a position with a tuned start supply");
    let c = config_of(&tuned.text);
    assert_eq!(c.tuning.start_supply[..3], [4, 5, 6]);
    assert_eq!(c.prestige_to_end, 15);
    assert_eq!(c.tuning.control_points, 3);
}
