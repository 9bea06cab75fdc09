// What one board of the match page shows, from the model: pure (the board view draws it).

import type { BoardInput, PlayerLine } from '../boardview';
import {
  dropSquares,
  lastMoveKeys,
  opposite,
  parseFen,
  pieceMap,
  seatBoard,
  seatColor,
  seatOf,
  uciToDests,
  type Color,
} from '../helpers';
import type { BoardName } from '../protocol';
import type { MatchModel } from './model';

/**
 * Board `b` drawn with `orientation` at the bottom: the live position or the replayed one, who
 * plays it, whether it is the player's turn (not while a move of his waits for the server:
 * `pending`), the legal destinations and drops, and the label (mate, stalemate, a board's
 * result).
 */
export function boardInput(m: MatchModel, b: BoardName, orientation: Color, pending: boolean): BoardInput {
  const st = m.state!;
  const i = b === 'A' ? 0 : 1;
  const live = m.replay === null;
  let fen: string;
  let lastMove: string[] | undefined;
  let check: boolean;
  let legal: string[] | null = null;
  if (live) {
    const bs = m.boardState(b);
    fen = bs.fen;
    lastMove = lastMoveKeys(bs.last_move);
    check = bs.check;
    legal = bs.legal ?? null;
  } else {
    const fens = m.positions.get(m.replay!) ?? m.fens();
    fen = fens[i]!;
    const last = st.moves
      .slice(0, m.replay!)
      .filter(mv => seatBoard(mv.seat) === b)
      .at(-1);
    lastMove = lastMoveKeys(last?.uci);
    check = !!last && /[+#]$/.test(last.san);
  }
  const parsed = parseFen(fen);
  const boardResult = st.result?.boards[i];
  const boardOver = !!boardResult && boardResult !== '*';
  const bs = m.boardState(b);
  const you = m.you;
  const mine =
    live &&
    you !== null &&
    seatBoard(you) === b &&
    st.status === 'playing' &&
    !boardOver &&
    (bs.verdict === 'ongoing' || bs.verdict === 'waiting');
  const myColor = mine ? seatColor(you!) : undefined;
  const myTurn = mine && parsed.turn === myColor && !pending;
  const role = m.dropRole ?? m.dragRole;
  const player = (color: Color): PlayerLine => {
    const seat = seatOf(b, color);
    const info = st.seats.find(s => s.seat === seat);
    return {
      seat,
      name: info?.name ?? (info?.bot ? 'bot' : '—'),
      you: you === seat,
      connected: !!info?.connected,
      bot: !!info?.bot,
      toMove: st.status === 'playing' && !boardOver && parsed.turn === color,
    };
  };
  let label = '';
  if (live && st.status !== 'waiting') {
    if (bs.verdict === 'checkmate') label = 'checkmate';
    else if (bs.verdict === 'stalemate') label = 'stalemate';
    else if (bs.verdict === 'waiting') label = `${parsed.turn} waits for a piece`;
  }
  if (boardOver) label = `board ${b}: ${boardResult}${label ? ` (${label})` : ''}`;
  return {
    board: b,
    orientation,
    fen,
    lastMove,
    check,
    myColor,
    myTurn,
    dests: legal ? uciToDests(legal, pieceMap(fen)) : 'free',
    dropSquares: myTurn && role && legal ? dropSquares(legal, role) : [],
    selectedRole: mine ? m.dropRole : null,
    players: { top: player(opposite(orientation)), bottom: player(orientation) },
    label,
  };
}
