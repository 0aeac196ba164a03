//! Boards as data (twin of `hansa_lab/engine/board.py`): the packaged `boards.json` — the
//! very file the Python engine reads, embedded at compile time — loaded once into lookup
//! tables.

use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::LazyLock;

pub const BOARDS_JSON: &str = include_str!("../../hansa_lab/engine/data/boards.json");

pub const COLOURS: [&str; 4] = ["white", "orange", "pink", "black"];
pub const ABILITIES: [&str; 5] = ["actions", "bank", "book", "privilege", "keys"];
pub const A_ACTIONS: usize = 0;
pub const A_BANK: usize = 1;
pub const A_BOOK: usize = 2;
pub const A_PRIVILEGE: usize = 3;
pub const A_KEYS: usize = 4;
pub const TRADER: i32 = 0;
pub const MERCHANT: i32 = 1;
pub const PIECE_NAMES: [&str; 2] = ["trader", "merchant"];
pub const BOARD_SIDES: [&str; 5] = [
    "base_3p",
    "base_45p",
    "east",
    "britannia_3p",
    "britannia_45p",
];
/// Country 0 of every board: routes and cities without a region.
pub const HOME_COUNTRY: &str = "England";
/// Permanent markers of maritime routes, as named in boards.json.
pub const PERMANENT_MARKERS: [&str; 5] = [
    "move2",
    "privilege",
    "kontor_yellow_green",
    "place2_from_route",
    "place2_regions",
];
pub const P_MOVE2: u8 = 0;
pub const P_PRIVILEGE: u8 = 1;
pub const P_KONTOR_YELLOW_GREEN: u8 = 2;
pub const P_PLACE2_FROM_ROUTE: u8 = 3;
pub const P_PLACE2_REGIONS: u8 = 4;

/// Routes per board at most (the largest board, Britannia for 4-5 players, has 40):
/// per-route counters live in fixed arrays of this size.
pub const MAX_ROUTES: usize = 64;

/// The player-board tracks and the marker score table.
pub struct PlayerBoard {
    pub actions: Vec<i32>,
    /// `None` = all
    pub bank: Vec<Option<i32>>,
    pub book: Vec<i32>,
    pub keys: Vec<i32>,
    /// max development per ability (`TRACK_MAX`)
    pub track_max: [u8; 5],
    /// points for n collected markers, n = 0..32
    pub marker_points: Vec<i32>,
}

#[derive(Debug)]
pub struct Board {
    pub name: String,
    /// "primary" or "alternative" (East's disputed cities)
    pub variant: String,
    pub players: Vec<usize>,
    pub n_cities: usize,
    pub n_routes: usize,
    pub n_posts: usize,
    pub n_offices: usize,
    pub city_ascii: Vec<String>,
    pub city_abilities: Vec<Vec<usize>>,
    pub city_yellow_green: Vec<bool>,
    pub route_cities: Vec<[usize; 2]>,
    pub route_n_posts: Vec<usize>,
    pub route_n_merchant_only: Vec<usize>,
    /// index into PERMANENT_MARKERS, or -1
    pub route_permanent_kind: Vec<i8>,
    pub route_permanent: Vec<bool>,
    pub route_region: Vec<bool>,
    /// per route, index into the countries (`(HOME_COUNTRY, *regions)`)
    pub route_country: Vec<usize>,
    pub n_countries: usize,
    /// per country, its cities (country 0: none)
    pub country_cities: Vec<Vec<usize>>,
    /// cities granting Place/Displace permission: (city, country bitmask), fewest first
    pub permission_cities: Vec<(usize, u32)>,
    pub yellow_green: Vec<usize>,
    pub city_routes: Vec<Vec<usize>>,
    pub city_neighbours: Vec<Vec<usize>>,
    pub route_rings: Vec<Vec<Vec<usize>>>,
    pub post_start: Vec<usize>,
    pub post_route: Vec<usize>,
    pub post_merchant_only: Vec<bool>,
    pub office_start: Vec<usize>,
    pub office_city: Vec<usize>,
    pub office_colour: Vec<u8>,
    pub office_shape: Vec<i32>,
    pub office_coin: Vec<i32>,
    pub east_west: [usize; 2],
    pub east_west_points: Vec<i32>,
    pub completed_cities_to_end: i32,
    pub special_city: usize,
    pub special_route: Option<usize>,
    pub special_spaces: Vec<(i32, u8)>,
    pub tavern_routes: Vec<usize>,
    pub has_regions: bool,
}

