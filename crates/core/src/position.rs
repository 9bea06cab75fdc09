//! One board with both reserves: legal moves, drops, promoted-piece tracking, play.

use arrayvec::ArrayVec;
use shakmaty::{attacks, Bitboard, Board, ByColor, Color, Piece, Rank, Role, Square};

use crate::rules::{CaptureDestination, DropSquares, PromotedCapture, Rules};
use crate::setup::{PositionError, Setup};
use crate::types::{castle_king_to, castle_rook_to, Move, Reserve};

mod movegen;

/// The most moves a position can have: at most 63 pieces of the mover besides the enemy king,
/// each with at most 27 board moves (a pawn has at most 12), plus at most 5 × 62 drops.
pub const MAX_MOVES: usize = 2048;

/// A list of moves that lives on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {uci} in {fen}")]
pub struct IllegalMove {
    /// The move in UCI notation.
    pub uci: String,
    /// The position, as FEN.
    pub fen: String,
}

/// A validated position: one board, both reserves, side to move, castling and en passant rights,
/// the move counters, and the [`Rules`] it is played under.
///
/// A board may hold more than one set of pieces of a colour (in bughouse up to two); no position
/// is rejected for having too much material.
///
/// # Examples
///
/// ```
/// use bughouse_core::{Position, Rules};
///
/// let pos = Position::new(Rules::fide());
/// assert_eq!(pos.legal_moves().len(), 20);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    promoted: Bitboard,
    reserves: ByColor<Reserve>,
    turn: Color,
    /// Corners whose castling letter is set.
    castling: Bitboard,
    /// Corners with a castling letter whose own rook got there by a board move. Such a rook may
    /// not castle even where dropped rooks may ([`Rules::castle_with_dropped_rook`]). Kept to
    /// exactly these corners so that positions that play the same compare equal.
    arrived: Bitboard,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    rules: Rules,
}

const WHITE_CORNERS: Bitboard = Bitboard(0x81);
const BLACK_CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0000);

#[inline]
fn backrank_corners(color: Color) -> Bitboard {
    match color {
        Color::White => WHITE_CORNERS,
        Color::Black => BLACK_CORNERS,
    }
}

#[inline]
fn king_home(color: Color) -> Square {
    match color {
        Color::White => Square::E1,
        Color::Black => Square::E8,
    }
}

#[inline]
fn forward(color: Color) -> i32 {
    match color {
        Color::White => 8,
        Color::Black => -8,
    }
}

/// The squares `color` may drop on under `rules`, before occupancy is considered.
#[inline]
fn drop_zone(rules: &Rules, color: Color) -> Bitboard {
    match rules.drop_squares {
        DropSquares::AnyEmpty => Bitboard::FULL,
        DropSquares::OwnHalf => match color {
            Color::White => Bitboard::SOUTH,
            Color::Black => Bitboard::NORTH,
        },
    }
}

impl Position {
    /// The start position with empty reserves.
    pub fn new(rules: Rules) -> Position {
        Position {
            board: Board::new(),
            promoted: Bitboard::EMPTY,
            reserves: ByColor::default(),
            turn: Color::White,
            castling: Bitboard::CORNERS,
            arrived: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            rules,
        }
    }

    /// Whether this is the start position with empty reserves (as [`Position::new`] builds
    /// it, move counters included).
    ///
    /// ```
    /// use bughouse_core::{Position, Rules};
    ///
    /// let start = Position::new(Rules::fide());
    /// assert!(start.is_initial());
    /// let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[P] w KQkq - 0 1";
    /// assert!(!Position::from_fen(fen, Rules::fide()).unwrap().is_initial());
    /// let mut moved = start.clone();
    /// moved.play(moved.parse_uci("e2e4").unwrap()).unwrap();
    /// assert!(!moved.is_initial());
    /// ```
    pub fn is_initial(&self) -> bool {
        self.fen() == Position::new(self.rules).fen()
    }

