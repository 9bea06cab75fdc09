//! Position verdicts per rulebook (checkmate, stalemate, waiting) and draw claims (repetition,
//! move count).

use std::fmt;

use shakmaty::{Bitboard, Color, Role};

use crate::position::Position;
use crate::rules::{MateRule, NoMoveRule};
use crate::types::{Move, Reserve, RESERVE_ROLES};

/// What the position means for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move has a legal move.
    Ongoing,
    /// The side to move is checkmated: he loses.
    Checkmate,
    /// The side to move has no legal move, is not in check, and no piece could change that: a
    /// draw.
    Stalemate,
    /// The side to move has no legal move now but the game goes on: a piece from his partner
    /// could give him one (F3.7, U15a1a). His clock keeps running.
    Waiting,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Ongoing => "ongoing",
            Verdict::Checkmate => "checkmate",
            Verdict::Stalemate => "stalemate",
            Verdict::Waiting => "waiting",
        })
    }
}

impl Position {
    /// The pieces of `color` that are not on this board, counting both sets of the match (one
    /// set in crazyhouse): what he could hold in his reserve at some time (F3.7). A promoted
    /// piece on the board counts as a pawn.
    pub fn potential_reserve(&self, color: Color) -> Reserve {
        let sets = self.rules().sets();
        let b = self.board();
        let ours = b.by_color(color);
        let unpromoted = ours & !self.promoted();
        let promoted = (ours & self.promoted()).count();
        let mut reserve = Reserve::EMPTY;
        for role in RESERVE_ROLES {
            let per_set: usize = match role {
                Role::Pawn => 8,
                Role::Knight | Role::Bishop | Role::Rook => 2,
                _ => 1,
            };
            let mut on_board = (b.by_role(role) & unpromoted).count();
            if role == Role::Pawn {
                on_board += promoted;
            }
            let n = (per_set * usize::from(sets)).saturating_sub(on_board);
            reserve.set(role, u8::try_from(n).unwrap_or(u8::MAX));
        }
        reserve
    }

    /// Whether some piece of the potential reserve could be dropped now, were it in the reserve.
    fn could_ever_drop(&self) -> bool {
        let potential = self.potential_reserve(self.turn());
        RESERVE_ROLES
            .into_iter()
            .any(|role| potential.count(role) > 0 && self.potential_drop_squares(role).any())
    }

    /// The verdict of this position under its rules.
    ///
    /// With no legal move: in check it is checkmate, except under [`MateRule::Unblockable`]
    /// when a piece he could still receive could be dropped to block (then waiting); not in
    /// check it is stalemate, except under [`NoMoveRule::Wait`] when a piece he could still
    /// receive could be dropped (then waiting).
    ///
    /// # Examples
    ///
    /// ```
    /// use bughouse_core::{Position, Rules, Verdict};
    ///
    /// // A rook check along the back rank: a drop on f8, g8 or the like could block it.
    /// let fen = "R5k1/5ppp/8/8/8/8/8/6K1[] b - - 0 1";
    /// let fide = Position::from_fen(fen, Rules::fide()).unwrap();
    /// assert_eq!(fide.verdict(), Verdict::Waiting); // F3.7
    /// let minerva = Position::from_fen(fen, Rules::minerva_2014()).unwrap();
    /// assert_eq!(minerva.verdict(), Verdict::Checkmate);
    /// ```
    pub fn verdict(&self) -> Verdict {
        if self.has_legal_moves() {
            return Verdict::Ongoing;
        }
        if self.is_check() {
            match self.rules().mate {
                MateRule::Classic => Verdict::Checkmate,
                MateRule::Unblockable => {
                    if self.could_ever_drop() {
                        Verdict::Waiting
                    } else {
                        Verdict::Checkmate
                    }
                }
            }
        } else {
            match self.rules().no_move {
                NoMoveRule::Stalemate => Verdict::Stalemate,
                NoMoveRule::Wait => {
                    if self.could_ever_drop() {
                        Verdict::Waiting
                    } else {
                        Verdict::Stalemate
                    }
                }
            }
        }
    }

