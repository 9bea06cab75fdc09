//! Who plays where: the two boards, the four seats, the two teams.

use std::fmt;

use shakmaty::Color;

/// One of the two boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BoardId {
    /// Board A.
    A,
    /// Board B.
    B,
}

impl BoardId {
    /// Both boards.
    pub const ALL: [BoardId; 2] = [BoardId::A, BoardId::B];

    /// The other board.
    pub const fn other(self) -> BoardId {
        match self {
            BoardId::A => BoardId::B,
            BoardId::B => BoardId::A,
        }
    }

    /// `'A'` or `'B'`.
    pub const fn char(self) -> char {
        match self {
            BoardId::A => 'A',
            BoardId::B => 'B',
        }
    }

    /// 0 for board A, 1 for board B: the index into per-board arrays.
    pub const fn index(self) -> usize {
        match self {
            BoardId::A => 0,
            BoardId::B => 1,
        }
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One of the four seats: a board and a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seat {
    /// The board.
    pub board: BoardId,
    /// The colour played there.
    pub color: Color,
}

impl Seat {
    /// White on board A.
    pub const WHITE_A: Seat = Seat::new(BoardId::A, Color::White);
    /// Black on board A.
    pub const BLACK_A: Seat = Seat::new(BoardId::A, Color::Black);
    /// White on board B.
    pub const WHITE_B: Seat = Seat::new(BoardId::B, Color::White);
    /// Black on board B.
    pub const BLACK_B: Seat = Seat::new(BoardId::B, Color::Black);
    /// All four seats, in BPGN tag order.
    pub const ALL: [Seat; 4] = [Seat::WHITE_A, Seat::BLACK_A, Seat::WHITE_B, Seat::BLACK_B];

    /// The seat on `board` playing `color`.
    pub const fn new(board: BoardId, color: Color) -> Seat {
        Seat { board, color }
    }

    /// The partner: the other board, the other colour (F2.1).
    pub const fn partner(self) -> Seat {
        Seat::new(self.board.other(), self.color.other())
    }

    /// The opponent on the same board.
    pub const fn opponent(self) -> Seat {
        Seat::new(self.board, self.color.other())
    }

    /// The team this seat plays for.
    pub const fn team(self) -> Team {
        match (self.board, self.color) {
            (BoardId::A, Color::White) | (BoardId::B, Color::Black) => Team::One,
            _ => Team::Two,
        }
    }

    /// 0 to 3 (WhiteA, BlackA, WhiteB, BlackB): the index into per-seat arrays.
    pub const fn index(self) -> usize {
        self.board.index() * 2
            + match self.color {
                Color::White => 0,
                Color::Black => 1,
            }
    }
}

impl fmt::Display for Seat {
    /// `WhiteA`, `BlackA`, `WhiteB`, `BlackB`, as BPGN tags name them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let color = match self.color {
            Color::White => "White",
            Color::Black => "Black",
        };
        write!(f, "{color}{}", self.board)
    }
}

/// A team of two partners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Team {
    /// WhiteA and BlackB. In BPGN, `1-0` means this team won.
    One,
    /// BlackA and WhiteB. In BPGN, `0-1` means this team won.
    Two,
}

impl Team {
    /// The other team.
    pub const fn other(self) -> Team {
        match self {
            Team::One => Team::Two,
            Team::Two => Team::One,
        }
    }

    /// The two seats of this team.
    pub const fn seats(self) -> [Seat; 2] {
        match self {
            Team::One => [Seat::WHITE_A, Seat::BLACK_B],
            Team::Two => [Seat::BLACK_A, Seat::WHITE_B],
        }
    }
}