    /// Validates a setup under `rules`.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] saying what is wrong: a missing or extra king, a pawn on rank 1 or 8,
    /// the side not to move in check, a castling letter or en passant square that cannot be, or
    /// a promoted king or pawn. Material is never too much.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Position, PositionError> {
        let Setup {
            board,
            promoted,
            reserves,
            turn,
            castling,
            ep_square,
            halfmoves,
            fullmoves,
        } = setup;
        for color in Color::ALL {
            match (board.kings() & board.by_color(color)).count() {
                0 => return Err(PositionError::NoKing(color)),
                1 => {}
                n => return Err(PositionError::TooManyKings(color, n)),
            }
        }
        if let Some(sq) = (board.pawns() & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        if let Some(sq) = (promoted & !(board.occupied() & !board.pawns() & !board.kings())).first()
        {
            return Err(PositionError::BadPromoted(sq));
        }
        for corner in castling & Bitboard::CORNERS {
            let color = if Bitboard::from_rank(Rank::First).contains(corner) {
                Color::White
            } else {
                Color::Black
            };
            let king_ok = board.piece_at(king_home(color)) == Some(color.king());
            let rook_ok =
                board.piece_at(corner) == Some(color.rook()) && !promoted.contains(corner);
            if !king_ok || (!rules.castle_with_dropped_rook && !rook_ok) {
                return Err(PositionError::BadCastling(corner));
            }
        }
        if let Some(sq) = (castling & !Bitboard::CORNERS).first() {
            return Err(PositionError::BadCastling(sq));
        }
        let mut pos = Position {
            board,
            promoted,
            reserves,
            turn,
            castling,
            arrived: Bitboard::EMPTY,
            ep_square: None,
            halfmoves,
            fullmoves: fullmoves.max(1),
            rules,
        };
        if pos
            .attackers_to(pos.our_king_of(!turn), turn, pos.board.occupied())
            .any()
        {
            return Err(PositionError::OppositeCheck(!turn));
        }
        if let Some(ep) = ep_square {
            // The pawn that just moved two squares stands in front of the skipped square, with
            // the skipped square and the one behind it empty.
            let ok_rank = ep.rank() == turn.fold_wb(Rank::Sixth, Rank::Third);
            let pawn_sq = ep.offset(forward(!turn));
            let from_sq = ep.offset(-forward(!turn));
            let ok = ok_rank
                && pawn_sq.is_some_and(|s| pos.board.piece_at(s) == Some((!turn).pawn()))
                && from_sq.is_some_and(|s| pos.board.piece_at(s).is_none())
                && pos.board.piece_at(ep).is_none();
            if !ok {
                return Err(PositionError::BadEnPassant(ep));
            }
            pos.ep_square = Some(ep);
            if !pos.has_legal_en_passant() {
                pos.ep_square = None;
            }
        }
        Ok(pos)
    }

    /// The plain fields of this position, as FEN would write them. Where a rook that went back
    /// to its corner by a board move may not castle although the letter stays
    /// ([`Rules::castle_with_dropped_rook`]), the letter is left out.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            promoted: self.promoted,
            reserves: self.reserves,
            turn: self.turn,
            // FEN cannot say that the rook on a corner arrived by a board move and may not
            // castle; leave its letter out rather than claim a castling that is not legal.
            castling: self.castling & !self.arrived,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The pieces on the board. Promoted pieces stand as the piece they move as; see
    /// [`Position::promoted`].
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The squares of promoted pieces: they move as the chosen piece and leave the board as
    /// pawns when captured (under [`PromotedCapture::Pawn`]).
    #[inline]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// The reserve of `color`.
    #[inline]
    pub fn reserve(&self, color: Color) -> &Reserve {
        self.reserves.get(color)
    }

    /// Both reserves.
    #[inline]
    pub fn reserves(&self) -> &ByColor<Reserve> {
        &self.reserves
    }