    /// Whether the side to move is checkmated under the rules.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.verdict() == Verdict::Checkmate
    }

    /// A hash of what counts as "the same position" for repetition (F4.1): the pieces on the
    /// board (a promoted piece differs from an unpromoted one: physically it is a pawn), the side
    /// to move, the castling letters and a legal en passant square. The reserves are not part of
    /// the position.
    pub fn board_key(&self) -> u64 {
        let b = self.board();
        let mut key = 0u64;
        for sq in b.occupied() {
            if let Some(piece) = b.piece_at(sq) {
                let idx = (piece.color as usize * 6 + (piece.role as usize - 1)) * 64 + sq as usize;
                key ^= zobrist(idx as u64);
                if self.promoted().contains(sq) {
                    key ^= zobrist(1000 + sq as u64);
                }
            }
        }
        if self.turn() == Color::Black {
            key ^= zobrist(2000);
        }
        for sq in self.castling_rights() & Bitboard::CORNERS {
            key ^= zobrist(2100 + sq as u64);
        }
        if let Some(sq) = self.ep_square() {
            key ^= zobrist(2200 + sq as u64);
        }
        key
    }
}

/// A fixed pseudo-random number for `index` (splitmix64), so keys are the same in every run.
const fn zobrist(index: u64) -> u64 {
    let mut z = index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A draw the player to move may claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    /// The same board position has occurred [`crate::Rules::repetition_claim`] times (F4.1).
    Repetition,
    /// [`crate::Rules::move_count_claim`] moves by each side with no capture, no drop and no move
    /// of an unpromoted pawn (K11F).
    MoveCount,
}

impl fmt::Display for DrawClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawClaim::Repetition => "repetition",
            DrawClaim::MoveCount => "move-count",
        })
    }
}

/// One board's game from a starting position: the current position and the keys of every
/// position so far, for repetition claims.
///
/// # Examples
///
/// ```
/// use bughouse_core::{BoardGame, DrawClaim, Position, Rules};
///
/// let mut game = BoardGame::new(Position::new(Rules::fide()));
/// for uci in ["g1f3", "g8f6", "f3g1", "f6g8"].repeat(3) {
///     let m = game.position().parse_uci(&uci).unwrap();
///     game.play(m).unwrap();
/// }
/// // The start position has occurred 4 times (F4.1).
/// assert!(game.claims().contains(&DrawClaim::Repetition));
/// ```
#[derive(Debug, Clone)]
pub struct BoardGame {
    position: Position,
    keys: Vec<u64>,
}

impl BoardGame {
    /// A game starting from `position`.
    pub fn new(position: Position) -> BoardGame {
        let key = position.board_key();
        BoardGame {
            position,
            keys: vec![key],
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The current position, to add pieces to a reserve.
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.position
    }

    /// Plays a legal move; returns the role passed to the partner, as [`Position::play`].
    ///
    /// # Errors
    ///
    /// [`crate::IllegalMove`] when the move is not legal; nothing changes.
    pub fn play(&mut self, m: Move) -> Result<Option<Role>, crate::IllegalMove> {
        let passed = self.position.play(m)?;
        crate::game::grow_by_chunks(&mut self.keys);
        self.keys.push(self.position.board_key());
        Ok(passed)
    }

    /// How many times the current board position has occurred, this time included.
    pub fn repetitions(&self) -> usize {
        let current = self.position.board_key();
        self.keys.iter().filter(|&&k| k == current).count()
    }

    /// The draws the player to move may claim now under the rules.
    pub fn claims(&self) -> Vec<DrawClaim> {
        let rules = self.position.rules();
        let mut claims = Vec::new();
        if let Some(n) = rules.repetition_claim {
            if self.repetitions() >= n as usize {
                claims.push(DrawClaim::Repetition);
            }
        }
        if let Some(n) = rules.move_count_claim {
            if self.position.halfmoves() >= 2 * n {
                claims.push(DrawClaim::MoveCount);
            }
        }
        claims
    }
}
