//! Helpers the crate's unit tests share: a printed new game and the board's cities and
//! routes by name.

use crate::state::{new_game, Config, State};

/// A printed new game: `n` players on board side `side`, seed 1.
pub fn game(n: usize, side: &str) -> State {
    new_game(&Config::printed(n, side, 1)).unwrap()
}

/// The index of the city named `name` (its ASCII spelling).
pub fn city(s: &State, name: &str) -> usize {
    s.board
        .city_ascii
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no city {name}"))
}

/// The route between cities `a` and `z`.
pub fn route(s: &State, a: &str, z: &str) -> usize {
    let (a, z) = (city(s, a), city(s, z));
    (0..s.board.n_routes)
        .find(|&r| {
            let ends = s.board.route_cities[r];
            ends == [a, z] || ends == [z, a]
        })
        .expect("a route between the two cities")
}
