//! The exact solver's work outlives the thread that did it: the host runs
//! every search on new threads, and an ending solved in one search must be
//! known in the next (the `odds` parameters promise that what a search
//! solved stays solved for the rest of the game). Its own test binary, so
//! that no other test's threads hand solvers to the pool in between.

use plyd_api::Game;
use plyd_game_einstein::{exact, EinStein};

#[test]
fn an_ending_solved_in_one_thread_is_known_in_the_next() {
    let text = "...../.12../...../..a../...b. r - -";
    let solved = std::thread::spawn(move || {
        let mut game = EinStein::new(0);
        game.set_position(text).unwrap();
        exact::win_probability(game.board(), 4, usize::MAX).unwrap()
    })
    .join()
    .unwrap();
    let known = std::thread::spawn(move || {
        let mut game = EinStein::new(0);
        game.set_position(text).unwrap();
        // Nothing new may be solved: only what the pool handed over.
        exact::win_probability(game.board(), 4, 0)
    })
    .join()
    .unwrap();
    assert_eq!(known, Some(solved));
    // A thread that never met the ending, with a solver of its own, does
    // not know it.
    let mut game = EinStein::new(0);
    game.set_position(text).unwrap();
    let ending = exact::Ending::of(game.board()).unwrap();
    assert_eq!(exact::Solver::new().solve(&ending, 0), None);
}