impl Board {
    #[inline]
    pub fn route_posts(&self, r: usize) -> std::ops::Range<usize> {
        self.post_start[r]..self.post_start[r + 1]
    }
    #[inline]
    pub fn city_offices(&self, c: usize) -> std::ops::Range<usize> {
        self.office_start[c]..self.office_start[c + 1]
    }
    pub fn post_label(&self, i: usize) -> String {
        let r = self.post_route[i];
        format!("r{}.{}", r, i - self.post_start[r])
    }
}

pub static RAW: LazyLock<Value> =
    LazyLock::new(|| serde_json::from_str(BOARDS_JSON).unwrap_or(Value::Null));

fn ints(v: &Value) -> Vec<i32> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_i64().unwrap_or(0) as i32).collect())
        .unwrap_or_default()
}

pub static PLAYER_BOARD: LazyLock<PlayerBoard> = LazyLock::new(|| {
    let pb = &RAW["player_board"];
    let actions = ints(&pb["actions"]);
    let bank: Vec<Option<i32>> = pb["bank"]
        .as_array()
        .map(|a| a.iter().map(|x| x.as_i64().map(|v| v as i32)).collect())
        .unwrap_or_default();
    let book = ints(&pb["book"]);
    let keys = ints(&pb["keys"]);
    let len = |k: &str| pb[k].as_array().map(|a| a.len()).unwrap_or(1) as u8 - 1;
    let track_max = [
        len("actions"),
        len("bank"),
        len("book"),
        len("privilege"),
        len("keys"),
    ];
    let table: Vec<(i64, i32)> = RAW["marker_score"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p[0].as_i64().unwrap_or(0),
                        p[1].as_i64().unwrap_or(0) as i32,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let marker_points = (0..32i64)
        .map(|n| {
            table
                .iter()
                .filter(|(lo, _)| n >= *lo)
                .map(|(_, p)| *p)
                .max()
                .unwrap_or(0)
        })
        .collect();
    PlayerBoard {
        actions,
        bank,
        book,
        keys,
        track_max,
        marker_points,
    }
});

/// The five sides in `BOARD_SIDES` order (primary variant), then East's alternative.
pub static BOARDS: LazyLock<Vec<Result<Board, String>>> = LazyLock::new(|| {
    BOARD_SIDES
        .iter()
        .map(|name| load_board(name, false))
        .chain([load_board("east", true)])
        .collect()
});

/// A board side (`alternative`: the East's disputed cities from the other source).
pub fn board(name: &str, alternative: bool) -> Option<&'static Board> {
    let i = if alternative {
        (name == "east").then_some(BOARD_SIDES.len())?
    } else {
        BOARD_SIDES.iter().position(|s| *s == name)?
    };
    BOARDS[i].as_ref().ok()
}

fn split_route_name(text: &str, names: &[String]) -> Option<(usize, usize)> {
    for (i, ch) in text.char_indices() {
        if ch == '-' {
            let (a, b) = (&text[..i], &text[i + 1..]);
            let ia = names.iter().position(|n| n == a);
            let ib = names.iter().position(|n| n == b);
            if let (Some(x), Some(y)) = (ia, ib) {
                return Some((x, y));
            }
        }
    }
    None
}

