//! The FEN an outside engine is given.

use bughouse_core::fen::Fen;
use bughouse_core::{Bitboard, Color, Piece, Position, Role, Square};

/// The FEN an outside engine is given: castling rights only where the king and that rook stand
/// on their starting squares. Our rules keep the right of a corner whose rook has left, since a
/// rook dropped there may still castle (F3.5), but X-FEN readers such as Fairy-Stockfish take
/// `Q` to mean the outermost rook on the queen's side wherever it stands, and would castle with
/// it. The engine is given the position again before every move, so a right that comes back
/// with a dropped rook is in the next FEN.
pub fn uci_fen(pos: &Position) -> String {
    let mut setup = pos.to_setup();
    let mut rights = Bitboard::EMPTY;
    for (color, king, corners) in [
        (Color::White, Square::E1, [Square::A1, Square::H1]),
        (Color::Black, Square::E8, [Square::A8, Square::H8]),
    ] {
        if pos.piece_at(king)
            != Some(Piece {
                color,
                role: Role::King,
            })
        {
            continue;
        }
        for corner in corners {
            if setup.castling.contains(corner)
                && pos.piece_at(corner)
                    == Some(Piece {
                        color,
                        role: Role::Rook,
                    })
            {
                rights.add(corner);
            }
        }
    }
    setup.castling = rights;
    Fen(setup).to_string()
}

#[cfg(test)]
mod tests {
    use bughouse_core::Preset;

    use super::*;

    #[test]
    fn engines_see_castling_rights_only_with_the_rooks_in_their_corners() {
        let rules = Preset::Fide.rules();
        // The game that showed it: rooks on d1 and g1, rights KQ kept for dropped rooks.
        let fen = "Q1bk1b1r/p3pBpp/4Pn2/2p1q1N1/3nN3/8/PPP2PpP/3RK1R1[p] w KQ - 0 18";
        let pos = Position::from_fen(fen, rules).expect("a legal FEN");
        assert_eq!(
            uci_fen(&pos),
            "Q1bk1b1r/p3pBpp/4Pn2/2p1q1N1/3nN3/8/PPP2PpP/3RK1R1[p] w - - 0 18"
        );
        let start = Position::new(rules);
        assert_eq!(uci_fen(&start), start.fen());
    }
}
