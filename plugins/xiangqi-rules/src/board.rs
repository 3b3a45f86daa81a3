//! The xiangqi board: pieces on 90 squares, legal move generation, attack
//! tests, and make/unmake with an incremental Zobrist hash.
//!
//! Squares are `rank * 9 + file`: file 0 is `a` (Red's left), rank 0 is
//! Red's back rank. A move is `from | to << 7`.

use plyd_api::Move;

use crate::tables::{
    in_palace, ADVISOR_STEPS, ELEPHANT_STEPS, HORSE_ATTACKERS, HORSE_STEPS, KING_STEPS, PAWN_STEPS,
    PIECE_KEYS, RAYS, SIDE_KEY,
};

/// Files on the board.
pub const FILES: usize = 9;
/// Ranks on the board.
pub const RANKS: usize = 10;
/// Squares on the board.
pub const SQUARES: usize = FILES * RANKS;

/// The square at `file`, `rank`.
pub const fn square(file: usize, rank: usize) -> usize {
    rank * FILES + file
}

/// The file (0 = `a`) of a square.
pub const fn file_of(sq: usize) -> usize {
    sq % FILES
}

/// The rank (0 = Red's back rank) of a square.
pub const fn rank_of(sq: usize) -> usize {
    sq / FILES
}

/// Red, who moves first.
pub const RED: usize = 0;
/// Black.
pub const BLACK: usize = 1;

/// Piece kinds; a piece code is the kind, plus [`BLACK_FLAG`] for Black.
/// Empty squares hold [`EMPTY`].
pub const EMPTY: u8 = 0;
/// The general (king).
pub const KING: u8 = 1;
/// The advisor.
pub const ADVISOR: u8 = 2;
/// The elephant.
pub const ELEPHANT: u8 = 3;
/// The horse.
pub const HORSE: u8 = 4;
/// The chariot.
pub const CHARIOT: u8 = 5;
/// The cannon.
pub const CANNON: u8 = 6;
/// The pawn (soldier).
pub const PAWN: u8 = 7;
/// Added to a kind for Black's pieces.
pub const BLACK_FLAG: u8 = 8;

/// The piece code of `kind` for `color`.
#[inline]
pub const fn piece(color: usize, kind: u8) -> u8 {
    kind | (color as u8) << 3
}

/// The kind of a piece code.
#[inline]
pub const fn kind_of(code: u8) -> u8 {
    code & 7
}

/// The colour of a (non-empty) piece code.
#[inline]
pub const fn color_of(code: u8) -> usize {
    (code >> 3) as usize
}

/// Pack a move.
#[inline]
pub const fn make_move(from: usize, to: usize) -> Move {
    (from as u32) | (to as u32) << 7
}

/// The from-square of a move.
#[inline]
pub const fn from_sq(mv: Move) -> usize {
    (mv & 0x7f) as usize
}

/// The to-square of a move.
#[inline]
pub const fn to_sq(mv: Move) -> usize {
    ((mv >> 7) & 0x7f) as usize
}

/// A position: the board, the side to move, and what the generator keeps
/// up to date alongside (general squares, occupancy, hash).
///
/// `#[repr(C)]`: `board` at offset 0 and `side` at offset 90 are the state
/// layout that evaluator plugins read (see the crate docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Position {
    /// Piece codes by square.
    pub board: [u8; SQUARES],
    /// 0 Red to move, 1 Black.
    pub side: u8,
    /// Square of each side's general.
    pub kings: [u8; 2],
    /// Zobrist hash of board and side.
    pub hash: u64,
    /// Squares occupied by each side, bit per square.
    pub occupied: [u128; 2],
}

impl Position {
    /// An empty board with Red to move (not a playable position).
    pub fn empty() -> Position {
        Position {
            board: [EMPTY; SQUARES],
            side: RED as u8,
            kings: [0, 0],
            hash: 0,
            occupied: [0, 0],
        }
    }

    /// Put `code` on the empty square `sq`.
    pub fn put(&mut self, sq: usize, code: u8) {
        debug_assert_eq!(self.board[sq], EMPTY);
        self.board[sq] = code;
        self.hash ^= PIECE_KEYS[code as usize][sq];
        self.occupied[color_of(code)] |= 1u128 << sq;
        if kind_of(code) == KING {
            self.kings[color_of(code)] = sq as u8;
        }
    }

