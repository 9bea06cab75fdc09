//! The boards a match keeps from one `moved` to the next: each board as everyone sees it and
//! the legal moves of its player to move, made again only when something they are made of has
//! changed.

use super::*;
use bughouse_core::{Color, Reserve};

/// A board as everyone sees it, and the legal moves of the player to move on it once asked
/// for, kept with what they were made from. A move on one board leaves the other as it was
/// unless a capture sent a piece to its reserves: its FEN, claims and legal moves are then not
/// made again for the next `moved`. This holds because a position changes only by a move on
/// it (which changes its move number or turn) or a piece added to its reserves: anything that
/// ever changes one otherwise (a takeback, an arbiter's correction) must clear `seen`.
#[derive(Clone)]
pub(super) struct SeenBoard {
    made_of: SeenKey,
    state: BoardState,
    /// `None` until asked for; then the legal moves as [`LiveMatch::legal`] gives them to the
    /// player to move (`None` when he has none to get: not started, ended).
    legal: Option<Option<UciList>>,
}

/// Everything a board's state and legal moves depend on: its position (the moves played on it
/// and its reserves; the pieces on it change only by its own moves), whether the match has
/// started or finished, and whether the board's game has ended.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SeenKey {
    fullmoves: u32,
    turn: Color,
    reserves: [Reserve; 2],
    started: bool,
    finished: bool,
    ended: bool,
}

impl LiveMatch {
    fn seen_key(&self, board: BoardId) -> SeenKey {
        let pos = self.game.position(board);
        SeenKey {
            fullmoves: pos.fullmoves(),
            turn: pos.turn(),
            reserves: [*pos.reserve(Color::White), *pos.reserve(Color::Black)],
            started: self.game.is_started(),
            finished: self.finished,
            ended: self.game.game_end(board).is_some(),
        }
    }

    /// The kept view of `board` if it is still that of the board as it stands.
    fn kept(&self, board: BoardId) -> Option<&SeenBoard> {
        self.seen[board.index()]
            .as_ref()
            .filter(|kept| kept.made_of == self.seen_key(board))
    }

    /// Makes the kept view of `board` again if anything it depends on has changed.
    fn refresh_seen(&mut self, board: BoardId) {
        if self.kept(board).is_none() {
            self.seen[board.index()] = Some(SeenBoard {
                made_of: self.seen_key(board),
                state: self.board_state(board, None),
                legal: None,
            });
        }
    }

    /// `board` as everyone sees it (no legal moves), as [`LiveMatch::board_state`] makes it.
    pub(super) fn seen_state(&mut self, board: BoardId) -> BoardState {
        self.refresh_seen(board);
        match self.kept(board) {
            Some(kept) => kept.state.clone(),
            None => self.board_state(board, None),
        }
    }

    /// Makes sure the legal moves of the player to move on `board` are kept, to be read with
    /// [`LiveMatch::kept_legal`].
    pub(super) fn keep_legal(&mut self, board: BoardId) {
        self.refresh_seen(board);
        if self.kept(board).is_some_and(|kept| kept.legal.is_none()) {
            let legal = self.legal(board, Some(self.game.to_move(board)));
            if let Some(kept) = &mut self.seen[board.index()] {
                kept.legal = Some(legal);
            }
        }
    }

    /// The legal moves [`LiveMatch::keep_legal`] kept for `board`, if it was called since the
    /// board last changed and there are any.
    pub(super) fn kept_legal(&self, board: BoardId) -> Option<&UciList> {
        self.kept(board)?.legal.as_ref()?.as_ref()
    }
}