pub fn load_board(name: &str, alternative: bool) -> Result<Board, String> {
    let raw = &RAW["boards"][name];
    if raw.is_null() {
        return Err(format!("unknown board side {name:?}"));
    }
    let no_alt = Value::Null;
    let alternatives = if alternative {
        &raw["alternatives"]
    } else {
        &no_alt
    };
    let err = |what: &str| format!("boards.json: board {name:?}, {what}");
    let cities = raw["cities"].as_array().ok_or_else(|| err("cities"))?;
    let names: Vec<String> = cities
        .iter()
        .map(|c| c["name"].as_str().unwrap_or("").to_string())
        .collect();
    let city_of = |v: &Value| -> Result<usize, String> {
        let s = v.as_str().unwrap_or("");
        names
            .iter()
            .position(|n| n == s)
            .ok_or_else(|| err(&format!("unknown city {s:?}")))
    };
    let mut city_ascii = Vec::new();
    let mut city_abilities = Vec::new();
    let mut city_yg = Vec::new();
    let mut office_start = vec![0usize];
    let mut office_city = Vec::new();
    let mut office_colour = Vec::new();
    let mut office_shape = Vec::new();
    let mut office_coin = Vec::new();
    let mut has_regions = false;
    let mut region_names: BTreeSet<String> = BTreeSet::new();
    for (ci, c) in cities.iter().enumerate() {
        let alt = &alternatives[&names[ci]];
        city_ascii.push(c["ascii"].as_str().unwrap_or("").to_string());
        let mut ab: BTreeSet<usize> = BTreeSet::new();
        for g in c["regions"].as_array().into_iter().flatten() {
            region_names.insert(g.as_str().unwrap_or("").to_string());
        }
        let abilities = c["abilities"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(alt["abilities"].as_array().into_iter().flatten());
        for a in abilities {
            let a = a.as_str().unwrap_or("");
            let k = ABILITIES
                .iter()
                .position(|x| *x == a)
                .ok_or_else(|| err("ability"))?;
            ab.insert(k);
        }
        city_abilities.push(ab.into_iter().collect());
        city_yg.push(c["yellow_green"].as_bool().unwrap_or(false));
        if c["regions"].as_array().is_some_and(|a| !a.is_empty()) {
            has_regions = true;
        }
        let offices = if alt["offices"].is_array() {
            &alt["offices"]
        } else {
            &c["offices"]
        };
        let offices = offices.as_array().ok_or_else(|| err("offices"))?;
        for o in offices {
            let col = o[0].as_str().unwrap_or("");
            let colour = COLOURS
                .iter()
                .position(|x| *x == col)
                .ok_or_else(|| err("office colour"))?;
            office_colour.push(colour as u8);
            office_shape.push(if o[1].as_str() == Some("trader") {
                TRADER
            } else {
                MERCHANT
            });
            office_coin.push(o[2].as_i64().unwrap_or(0) as i32);
            office_city.push(ci);
        }
        office_start.push(office_city.len());
    }
    let routes = raw["routes"].as_array().ok_or_else(|| err("routes"))?;
    let n_c = cities.len();
    let mut route_cities = Vec::new();
    let mut route_n_posts = Vec::new();
    let mut route_n_mo = Vec::new();
    let mut route_perm = Vec::new();
    let mut route_perm_kind = Vec::new();
    let mut route_region_name: Vec<Option<String>> = Vec::new();
    let mut route_region = Vec::new();
    let mut post_start = vec![0usize];
    let mut post_route = Vec::new();
    let mut post_mo = Vec::new();
    let mut tavern_flags = Vec::new();
    for (ri, r) in routes.iter().enumerate() {
        let a = city_of(&r["a"])?;
        let b = city_of(&r["b"])?;
        route_cities.push([a, b]);
        let n = r["posts"].as_u64().unwrap_or(0) as usize;
        if !(1..=6).contains(&n) {
            return Err(err("route posts"));
        }
        route_n_posts.push(n);
        let mo: Vec<usize> = r["merchant_only_posts"]
            .as_array()
            .map(|v| v.iter().map(|x| x.as_u64().unwrap_or(0) as usize).collect())
            .unwrap_or_default();
        route_n_mo.push(mo.len());
        let pm = r["permanent_marker"].as_str();
        route_perm.push(pm.is_some());
        route_perm_kind.push(match pm {
            Some(k) => PERMANENT_MARKERS
                .iter()
                .position(|x| *x == k)
                .ok_or_else(|| err("permanent_marker"))? as i8,
            None => -1,
        });
        let reg = r["region"].is_string();
        if let Some(g) = r["region"].as_str() {
            region_names.insert(g.to_string());
        }
        route_region_name.push(r["region"].as_str().map(str::to_string));
        route_region.push(reg);
        has_regions |= reg;
        tavern_flags.push(r["tavern"].as_bool().unwrap_or(false));
        for p in 0..n {
            post_route.push(ri);
            post_mo.push(mo.contains(&p));
        }
        post_start.push(post_route.len());
    }
    let n_r = routes.len();
    if n_r > 64 {
        return Err(err(
            "more than 64 routes (the core keeps route sets as 64-bit masks)",
        ));
    }
    let mut city_routes = vec![Vec::new(); n_c];
    let mut nb: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n_c];
    for (r, [a, b]) in route_cities.iter().enumerate() {
        city_routes[*a].push(r);
        city_routes[*b].push(r);
        nb[*a].insert(*b);
        nb[*b].insert(*a);
    }
    let adjacent: Vec<BTreeSet<usize>> = (0..n_r)
        .map(|r| {
            let [a, b] = route_cities[r];
            let mut s: BTreeSet<usize> = city_routes[a].iter().copied().collect();
            s.extend(city_routes[b].iter().copied());
            s.remove(&r);
            s
        })
        .collect();
    let mut rings = Vec::new();
    for r in 0..n_r {
        let mut seen: BTreeSet<usize> = BTreeSet::from([r]);
        let mut frontier = vec![r];
        let mut out: Vec<Vec<usize>> = Vec::new();
        while !frontier.is_empty() {
            let mut nxt: BTreeSet<usize> = BTreeSet::new();
            for f in &frontier {
                for q in &adjacent[*f] {
                    if !seen.contains(q) {
                        nxt.insert(*q);
                    }
                }
            }
            if nxt.is_empty() {
                break;
            }
            seen.extend(nxt.iter().copied());
            let v: Vec<usize> = nxt.into_iter().collect();
            out.push(v.clone());
            frontier = v;
        }
        rings.push(out);
    }
    let ew = raw["east_west"]
        .as_array()
        .ok_or_else(|| err("east_west"))?;
    let east_west = [city_of(&ew[0])?, city_of(&ew[1])?];
    let special_city = city_of(&raw["special_prestige_city"])?;
    let special_route = match raw["special_prestige_route"].as_array() {
        Some(v) if v.len() == 2 => {
            let a = city_of(&v[0])?;
            let b = city_of(&v[1])?;
            route_cities
                .iter()
                .position(|rc| (rc[0] == a && rc[1] == b) || (rc[0] == b && rc[1] == a))
        }
        _ => None,
    };
    let special_spaces = raw["special_prestige_spaces"]
        .as_array()
        .ok_or_else(|| err("special spaces"))?
        .iter()
        .map(|x| {
            let c = x[1].as_str().unwrap_or("");
            (
                x[0].as_i64().unwrap_or(0) as i32,
                COLOURS.iter().position(|k| *k == c).unwrap_or(0) as u8,
            )
        })
        .collect();
    let mut tavern_routes = Vec::new();
    for t in raw["tavern_routes"].as_array().into_iter().flatten() {
        let (a, b) =
            split_route_name(t.as_str().unwrap_or(""), &names).ok_or_else(|| err("tavern"))?;
        let r = route_cities
            .iter()
            .position(|rc| (rc[0] == a && rc[1] == b) || (rc[0] == b && rc[1] == a))
            .ok_or_else(|| err("tavern route"))?;
        tavern_routes.push(r);
    }
    let countries: Vec<String> = std::iter::once(HOME_COUNTRY.to_string())
        .chain(region_names.iter().cloned())
        .collect();
    let country_of = |g: &str| countries.iter().position(|x| x == g).unwrap_or(0);
    let route_country: Vec<usize> = route_region_name
        .iter()
        .map(|g| g.as_deref().map_or(0, country_of))
        .collect();
    let city_regions: Vec<Vec<String>> = cities
        .iter()
        .map(|c| {
            c["regions"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|g| g.as_str().unwrap_or("").to_string())
                .collect()
        })
        .collect();
    let country_cities: Vec<Vec<usize>> = countries
        .iter()
        .map(|g| (0..n_c).filter(|&c| city_regions[c].contains(g)).collect())
        .collect();
    let mut permission_cities: Vec<(usize, u32)> = Vec::new();
    for (ci, c) in cities.iter().enumerate() {
        let mut mask = 0u32;
        for g in c["grants_permission_for"].as_array().into_iter().flatten() {
            let g = g.as_str().unwrap_or("");
            if !region_names.contains(g) {
                return Err(err("grants_permission_for"));
            }
            mask |= 1 << country_of(g);
        }
        if mask != 0 {
            permission_cities.push((ci, mask));
        }
    }
    permission_cities.sort_by_key(|&(c, m)| (m.count_ones(), c));
    let yellow_green: Vec<usize> = (0..n_c).filter(|&c| city_yg[c]).collect();
    if n_r > MAX_ROUTES {
        // fixed-size per-route counters (strategies, random policy) assume this bound
        return Err(format!(
            "board {name}: {n_r} routes, the core allows {MAX_ROUTES}"
        ));
    }
    Ok(Board {
        name: name.to_string(),
        variant: if alternative {
            "alternative"
        } else {
            "primary"
        }
        .to_string(),
        route_permanent_kind: route_perm_kind,
        route_country,
        n_countries: countries.len(),
        country_cities,
        permission_cities,
        yellow_green,
        players: raw["players"]
            .as_array()
            .map(|v| v.iter().map(|x| x.as_u64().unwrap_or(0) as usize).collect())
            .unwrap_or_default(),
        n_cities: n_c,
        n_routes: n_r,
        n_posts: post_route.len(),
        n_offices: office_city.len(),
        city_ascii,
        city_abilities,
        city_yellow_green: city_yg,
        route_cities,
        route_n_posts,
        route_n_merchant_only: route_n_mo,
        route_permanent: route_perm,
        route_region,
        city_routes,
        city_neighbours: nb.into_iter().map(|s| s.into_iter().collect()).collect(),
        route_rings: rings,
        post_start,
        post_route,
        post_merchant_only: post_mo,
        office_start,
        office_city,
        office_colour,
        office_shape,
        office_coin,
        east_west,
        east_west_points: ints(&raw["east_west_points"]),
        completed_cities_to_end: raw["completed_cities_to_end"].as_i64().unwrap_or(0) as i32,
        special_city,
        special_route,
        special_spaces,
        tavern_routes,
        has_regions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_3p_sizes() {
        let b = board("base_3p", false).unwrap();
        assert_eq!((b.n_cities, b.n_routes, b.n_posts), (27, 32, 101));
        assert_eq!(b.tavern_routes.len(), 3);
        assert_eq!(PLAYER_BOARD.track_max, [5, 3, 3, 3, 4]);
        for i in 0..BOARDS.len() {
            assert!(BOARDS[i].is_ok(), "{:?}", BOARDS[i].as_ref().err());
        }
        let e = board("east", true).unwrap();
        assert_eq!(e.variant, "alternative");
        assert!(board("base_3p", true).is_none());
        let br = board("britannia_45p", false).unwrap();
        assert!(br.has_regions && br.n_countries == 3 && !br.permission_cities.is_empty());
    }
}
