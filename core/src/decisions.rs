//! Pending decisions (twin of `hansa_lab/engine/decisions.py` and the Emperor's Favour
//! decision of `variants/favour.py`): a stack inside the state; the top one's player
//! decides.

use crate::actions::*;
use crate::board::{MERCHANT, TRADER};
use crate::effects::{
    check_end, free_post, may_go, next_player, shift_options, stock_of, to_stock,
};
use crate::move_choices::for_each_swap;
use crate::state::{State, EMPTY, F_RELOCATE_ANYWHERE};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// a displaced player places the piece (`piece`, -1 once placed) and `extras` more
    Relocate {
        player: usize,
        origin: usize,
        piece: i32,
        extras: i32,
    },
    /// two players: the neutral trader and one more, placed by `player`
    RelocateNeutral {
        player: usize,
        origin: usize,
        piece: i32,
        extras: i32,
    },
    Move {
        player: usize,
        left: i32,
    },
    MoveOpponents {
        player: usize,
        left: i32,
    },
    RemoveOpponents {
        player: usize,
        left: i32,
    },
    PlaceMarkers {
        player: usize,
    },
    /// the permanent marker `kind` (PERMANENT_MARKERS) of the route just established
    PermanentMarker {
        player: usize,
        kind: u8,
        left: i32,
        traders: i32,
        merchants: i32,
    },
    FavourIncome {
        player: usize,
    },
}

impl Decision {
    #[inline]
    pub fn player(&self) -> usize {
        match *self {
            Decision::Relocate { player, .. }
            | Decision::RelocateNeutral { player, .. }
            | Decision::Move { player, .. }
            | Decision::MoveOpponents { player, .. }
            | Decision::RemoveOpponents { player, .. }
            | Decision::PlaceMarkers { player }
            | Decision::FavourIncome { player }
            | Decision::PermanentMarker { player, .. } => player,
        }
    }

