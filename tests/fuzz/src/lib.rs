//! What the fuzz targets check, shared by every game.
//!
//! A game target's input is one byte choosing the variant, then text: the
//! first line is given to `set_position`, the words of the rest to
//! `parse_move` one by one. Whatever the bytes:
//!
//! * nothing panics, loops or allocates without bound (libFuzzer reports
//!   each as a crash, a timeout or an out-of-memory);
//! * a refused position text leaves the state as it was;
//! * an accepted one is written back as a text that reads to the same
//!   state (same text, same hash);
//! * a move text that parses to a legal move (or chance outcome) is played,
//!   and taking it back restores the hash and the text; a move text that
//!   parses to an illegal move is never played (legality is the host's
//!   check, through the same move list).

use plyd_api::{ChanceSink, Game, Move, MoveSink, Outcome};

/// The legal moves, or the outcomes of a chance node.
fn moves_of<G: Game>(game: &G) -> Vec<Move> {
    let mut buf = vec![0; 256];
    if G::HAS_CHANCE {
        let mut weights = vec![0; buf.len()];
        let n = {
            let mut sink = ChanceSink::new(&mut buf, &mut weights);
            game.chance_outcomes(&mut sink);
            sink.len()
        };
        if n > 0 {
            if n > buf.len() {
                buf = vec![0; n];
                weights = vec![0; n];
                game.chance_outcomes(&mut ChanceSink::new(&mut buf, &mut weights));
            }
            buf.truncate(n);
            return buf;
        }
    }
    let n = {
        let mut sink = MoveSink::new(&mut buf);
        game.generate_moves(&mut sink);
        sink.len()
    };
    if n > buf.len() {
        buf = vec![0; n];
        game.generate_moves(&mut MoveSink::new(&mut buf));
    }
    buf.truncate(n);
    buf
}

/// The checks of the module comment, for game `G`.
pub fn position_and_moves<G: Game>(data: &[u8]) {
    let Some((&variant, rest)) = data.split_first() else {
        return;
    };
    let variant = usize::from(variant) % G::VARIANTS.len();
    let text = String::from_utf8_lossy(rest);
    let (position, moves) = text.split_once('\n').unwrap_or((&text, ""));

    let mut game = G::new(variant);
    let before = (game.position_text(), game.hash());
    match game.set_position(position) {
        Err(_) => assert_eq!(
            (game.position_text(), game.hash()),
            before,
            "a refused position text changed the state"
        ),
        Ok(()) => {
            let written = game.position_text();
            let mut again = G::new(variant);
            if let Err(e) = again.set_position(&written) {
                panic!("the game's own text {written:?} (from {position:?}) is refused: {e}");
            }
            assert_eq!(again.position_text(), written, "from {position:?}");
            assert_eq!(again.hash(), game.hash(), "hash of {written:?} read back");
        }
    }

    for word in moves.split_whitespace().take(64) {
        let Some(mv) = game.parse_move(word) else {
            continue;
        };
        if game.outcome() != Outcome::Ongoing || !moves_of(&game).contains(&mv) {
            continue;
        }
        let (text, hash) = (game.position_text(), game.hash());
        game.make_move(mv);
        game.unmake_move(mv);
        assert_eq!(game.hash(), hash, "{word} made and unmade in {text:?}");
        assert_eq!(game.position_text(), text, "{word} made and unmade");
        game.make_move(mv);
        let _ = game.format_move(mv);
    }
}