    /// Adds a piece to the reserve of `color`, as when his partner captures it on the other
    /// board. Returns `false` (changing nothing) for a king or a count past 255.
    pub fn add_to_reserve(&mut self, color: Color, role: Role) -> bool {
        self.reserves.get_mut(color).add(role)
    }

    /// Takes a piece from the reserve of `color`; `false` if there is none.
    pub fn remove_from_reserve(&mut self, color: Color, role: Role) -> bool {
        self.reserves.get_mut(color).remove(role)
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The corners whose castling letter is set (`KQkq` in FEN).
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The en passant square, only when an en passant capture is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture, drop or move of an unpromoted pawn.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and increased after each Black move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The rules this position is played under.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline]
    pub(crate) fn our_king_of(&self, color: Color) -> Square {
        // Validated positions have exactly one king of each colour.
        (self.board.kings() & self.board.by_color(color))
            .first()
            .unwrap_or(Square::A1)
    }

    /// The square of the king of `color`.
    pub fn king(&self, color: Color) -> Square {
        self.our_king_of(color)
    }

    /// The pieces of `attacker` that attack `sq`, given occupancy `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        let rq = b.rooks() | b.queens();
        let bq = b.bishops() | b.queens();
        b.by_color(attacker)
            & ((attacks::rook_attacks(sq, occupied) & rq)
                | (attacks::bishop_attacks(sq, occupied) & bq)
                | (attacks::knight_attacks(sq) & b.knights())
                | (attacks::king_attacks(sq) & b.kings())
                | (attacks::pawn_attacks(!attacker, sq) & b.pawns()))
    }

    /// The enemy pieces giving check.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(
            self.our_king_of(self.turn),
            !self.turn,
            self.board.occupied(),
        )
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Our pieces that stand alone between our king and an enemy slider.
    #[inline]
    pub(crate) fn pinned(&self, king: Square) -> Bitboard {
        self.slider_blockers(king, !self.turn) & self.board.by_color(self.turn)
    }

    /// The pieces, of either colour, that stand alone between `king` and a slider of `slider`
    /// aiming at it along an otherwise empty line: pinned pieces when `slider` is the king's
    /// enemy; pieces whose move uncovers a check when they are the slider's own.
    #[inline]
    pub fn slider_blockers(&self, king: Square, slider: Color) -> Bitboard {
        let b = &self.board;
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & (b.rooks() | b.queens()))
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & (b.bishops() | b.queens())))
            & b.by_color(slider);
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & b.occupied();
            if !between.more_than_one() {
                blockers |= between;
            }
        }
        blockers
    }

    /// Plays a move, checking that it is legal.
    ///
    /// Returns the role of the captured piece as it leaves the board (a promoted piece as a
    /// pawn), for the two-board game to put into the partner's reserve. Under
    /// [`CaptureDestination::Capturer`] the piece goes into the mover's own reserve and `None`
    /// is returned.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when the move is not legal; the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<Option<Role>, IllegalMove> {
        if self.is_legal(m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(IllegalMove {
                uci: m.to_string(),
                fen: crate::fen::write_fen(self),
            })
        }
    }

    /// Plays a move known to be legal (from [`Position::legal_moves`]). An illegal move leaves
    /// the position in an unspecified but memory-safe state.
    ///
    /// Returns what [`Position::play`] returns.
    pub fn play_unchecked(&mut self, m: Move) -> Option<Role> {
        let us = self.turn;
        let mut passed = None;
        self.ep_square = None;

        if let Some(role) = m.dropped_role() {
            let to = m.to();
            self.reserves.get_mut(us).remove(role);
            self.board.set_piece_at(to, role.of(us));
            self.halfmoves = 0;
        } else if m.is_castle() {
            let king = m.raw_from();
            let rook = m.to();
            self.board.discard_piece_at(king);
            self.board.discard_piece_at(rook);
            self.board
                .set_piece_at(castle_king_to(king, rook), us.king());
            self.board
                .set_piece_at(castle_rook_to(king, rook), us.rook());
            self.castling &= !backrank_corners(us);
            self.arrived &= !Bitboard::from_square(rook);
            self.halfmoves = self.halfmoves.saturating_add(1);
        } else if m.is_en_passant() {
            let from = m.raw_from();
            let to = m.to();
            let captured = Square::from_coords(to.file(), from.rank());
            self.board.discard_piece_at(from);
            self.board.discard_piece_at(captured);
            self.board.set_piece_at(to, us.pawn());
            passed = Some(Role::Pawn);
            self.halfmoves = 0;
        } else {
            let from = m.raw_from();
            let to = m.to();
            let from_bb = Bitboard::from_square(from);
            let to_bb = Bitboard::from_square(to);
            let role = self.board.role_at(from)?;
            let was_promoted = self.promoted.contains(from);
            self.board.discard_piece_at(from);
            if let Some(captured) = self.board.role_at(to) {
                let captured_promoted = self.promoted.contains(to);
                passed = Some(
                    if captured_promoted && self.rules.promoted_capture == PromotedCapture::Pawn {
                        Role::Pawn
                    } else {
                        captured
                    },
                );
                self.halfmoves = 0;
            } else if role == Role::Pawn {
                self.halfmoves = 0;
            } else {
                self.halfmoves = self.halfmoves.saturating_add(1);
            }
            self.promoted &= !(from_bb | to_bb);
            if let Some(promotion) = m.promotion_role() {
                self.board.set_piece_at(to, promotion.of(us));
                self.promoted |= to_bb;
            } else {
                self.board.set_piece_at(to, role.of(us));
                if was_promoted {
                    self.promoted |= to_bb;
                }
            }
            if role == Role::King {
                self.castling &= !backrank_corners(us);
            }
            if self.rules.castle_with_dropped_rook {
                // F3.5: the letter stays while the king has not moved; a rook that reaches its
                // corner by a board move may not castle.
                self.arrived &= !(from_bb | to_bb);
                if role == Role::Rook && !was_promoted && backrank_corners(us).contains(to) {
                    self.arrived |= to_bb;
                }
            } else {
                // A right once lost never returns.
                self.castling &= !(from_bb | to_bb);
            }
            if role == Role::Pawn && from.distance(to) == 2 {
                let ep = offset(from, forward(us));
                self.turn = !us;
                self.ep_square = Some(ep);
                if !self.has_legal_en_passant() {
                    self.ep_square = None;
                }
                self.turn = us;
            }
        }

        if self.rules.capture_destination == CaptureDestination::Capturer {
            if let Some(role) = passed.take() {
                self.reserves.get_mut(us).add(role);
            }
        }
        // Only corners that still have their letter matter.
        self.arrived &= self.castling;
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !us;
        passed
    }

    /// The role that stands on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.board.role_at(sq)
    }

    /// The piece that stands on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The role a move moves: the dropped role for a drop, the king for castling.
    pub fn moving_role(&self, m: Move) -> Option<Role> {
        match m.dropped_role() {
            Some(role) => Some(role),
            None => self.board.role_at(m.raw_from()),
        }
    }

    /// The role a move captures, if any.
    pub fn captured_role(&self, m: Move) -> Option<Role> {
        if m.is_en_passant() {
            Some(Role::Pawn)
        } else if m.is_drop() || m.is_castle() {
            None
        } else {
            self.board.role_at(m.to())
        }
    }
}

#[inline]
fn offset(sq: Square, delta: i32) -> Square {
    // Callers shift squares that were produced by shifting the other way.
    Square::new((sq as i32 + delta) as u32)
}

#[inline]
fn push_promotions(
    moves: &mut MoveList,
    from: Square,
    to: Square,
    roles: crate::rules::PromotionRoles,
) {
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        if roles.contains(role) {
            moves.push(Move::promotion(from, to, role));
        }
    }
}