    /// `KIND` of the Python class.
    pub fn kind(&self) -> &'static str {
        match self {
            Decision::Relocate { .. } => "relocate",
            Decision::RelocateNeutral { .. } => "relocate_neutral",
            Decision::Move { .. } => "move",
            Decision::MoveOpponents { .. } => "move3",
            Decision::RemoveOpponents { .. } => "remove3",
            Decision::PlaceMarkers { .. } => "place_marker",
            Decision::FavourIncome { .. } => "favour_income",
            Decision::PermanentMarker { .. } => "permanent",
        }
    }

    /// `ALLOWED` of the Python class (action kinds this decision accepts).
    pub fn allowed(&self) -> &'static [u8] {
        match self {
            Decision::Relocate { .. } => &[K_RELOCATE, K_RELOCATE_EXTRA, K_DECLINE],
            Decision::RelocateNeutral { .. } => &[K_RELOCATE, K_RELOCATE_EXTRA],
            Decision::Move { .. } => &[K_MOVE_PIECE, K_SWAP, K_STOP],
            Decision::MoveOpponents { .. } => &[K_SHIFT, K_STOP],
            Decision::RemoveOpponents { .. } => &[K_REMOVE, K_STOP],
            Decision::PlaceMarkers { .. } => &[K_PLACE_MARKER],
            Decision::FavourIncome { .. } => &[K_FAVOUR_TAKE, K_DECLINE],
            Decision::PermanentMarker { .. } => &[
                K_PERM_MOVE,
                K_PERM_SWAP,
                K_PERM_DEVELOP,
                K_PERM_KONTOR,
                K_PERM_PLACE,
                K_STOP,
            ],
        }
    }

    /// The fields after the player, in the order of the Python class's fields
    /// (`player` first): what the bindings hand to Python.
    pub fn values(&self) -> Vec<i64> {
        match *self {
            Decision::Relocate {
                player,
                origin,
                piece,
                extras,
            }
            | Decision::RelocateNeutral {
                player,
                origin,
                piece,
                extras,
            } => vec![player as i64, origin as i64, piece.into(), extras.into()],
            Decision::Move { player, left }
            | Decision::MoveOpponents { player, left }
            | Decision::RemoveOpponents { player, left } => vec![player as i64, left.into()],
            Decision::PermanentMarker {
                player,
                kind,
                left,
                traders,
                merchants,
            } => vec![
                player as i64,
                kind.into(),
                left.into(),
                traders.into(),
                merchants.into(),
            ],
            Decision::PlaceMarkers { player } | Decision::FavourIncome { player } => {
                vec![player as i64]
            }
        }
    }

    /// (origin, piece, extras) of a relocation
    pub fn relocation(&self) -> Option<(usize, i32, i32)> {
        match *self {
            Decision::Relocate {
                origin,
                piece,
                extras,
                ..
            }
            | Decision::RelocateNeutral {
                origin,
                piece,
                extras,
                ..
            } => Some((origin, piece, extras)),
            _ => None,
        }
    }

    /// The colour whose pieces a relocation places.
    pub fn colour(&self, s: &State) -> i32 {
        match *self {
            Decision::RelocateNeutral { .. } => s.neutral(),
            d => d.player() as i32,
        }
    }

    pub fn legal(&self, s: &State, acts: &mut Vec<Action>) {
        match *self {
            Decision::Relocate {
                piece,
                extras,
                origin,
                player,
            } => {
                relocation_legal(s, player as i32, origin, piece, extras, acts);
                if piece < 0 {
                    acts.push(Action::k(K_DECLINE));
                }
            }
            Decision::RelocateNeutral {
                piece,
                extras,
                origin,
                ..
            } => {
                relocation_legal(s, s.neutral(), origin, piece, extras, acts);
            }
            Decision::Move { player, left } => own_moves(s, player, left >= 2, acts),
            Decision::MoveOpponents { player, .. } => {
                shift(s, player, false, K_SHIFT, acts);
                acts.push(Action::k(K_STOP));
            }
            Decision::RemoveOpponents { player, .. } => {
                for (i, &o) in s.posts.iter().enumerate() {
                    if o != EMPTY && (o >> 1) as i32 != player as i32 {
                        acts.push(Action::k1(K_REMOVE, i as i32));
                    }
                }
                acts.push(Action::k(K_STOP));
            }
            Decision::PlaceMarkers { .. } => {
                for r in marker_routes(s) {
                    acts.push(Action::k1(K_PLACE_MARKER, r as i32));
                }
            }
            Decision::FavourIncome { player } => {
                if s.stock_t[player] > 0 {
                    acts.push(Action::k1(K_FAVOUR_TAKE, TRADER));
                }
                if s.stock_m[player] > 0 {
                    acts.push(Action::k1(K_FAVOUR_TAKE, MERCHANT));
                }
                acts.push(Action::k(K_DECLINE));
            }
            Decision::PermanentMarker {
                player,
                kind,
                left,
                traders,
                merchants,
            } => {
                if left > 0 {
                    crate::variants::permanent::options(
                        s, player, kind, left, traders, merchants, acts,
                    );
                }
                acts.push(Action::k(K_STOP));
            }
        }
    }
}

fn relocation_legal(
    s: &State,
    v: i32,
    origin: usize,
    piece: i32,
    extras: i32,
    acts: &mut Vec<Action>,
) {
    if piece >= 0 {
        for r in relocation_routes(s, origin, piece, v) {
            acts.push(Action::k1(K_RELOCATE, r as i32));
        }
    }
    if extras > 0 {
        extra_relocations(s, v, origin, acts);
    }
}

