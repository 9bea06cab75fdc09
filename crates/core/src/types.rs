//! Moves and reserves.

use std::fmt;

use shakmaty::{Color, Role, Square};

/// A move on one board: a board move (with castling, en passant and promotion as kinds of it) or
/// a drop from the mover's reserve.
///
/// Packed into 16 bits so that move lists are cheap; the moving piece and any captured piece are
/// read from the position the move is played in.
///
/// # Examples
///
/// ```
/// use bughouse_core::{Move, Role, Square};
///
/// let m = Move::drop(Role::Knight, Square::F3);
/// assert!(m.is_drop());
/// assert_eq!(m.dropped_role(), Some(Role::Knight));
/// assert_eq!(m.to(), Square::F3);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EN_PASSANT: u16 = 1;
const KIND_CASTLE: u16 = 2;
// 4..=7: promotion to knight, bishop, rook, queen (role - 2 + 4)
// 8..=12: drop of pawn, knight, bishop, rook, queen (role - 1 + 8)

impl Move {
    #[inline]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move((from as u16) | ((to as u16) << 6) | (kind << 12))
    }

    /// A board move that is not castling, en passant or a promotion.
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_NORMAL)
    }

    /// A pawn move to the last rank, promoting to `role` (knight, bishop, rook or queen).
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::pack(from, to, role as u16 + 2)
    }

    /// An en passant capture: the pawn moves from `from` to `to` (the skipped square).
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_EN_PASSANT)
    }

    /// Castling, given as the king's square and the castling rook's square.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, KIND_CASTLE)
    }

    /// A drop of `role` (not the king) from the mover's reserve on `to`.
    #[inline]
    pub const fn drop(role: Role, to: Square) -> Move {
        Move::pack(Square::A1, to, role as u16 + 7)
    }

    #[inline]
    const fn kind(self) -> u16 {
        self.0 >> 12
    }

    /// The square the piece leaves, `None` for a drop. For castling, the king's square.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        if self.is_drop() {
            None
        } else {
            Some(self.raw_from())
        }
    }

    #[inline]
    pub(crate) const fn raw_from(self) -> Square {
        Square::new((self.0 & 63) as u32)
    }

    /// The target square. For castling this is the rook's square (as in shakmaty); see
    /// [`Move::king_to`] for where the king ends up.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u32)
    }

    /// Where the moving piece ends up: like [`Move::to`], except that castling gives the king's
    /// destination (the g- or c-file).
    pub const fn king_to(self) -> Square {
        if self.is_castle() {
            castle_king_to(self.raw_from(), self.to())
        } else {
            self.to()
        }
    }

    /// Whether this is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.kind() >= 8
    }

    /// The role dropped, for a drop.
    #[inline]
    pub const fn dropped_role(self) -> Option<Role> {
        let k = self.kind();
        if k >= 8 {
            Some(role_from_u16(k - 7))
        } else {
            None
        }
    }

    /// The promotion role, for a promotion.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        let k = self.kind();
        if k >= 4 && k < 8 {
            Some(role_from_u16(k - 2))
        } else {
            None
        }
    }

    /// Whether this is castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.kind() == KIND_CASTLE
    }

    /// Whether this is an en passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.kind() == KIND_EN_PASSANT
    }
}

const fn role_from_u16(n: u16) -> Role {
    match n {
        1 => Role::Pawn,
        2 => Role::Knight,
        3 => Role::Bishop,
        4 => Role::Rook,
        5 => Role::Queen,
        _ => Role::King,
    }
}

pub(crate) const fn castle_king_to(king: Square, rook: Square) -> Square {
    let rank = king.rank();
    if (rook as u8) > (king as u8) {
        Square::from_coords(shakmaty::File::G, rank)
    } else {
        Square::from_coords(shakmaty::File::C, rank)
    }
}