    /// Set the side to move, keeping the hash in step.
    pub fn set_side(&mut self, side: usize) {
        if self.side as usize != side {
            self.side = side as u8;
            self.hash ^= SIDE_KEY;
        }
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// Whether neither side has a chariot, horse, cannon or pawn left:
    /// generals, advisors and elephants alone can never mate, and the
    /// game is drawn. At most ten pieces are looked at (the generals and
    /// their four defenders each); a fuller board is not.
    pub fn no_attackers(&self) -> bool {
        let pieces = self.occupied[0] | self.occupied[1];
        pieces.count_ones() <= 10
            && Self::bits(pieces)
                .all(|sq| matches!(kind_of(self.board[sq]), KING | ADVISOR | ELEPHANT))
    }

    /// The squares of a bit set, lowest first.
    fn bits(mut bits: u128) -> impl Iterator<Item = usize> {
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(sq)
        })
    }

    /// The squares of `color`'s pieces, lowest first.
    pub fn squares_of(&self, color: usize) -> impl Iterator<Item = usize> {
        Self::bits(self.occupied[color])
    }

    /// Play `mv` (legal, or the null move) and return the captured code.
    #[inline]
    pub fn play(&mut self, mv: Move) -> u8 {
        if mv == plyd_api::abi::NULL_MOVE {
            self.side ^= 1;
            self.hash ^= SIDE_KEY;
            return EMPTY;
        }
        let (from, to) = (from_sq(mv), to_sq(mv));
        let moving = self.board[from];
        let captured = self.board[to];
        let us = color_of(moving);
        self.board[from] = EMPTY;
        self.board[to] = moving;
        self.hash ^= PIECE_KEYS[moving as usize][from] ^ PIECE_KEYS[moving as usize][to] ^ SIDE_KEY;
        self.occupied[us] ^= 1u128 << from | 1u128 << to;
        if captured != EMPTY {
            self.hash ^= PIECE_KEYS[captured as usize][to];
            self.occupied[us ^ 1] ^= 1u128 << to;
        }
        if kind_of(moving) == KING {
            self.kings[us] = to as u8;
        }
        self.side ^= 1;
        captured
    }

    /// Take back `mv`, which captured `captured`.
    #[inline]
    pub fn take_back(&mut self, mv: Move, captured: u8) {
        self.side ^= 1;
        self.hash ^= SIDE_KEY;
        if mv == plyd_api::abi::NULL_MOVE {
            return;
        }
        let (from, to) = (from_sq(mv), to_sq(mv));
        let moving = self.board[to];
        let us = color_of(moving);
        self.board[to] = captured;
        self.board[from] = moving;
        self.hash ^= PIECE_KEYS[moving as usize][from] ^ PIECE_KEYS[moving as usize][to];
        self.occupied[us] ^= 1u128 << from | 1u128 << to;
        if captured != EMPTY {
            self.hash ^= PIECE_KEYS[captured as usize][to];
            self.occupied[us ^ 1] |= 1u128 << to;
        }
        if kind_of(moving) == KING {
            self.kings[us] = from as u8;
        }
    }

    /// Whether the side to move's general is attacked.
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side();
        attacked(&self.board, self.kings[us] as usize, us ^ 1)
    }

    /// Whether playing `mv`, a legal move, leaves the opponent's general
    /// attacked: [`Position::in_check`] of the position after it, without
    /// playing it.
    #[inline]
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side();
        let (from, to) = (from_sq(mv), to_sq(mv));
        let mut board = self.board;
        board[to] = board[from];
        board[from] = EMPTY;
        attacked(&board, self.kings[us ^ 1] as usize, us)
    }

    /// Whether `color`'s general is attacked.
    pub fn king_attacked(&self, color: usize) -> bool {
        attacked(&self.board, self.kings[color] as usize, color ^ 1)
    }

    /// Push every pseudo-legal move of the side to move (captures only if
    /// `noisy`): moves that follow the pieces' rules but may leave the
    /// mover's general attacked.
    #[inline]
    pub fn pseudo_moves(&self, noisy: bool, out: &mut impl FnMut(Move)) {
        for from in self.squares_of(self.side()) {
            self.piece_moves(from, noisy, out);
        }
    }

    /// Push the pseudo-legal moves of the piece on `from`, whichever side it
    /// belongs to (captures only if `noisy`; nothing for an empty square).
    #[inline]
    pub fn piece_moves(&self, from: usize, noisy: bool, out: &mut impl FnMut(Move)) {
        let us = color_of(self.board[from]);
        let board = &self.board;
        // A destination is open if empty (quiet moves wanted) or an enemy.
        let open = |code: u8| -> bool {
            if code == EMPTY {
                !noisy
            } else {
                color_of(code) != us
            }
        };
        match kind_of(board[from]) {
            KING => steps(&KING_STEPS[from], from, board, open, false, out),
            ADVISOR => steps(&ADVISOR_STEPS[from], from, board, open, false, out),
            ELEPHANT => steps(&ELEPHANT_STEPS[from], from, board, open, true, out),
            HORSE => steps(&HORSE_STEPS[from], from, board, open, true, out),
            PAWN => steps(&PAWN_STEPS[us][from], from, board, open, false, out),
            CHARIOT => {
                for ray in &RAYS[from] {
                    for &to in ray.squares() {
                        let code = board[to as usize];
                        if code == EMPTY {
                            if !noisy {
                                out(make_move(from, to as usize));
                            }
                            continue;
                        }
                        if color_of(code) != us {
                            out(make_move(from, to as usize));
                        }
                        break;
                    }
                }
            }
            CANNON => {
                for ray in &RAYS[from] {
                    let mut screened = false;
                    for &to in ray.squares() {
                        let code = board[to as usize];
                        if !screened {
                            if code == EMPTY {
                                if !noisy {
                                    out(make_move(from, to as usize));
                                }
                            } else {
                                screened = true;
                            }
                        } else if code != EMPTY {
                            if color_of(code) != us {
                                out(make_move(from, to as usize));
                            }
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether the pseudo-legal `mv` leaves the mover's general safe (not
    /// attacked, not facing the other general). `scratch` must hold this
    /// position's board; it is changed and restored.
    #[inline]
    pub fn leaves_king_safe(&self, mv: Move, scratch: &mut [u8; SQUARES], in_check: bool) -> bool {
        let us = self.side();
        let (from, to) = (from_sq(mv), to_sq(mv));
        let moving = scratch[from];
        let king = if kind_of(moving) == KING {
            to
        } else {
            let king = self.kings[us] as usize;
            // Out of check, a move can only expose the general along its
            // file or rank (a line piece uncovered, a cannon screen made or
            // removed) or by leaving a horse's leg next to it.
            if !in_check && !touches_king_lines(king, from, to) {
                return true;
            }
            king
        };
        let captured = scratch[to];
        scratch[to] = moving;
        scratch[from] = EMPTY;
        let safe = !attacked(scratch, king, us ^ 1);
        scratch[from] = moving;
        scratch[to] = captured;
        safe
    }

    /// Push every legal move (captures only if `noisy`).
    #[inline]
    pub fn legal_moves(&self, noisy: bool, out: &mut impl FnMut(Move)) {
        let mut scratch = self.board;
        let in_check = self.in_check();
        self.pseudo_moves(noisy, &mut |mv| {
            if self.leaves_king_safe(mv, &mut scratch, in_check) {
                out(mv);
            }
        });
    }

    /// Number of legal moves.
    pub fn count_legal(&self) -> u64 {
        let mut count = 0;
        self.legal_moves(false, &mut |_| count += 1);
        count
    }

    /// Whether the side to move has any legal move. Stops after the first
    /// piece that has one (within a piece, the tests after the first legal
    /// move are skipped).
    pub fn has_legal_move(&self) -> bool {
        let mut scratch = self.board;
        let in_check = self.in_check();
        self.squares_of(self.side()).any(|from| {
            let mut found = false;
            self.piece_moves(from, false, &mut |mv| {
                found = found || self.leaves_king_safe(mv, &mut scratch, in_check);
            });
            found
        })
    }

    /// Whether `mv` is legal here: any `u32` may come in.
    pub fn is_legal(&self, mv: Move) -> bool {
        if mv >> 14 != 0 {
            return false;
        }
        let (from, to) = (from_sq(mv), to_sq(mv));
        if from >= SQUARES || to >= SQUARES {
            return false;
        }
        let moving = self.board[from];
        if moving == EMPTY || color_of(moving) != self.side() {
            return false;
        }
        // The generator of that one piece decides what it may do; a capture
        // is looked for among its captures only.
        let mut pseudo = false;
        self.piece_moves(from, self.board[to] != EMPTY, &mut |m| pseudo |= m == mv);
        if !pseudo {
            return false;
        }
        let mut scratch = self.board;
        self.leaves_king_safe(mv, &mut scratch, self.in_check())
    }
}

/// Step moves from a table; `blockable` steps need their `via` square empty.
#[inline]
fn steps(
    table: &crate::tables::Steps,
    from: usize,
    board: &[u8; SQUARES],
    open: impl Fn(u8) -> bool,
    blockable: bool,
    out: &mut impl FnMut(Move),
) {
    for (to, via) in table.iter() {
        if blockable && board[via] != EMPTY {
            continue;
        }
        if open(board[to]) {
            out(make_move(from, to));
        }
    }
}

/// Whether moving a piece from `from` to `to` could change the attacks on a
/// general at `king`: either square on its file or rank, or `from` a
/// diagonal neighbour (a horse's leg).
#[inline]
fn touches_king_lines(king: usize, from: usize, to: usize) -> bool {
    let (kf, kr) = (file_of(king), rank_of(king));
    let (ff, fr) = (file_of(from), rank_of(from));
    let (tf, tr) = (file_of(to), rank_of(to));
    ff == kf || fr == kr || tf == kf || tr == kr || (ff.abs_diff(kf) == 1 && fr.abs_diff(kr) == 1)
}

/// Whether square `sq` is attacked by `by`'s pieces on `board`. A general
/// on the same file with nothing between counts as attacking (the flying
/// general), so this answers "may a general stand here".
#[inline]
pub fn attacked(board: &[u8; SQUARES], sq: usize, by: usize) -> bool {
    let chariot = piece(by, CHARIOT);
    let cannon = piece(by, CANNON);
    let king = piece(by, KING);
    for (d, ray) in RAYS[sq].iter().enumerate() {
        let mut squares = ray.squares().iter();
        let mut first = EMPTY;
        for &s in squares.by_ref() {
            first = board[s as usize];
            if first != EMPTY {
                break;
            }
        }
        if first == EMPTY {
            continue;
        }
        if first == chariot || (first == king && d < 2) {
            return true;
        }
        for &s in squares {
            let code = board[s as usize];
            if code != EMPTY {
                if code == cannon {
                    return true;
                }
                break;
            }
        }
    }
    let horse = piece(by, HORSE);
    for (from, leg) in HORSE_ATTACKERS[sq].iter() {
        if board[from] == horse && board[leg] == EMPTY {
            return true;
        }
    }
    let pawn = piece(by, PAWN);
    let (file, rank) = (file_of(sq), rank_of(sq));
    let (behind, crossed) = if by == RED {
        (rank >= 1 && board[sq - FILES] == pawn, rank >= 5)
    } else {
        (rank + 1 < RANKS && board[sq + FILES] == pawn, rank <= 4)
    };
    behind
        || (crossed
            && ((file > 0 && board[sq - 1] == pawn) || (file + 1 < FILES && board[sq + 1] == pawn)))
}

/// The squares a piece on `from` attacks (could capture on if an enemy
/// stood there), ignoring whether the capture would be legal. The general
/// attacks its palace steps only.
pub fn attacks_from(board: &[u8; SQUARES], from: usize, out: &mut impl FnMut(usize)) {
    let code = board[from];
    let color = color_of(code);
    let step_table = match kind_of(code) {
        KING => Some((&KING_STEPS[from], false)),
        ADVISOR => Some((&ADVISOR_STEPS[from], false)),
        ELEPHANT => Some((&ELEPHANT_STEPS[from], true)),
        HORSE => Some((&HORSE_STEPS[from], true)),
        PAWN => Some((&PAWN_STEPS[color][from], false)),
        _ => None,
    };
    if let Some((table, blockable)) = step_table {
        for (to, via) in table.iter() {
            if !blockable || board[via] == EMPTY {
                out(to);
            }
        }
        return;
    }
    let cannon = kind_of(code) == CANNON;
    for ray in &RAYS[from] {
        let mut screened = false;
        for &to in ray.squares() {
            let to = to as usize;
            if board[to] == EMPTY {
                continue;
            }
            if cannon && !screened {
                screened = true;
                continue;
            }
            out(to);
            break;
        }
    }
}

/// Whether the placement of `code` on `sq` is one its piece can ever reach
/// (advisors and generals in their palace, elephants on their seven
/// points, pawns on or past their starting ranks).
pub fn reachable(code: u8, sq: usize) -> bool {
    let color = color_of(code);
    let rank = rank_of(sq);
    let own_half = if color == RED { rank <= 4 } else { rank >= 5 };
    let (file, relative_rank) = (file_of(sq), if color == RED { rank } else { 9 - rank });
    match kind_of(code) {
        KING => in_palace(sq) && own_half,
        ADVISOR => in_palace(sq) && own_half && (file + relative_rank) % 2 == 1,
        ELEPHANT => {
            own_half
                && matches!(
                    (file, relative_rank),
                    (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
                )
        }
        PAWN => relative_rank >= 5 || (relative_rank >= 3 && file % 2 == 0),
        _ => true,
    }
}