/// Routes a displaced piece of `colour` may use (`relocation_routes`).
pub fn relocation_routes(s: &State, origin: usize, piece: i32, colour: i32) -> Vec<usize> {
    let b = s.board;
    let regions = b.has_regions;
    if colour >= 0 && s.has_favour(colour, F_RELOCATE_ANYWHERE) {
        return (0..b.n_routes)
            .filter(|&r| free_post(s, r, piece) >= 0 && (!regions || may_go(s, origin, r, false)))
            .collect();
    }
    for ring in &b.route_rings[origin] {
        let found: Vec<usize> = ring
            .iter()
            .copied()
            .filter(|&r| (!regions || may_go(s, origin, r, false)) && free_post(s, r, piece) >= 0)
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// The ways to place one extra piece of colour `v` near `origin` (`extra_relocations`).
pub fn extra_relocations(s: &State, v: i32, origin: usize, acts: &mut Vec<Action>) {
    let (st, sm) = stock_of(s, v);
    let kinds: [i32; 2];
    if st + sm > 0 {
        kinds = [
            if st > 0 { TRADER } else { -1 },
            if sm > 0 { MERCHANT } else { -1 },
        ];
    } else if v == s.neutral() {
        return;
    } else if s.supply_t[v as usize] + s.supply_m[v as usize] > 0 {
        let vu = v as usize;
        kinds = [
            if s.supply_t[vu] > 0 { TRADER } else { -1 },
            if s.supply_m[vu] > 0 { MERCHANT } else { -1 },
        ];
    } else {
        let routes = [
            relocation_routes(s, origin, TRADER, v),
            relocation_routes(s, origin, MERCHANT, v),
        ];
        let pr = &s.board.post_route;
        for (i, &o) in s.posts.iter().enumerate() {
            if o != EMPTY && (o >> 1) as i32 == v {
                for &r in &routes[(o & 1) as usize] {
                    if r != pr[i] {
                        acts.push(Action::new(K_RELOCATE_EXTRA, r as i32, -1, i as i32));
                    }
                }
            }
        }
        return;
    }
    for k in kinds {
        if k >= 0 {
            for r in relocation_routes(s, origin, k, v) {
                acts.push(Action::k2(K_RELOCATE_EXTRA, r as i32, k));
            }
        }
    }
}

/// A Move action's choices (`own_moves`).
pub fn own_moves(s: &State, p: usize, swaps: bool, acts: &mut Vec<Action>) {
    shift(s, p, true, K_MOVE_PIECE, acts);
    if swaps {
        for_each_swap(s, p, |x, y| {
            acts.push(Action::k2(K_SWAP, x as i32, y as i32))
        });
    }
    acts.push(Action::k(K_STOP));
}

/// `_shift`: own (or opponents') pieces to other routes; the country rule on Britannia is
/// non-strict for own pieces (Move) and strict for opponents' (move-3).
fn shift(s: &State, p: usize, own: bool, kind: u8, acts: &mut Vec<Action>) {
    let posts = &s.posts;
    let pieces = (0..posts.len())
        .filter(|&i| posts[i] != EMPTY && (((posts[i] >> 1) as i32 == p as i32) == own));
    shift_options(s, pieces, kind, Some(!own), acts);
}

/// Routes that may receive a replacement marker (`marker_routes`).
pub fn marker_routes(s: &State) -> Vec<usize> {
    let b = s.board;
    let mut out = Vec::new();
    for r in 0..b.n_routes {
        if s.route_marker[r] >= 0 || b.route_permanent[r] || b.route_region[r] {
            continue;
        }
        if b.route_posts(r).any(|i| s.posts[i] != EMPTY) {
            continue;
        }
        let [a, z] = b.route_cities[r];
        if b.city_offices(a)
            .chain(b.city_offices(z))
            .any(|i| s.offices[i] == EMPTY)
        {
            out.push(r);
        }
    }
    out
}

/// Resolve the top decision without a decision if nothing is left to decide.
pub fn settle_top(s: &mut State) -> bool {
    let Some(top) = s.pending.last().copied() else {
        return false;
    };
    match top {
        Decision::Relocate {
            origin,
            piece,
            extras,
            ..
        }
        | Decision::RelocateNeutral {
            origin,
            piece,
            extras,
            ..
        } => {
            let v = top.colour(s);
            let (mut piece2, mut extras2) = (piece, extras);
            if piece2 >= 0 && relocation_routes(s, origin, piece2, v).is_empty() {
                to_stock(s, v, piece2, 1);
                piece2 = -1;
            }
            if extras2 > 0 {
                let mut opts = Vec::new();
                extra_relocations(s, v, origin, &mut opts);
                if opts.is_empty() {
                    extras2 = 0;
                }
            }
            if piece2 < 0 && extras2 == 0 {
                s.pending.pop();
                return true;
            }
            if (piece2, extras2) != (piece, extras) {
                set_relocation(s, piece2, extras2);
            }
            false
        }
        Decision::Move { left, .. }
        | Decision::MoveOpponents { left, .. }
        | Decision::RemoveOpponents { left, .. } => {
            if left <= 0 {
                s.pending.pop();
                return true;
            }
            false
        }
        Decision::PlaceMarkers { .. } => {
            if s.drawn.is_empty() {
                s.pending.pop();
                next_player(s);
                return true;
            }
            if marker_routes(s).is_empty() {
                let e = crate::events::Event::new(crate::events::E_MARKER_DISCARDED)
                    .seat(s.active as i32)
                    .detail(crate::events::Detail::Marker(s.drawn[0]));
                s.events.push(e);
                let m = s.drawn.remove(0);
                s.discarded.push(m);
                return true;
            }
            false
        }
        Decision::FavourIncome { .. } => false,
        Decision::PermanentMarker { left, .. } => {
            let mut acts = Vec::new();
            top.legal(s, &mut acts);
            if left <= 0 || (acts.len() == 1 && acts[0].kind == K_STOP) {
                stop_top(s);
                return true;
            }
            false
        }
    }
}

/// `stop`: the top decision ends (a permanent marker's establish action is over, so its
/// end check runs now).
pub fn stop_top(s: &mut State) {
    if let Some(top) = s.pending.pop() {
        if matches!(top, Decision::PermanentMarker { .. }) {
            check_end(s);
        }
    }
}

/// Replace the top relocation's piece and extras.
pub fn set_relocation(s: &mut State, new_piece: i32, new_extras: i32) {
    if let Some(
        Decision::Relocate { piece, extras, .. } | Decision::RelocateNeutral { piece, extras, .. },
    ) = s.pending.last_mut()
    {
        *piece = new_piece;
        *extras = new_extras;
    }
}

/// Spend `n` moves of the top Move / move-3 / remove-3 decision.
pub fn spend(s: &mut State, n: i32) {
    if let Some(
        Decision::Move { left, .. }
        | Decision::MoveOpponents { left, .. }
        | Decision::RemoveOpponents { left, .. },
    ) = s.pending.last_mut()
    {
        *left -= n;
    }
}

#[cfg(test)]
mod tests {
    //! Pending decisions against /work/shared/RULES.md ("A turn": Displace and Move; "Bonus
    //! markers": move 3 / remove 3; "End of turn"; the Emperor's Favour), on positions
    //! built from a printed new game (base board, 3 players).
    use super::*;
    use crate::rules::{apply_unchecked, legal};
    use crate::state::{new_game, Config, F_RELOCATE_ANYWHERE};
    use crate::test_support::{self, city, route};

    fn game() -> State {
        test_support::game(3, "base_3p")
    }

    fn routes(s: &State, pairs: &[(&str, &str)]) -> Vec<usize> {
        let mut out: Vec<usize> = pairs.iter().map(|(a, z)| route(s, a, z)).collect();
        out.sort_unstable();
        out
    }

    /// Every post of route `r` to `player`'s traders.
    fn fill(s: &mut State, r: usize, player: i32) {
        for i in s.board.route_posts(r) {
            s.posts[i] = (player * 2) as i8;
        }
    }

    /// Player 1's trader displaced from Hamburg–Lübeck by player 0: player 1 decides.
    fn displaced() -> (State, usize) {
        let mut s = game();
        let origin = route(&s, "Hamburg", "Lubeck");
        let post = s.board.post_start[origin];
        s.posts[post] = 2;
        apply_unchecked(&mut s, &Action::new(K_DISPLACE, post as i32, TRADER, 0));
        (s, origin)
    }

    #[test]
    fn a_displaced_piece_goes_to_the_adjacent_routes_then_one_step_further() {
        // "on free posts of routes adjacent to the route it came from (sharing a city) ...
        // Only if every post of every adjacent route is taken may they go one step further
        // out, and so on (breadth-first over routes)."
        let (mut s, origin) = displaced();
        let adjacent = routes(
            &s,
            &[
                ("Hamburg", "Luneburg"),
                ("Hamburg", "Bremen"),
                ("Hamburg", "Stade"),
            ],
        );
        assert_eq!(relocation_routes(&s, origin, TRADER, 1), adjacent);
        let mut offered: Vec<usize> = legal(&s)
            .iter()
            .filter(|a| a.kind == K_RELOCATE)
            .map(|a| a.a as usize)
            .collect();
        offered.sort_unstable();
        assert_eq!(offered, adjacent);
        for &r in &adjacent {
            fill(&mut s, r, 2);
        }
        let next = routes(
            &s,
            &[
                ("Luneburg", "Hannover"),
                ("Luneburg", "Perleberg"),
                ("Bremen", "Osnabruck"),
                ("Bremen", "Minden"),
                ("Bremen", "Hannover"),
            ],
        );
        assert_eq!(relocation_routes(&s, origin, TRADER, 1), next);
    }

    #[test]
    fn extras_come_from_the_stock_then_the_supply_then_own_posts_and_may_be_declined() {
        // "places the displaced piece plus up to 1 (trader) ... extra tradesmen — taken
        // from their general stock, else their personal supply, else moved from their own
        // posts ... may decline the extras"
        let (mut s, origin) = displaced();
        let sources = |s: &State| -> Vec<(i32, i32)> {
            let mut v = Vec::new();
            extra_relocations(s, 1, origin, &mut v);
            v.iter().map(|a| (a.b, a.c)).collect()
        };
        assert!(sources(&s).iter().all(|&(k, post)| k == TRADER && post < 0));
        // the displaced trader first; then only extras, or decline
        let first = legal(&s)
            .into_iter()
            .find(|a| a.kind == K_RELOCATE)
            .unwrap();
        apply_unchecked(&mut s, &first);
        assert_eq!(
            s.pending.last(),
            Some(&Decision::Relocate {
                player: 1,
                origin,
                piece: -1,
                extras: 1
            })
        );
        assert!(legal(&s).contains(&Action::k(K_DECLINE)));
        // an empty stock: from the personal supply
        let supply = s.supply_t[1];
        s.stock_t[1] = 0;
        let extra = legal(&s)
            .into_iter()
            .find(|a| a.kind == K_RELOCATE_EXTRA)
            .unwrap();
        assert_eq!(extra.c, -1);
        let mut from_supply = s.clone();
        apply_unchecked(&mut from_supply, &extra);
        assert_eq!(from_supply.supply_t[1], supply - 1);
        // nothing loose: one of their own pieces on the board moves
        s.supply_t[1] = 0;
        s.supply_m[1] = 0;
        let own = sources(&s);
        assert!(!own.is_empty() && own.iter().all(|&(_, post)| post >= 0));
        assert!(own
            .iter()
            .all(|&(_, post)| s.posts[post as usize] >> 1 == 1));
        // declining ends the decision: player 0 plays on
        apply_unchecked(&mut s, &Action::k(K_DECLINE));
        assert!(s.pending.is_empty());
        assert_eq!(s.current_player(), 0);
    }

    #[test]
    fn a_displaced_piece_with_nowhere_to_go_returns_to_the_stock() {
        // (breadth-first until a free post; with none anywhere the piece cannot be placed)
        let mut s = game();
        let origin = route(&s, "Hamburg", "Lubeck");
        for i in 0..s.posts.len() {
            s.posts[i] = 4; // player 2's traders everywhere
        }
        let stock = s.stock_t[1];
        s.pending.push(Decision::Relocate {
            player: 1,
            origin,
            piece: TRADER,
            extras: 1,
        });
        while settle_top(&mut s) {}
        assert!(s.pending.is_empty());
        assert_eq!(s.stock_t[1], stock + 1);
    }

    #[test]
    fn the_relocate_anywhere_favour_opens_every_route_with_a_free_post() {
        // Emperor's Favour: "displaced pieces (yours) may go to any free posts"
        let mut c = Config::printed(3, "base_3p", 1);
        c.emperor = true;
        let mut s = new_game(&c).unwrap();
        let origin = route(&s, "Hamburg", "Lubeck");
        let near = relocation_routes(&s, origin, TRADER, 1);
        s.favours[1] = vec![F_RELOCATE_ANYWHERE];
        let anywhere = relocation_routes(&s, origin, TRADER, 1);
        assert!(near.len() < anywhere.len());
        assert_eq!(anywhere, (0..s.board.n_routes).collect::<Vec<_>>());
        assert_eq!(relocation_routes(&s, origin, TRADER, 0), near);
    }

    #[test]
    fn a_move_takes_up_to_the_book_value_and_two_moves_may_swap() {
        // "Move — move up to Book value of own tradesmen from posts to free posts. Two
        // moves may swap one own trader with one own merchant. No displacing."
        let mut s = game();
        let a = s.board.post_start[route(&s, "Hamburg", "Lubeck")];
        let z = s.board.post_start[route(&s, "Emden", "Groningen")];
        s.posts[a] = 0; // player 0's trader
        s.posts[z] = 1; // player 0's merchant
        let taken = s.board.post_start[route(&s, "Hamburg", "Stade")];
        s.posts[taken] = 2; // player 1's trader: never moved, never displaced
        s.actions_left = 3;
        apply_unchecked(&mut s, &Action::k(K_MOVE));
        assert_eq!(
            s.pending.last(),
            Some(&Decision::Move { player: 0, left: 2 })
        );
        let acts = legal(&s);
        assert!(acts.contains(&Action::k2(K_SWAP, a as i32, z as i32)));
        assert!(acts
            .iter()
            .all(|x| x.kind != K_MOVE_PIECE || x.a == a as i32 || x.a == z as i32));
        assert!(acts.contains(&Action::k(K_STOP)));
        let step = *acts
            .iter()
            .find(|x| x.kind == K_MOVE_PIECE && x.a == a as i32)
            .unwrap();
        apply_unchecked(&mut s, &step);
        assert_eq!(
            s.pending.last(),
            Some(&Decision::Move { player: 0, left: 1 })
        );
        assert!(legal(&s).iter().all(|x| x.kind != K_SWAP));
        let step = *legal(&s).iter().find(|x| x.kind == K_MOVE_PIECE).unwrap();
        apply_unchecked(&mut s, &step);
        assert!(s.pending.is_empty());
        assert_eq!(s.posts[taken], 2);
        // Book 3: three moves
        s.levels[0][crate::board::A_BOOK] = 1;
        apply_unchecked(&mut s, &Action::k(K_MOVE));
        assert_eq!(
            s.pending.last(),
            Some(&Decision::Move { player: 0, left: 3 })
        );
    }

    #[test]
    fn remove_three_takes_only_opponents_pieces_back_to_their_owners_supply() {
        // remove 3: "remove up to 3 opponents' tradesmen from posts to their owners'
        // personal supplies"; move 3: "move up to 3 opponents' tradesmen from posts to
        // free posts"
        let mut s = game();
        let hl = s.board.post_start[route(&s, "Hamburg", "Lubeck")];
        s.posts[hl] = 0; // own
        s.posts[hl + 1] = 3; // player 1's merchant
        s.posts[hl + 2] = 4; // player 2's trader
        s.pending
            .push(Decision::RemoveOpponents { player: 0, left: 3 });
        let acts = legal(&s);
        assert_eq!(
            acts,
            vec![
                Action::k1(K_REMOVE, hl as i32 + 1),
                Action::k1(K_REMOVE, hl as i32 + 2),
                Action::k(K_STOP)
            ]
        );
        let m = s.supply_m[1];
        apply_unchecked(&mut s, &acts[0]);
        assert_eq!((s.supply_m[1], s.posts[hl + 1]), (m + 1, EMPTY));
        assert_eq!(
            s.pending.last(),
            Some(&Decision::RemoveOpponents { player: 0, left: 2 })
        );
        s.pending.pop();
        s.pending
            .push(Decision::MoveOpponents { player: 0, left: 3 });
        let moved: Vec<i32> = legal(&s)
            .iter()
            .filter(|a| a.kind == K_SHIFT)
            .map(|a| a.a)
            .collect();
        assert!(!moved.is_empty() && moved.iter().all(|&i| i == hl as i32 + 2));
    }

    #[test]
    fn a_replacement_marker_goes_beside_an_empty_route_with_a_vacant_office() {
        // "beside a route that has no marker, no tradesmen, and at least one endpoint city
        // with a vacant office"
        let mut s = game();
        let all = marker_routes(&s);
        let hl = route(&s, "Hamburg", "Lubeck");
        assert!(all.contains(&hl));
        assert!(all.iter().all(|&r| s.route_marker[r] < 0));
        s.posts[s.board.post_start[hl]] = 2;
        assert!(!marker_routes(&s).contains(&hl));
        s.posts[s.board.post_start[hl]] = EMPTY;
        // Stade – Hamburg with both cities full
        let hs = route(&s, "Hamburg", "Stade");
        for c in [city(&s, "Hamburg"), city(&s, "Stade")] {
            for i in s.board.city_offices(c) {
                s.offices[i] = 2;
            }
        }
        assert!(!marker_routes(&s).contains(&hs));
        // Hamburg is full, Lübeck is not: Hamburg–Lübeck still takes a marker
        assert!(marker_routes(&s).contains(&hl));
        // no route at all: the drawn marker is discarded
        for i in 0..s.posts.len() {
            s.posts[i] = 2;
        }
        s.drawn = vec![3];
        s.pending.push(Decision::PlaceMarkers { player: 0 });
        assert!(settle_top(&mut s));
        assert_eq!((s.drawn.len(), s.discarded.clone()), (0, vec![3]));
        assert!(settle_top(&mut s));
        assert!(s.pending.is_empty() && s.active == 1);
    }
}