pub(crate) const fn castle_rook_to(king: Square, rook: Square) -> Square {
    let rank = king.rank();
    if (rook as u8) > (king as u8) {
        Square::from_coords(shakmaty::File::F, rank)
    } else {
        Square::from_coords(shakmaty::File::D, rank)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Move {
    /// The move in UCI notation (`e2e4`, `e7e8q`, `e1g1`, `N@f3`), written without the
    /// formatting machinery or an allocation (the server writes every legal move of the player
    /// to move after each move).
    pub fn uci(self) -> UciText {
        fn square(sq: Square) -> [u8; 2] {
            [sq.file().char() as u8, sq.rank().char() as u8]
        }
        let mut bytes = [0u8; 5];
        let len = match (self.dropped_role(), self.promotion_role()) {
            (Some(role), _) => {
                bytes[0] = role.upper_char() as u8;
                bytes[1] = b'@';
                bytes[2..4].copy_from_slice(&square(self.to()));
                4
            }
            (None, promotion) => {
                let to = if promotion.is_some() {
                    self.to()
                } else {
                    self.king_to()
                };
                bytes[0..2].copy_from_slice(&square(self.raw_from()));
                bytes[2..4].copy_from_slice(&square(to));
                match promotion {
                    Some(role) => {
                        bytes[4] = role.char() as u8;
                        5
                    }
                    None => 4,
                }
            }
        };
        UciText { bytes, len }
    }
}

/// A move's UCI text ([`Move::uci`]): up to five ASCII bytes, kept inline.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct UciText {
    bytes: [u8; 5],
    len: u8,
}

impl UciText {
    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII letters, digits and '@' are ever written.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl fmt::Display for Move {
    /// Writes the move in UCI notation (`e2e4`, `e7e8q`, `e1g1`, `N@f3`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.uci().as_str())
    }
}

/// The roles that can be in a reserve, in reserve order.
pub const RESERVE_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// One player's reserve (pocket): how many of each role he may drop.
///
/// # Examples
///
/// ```
/// use bughouse_core::{Reserve, Role};
///
/// let mut r = Reserve::default();
/// r.add(Role::Knight);
/// assert_eq!(r.count(Role::Knight), 1);
/// assert!(r.remove(Role::Knight));
/// assert!(!r.remove(Role::Knight));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Reserve {
    counts: [u8; 5],
}

impl Reserve {
    /// An empty reserve.
    pub const EMPTY: Reserve = Reserve { counts: [0; 5] };

    #[inline]
    const fn index(role: Role) -> usize {
        debug_assert!(!matches!(role, Role::King));
        role as usize - 1
    }

    /// How many pieces of `role` the reserve holds (always 0 for the king).
    #[inline]
    pub const fn count(&self, role: Role) -> u8 {
        match role {
            Role::King => 0,
            _ => self.counts[Reserve::index(role)],
        }
    }

    /// Sets the count of `role`. Kings cannot be held; setting them is ignored.
    pub fn set(&mut self, role: Role, count: u8) {
        if role != Role::King {
            self.counts[Reserve::index(role)] = count;
        }
    }

    /// Adds one piece of `role`. Returns `false` (and changes nothing) for a king or when the
    /// count would pass 255.
    pub fn add(&mut self, role: Role) -> bool {
        if role == Role::King {
            return false;
        }
        let c = &mut self.counts[Reserve::index(role)];
        match c.checked_add(1) {
            Some(n) => {
                *c = n;
                true
            }
            None => false,
        }
    }

    /// Takes one piece of `role`; `false` if there is none.
    pub fn remove(&mut self, role: Role) -> bool {
        if role == Role::King {
            return false;
        }
        let c = &mut self.counts[Reserve::index(role)];
        if *c == 0 {
            false
        } else {
            *c -= 1;
            true
        }
    }

    /// Whether the reserve holds nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    /// The total number of pieces.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// The roles present, each with its count, in reserve order (P, N, B, R, Q).
    pub fn iter(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        RESERVE_ROLES
            .into_iter()
            .map(|r| (r, self.count(r)))
            .filter(|&(_, c)| c > 0)
    }

    /// Writes the reserve as FEN letters, strongest first (`QRBNP`), upper case for White.
    pub fn write_fen(&self, color: Color, out: &mut String) {
        for role in RESERVE_ROLES.into_iter().rev() {
            let ch = role.of(color).char();
            for _ in 0..self.count(role) {
                out.push(ch);
            }
        }
    }
}
