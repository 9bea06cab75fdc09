// The match page's two boards: drawing them from the model, and the player's moves, drops,
// promotions and premoves on them.

import type { MoveMetadata } from '@lichess-org/chessground/types';
import { BoardView } from '../boardview';
import {
  dropSquares,
  dropUci,
  isPromotion,
  layoutFor,
  letterOfRole,
  pieceMap,
  promotionRoles,
  seatColor,
  ucisFor,
  type Color,
  type PocketRole,
  type Role,
} from '../helpers';
import type { BoardName } from '../protocol';
import { boardInput } from './boardInput';
import type { MatchContext } from './context';

export class Boards {
  /** The player's own board (or board A for a spectator) and the other one. */
  readonly main: BoardView;
  readonly side: BoardView;

  constructor(private readonly ctx: MatchContext) {
    const handlers = {
      move: (view: BoardView, orig: string, dest: string, meta: MoveMetadata) => this.onUserMove(view, orig, dest, meta),
      drop: (view: BoardView, role: Role, key: string, meta: MoveMetadata) => this.onUserDrop(view, role, key, meta),
      pocketPick: (_view: BoardView, role: PocketRole) => this.onPocketPick(role),
      pocketDragStart: (view: BoardView, role: PocketRole) => this.onPocketDrag(view, role),
      dropModeUsed: () => {
        this.ctx.model.dropRole = null;
        this.render();
      },
    };
    this.main = new BoardView('main', handlers);
    this.side = new BoardView('side', handlers);
  }

  get views(): BoardView[] {
    return [this.main, this.side];
  }

  /** A move of ours is on its way to the server (sent or waiting for the connection). */
  get pending(): boolean {
    return this.ctx.conn.outbox.has('move');
  }

  /** Both boards as the model has them; `force` puts the pieces back even if unchanged. */
  render(force = false): void {
    const m = this.ctx.model;
    if (!m.state) return;
    const layout = layoutFor(m.you, m.flipped);
    const pairs: [BoardView, BoardName, Color][] = [
      [this.main, layout.main, layout.mainOrientation],
      [this.side, layout.side, layout.sideOrientation],
    ];
    for (const [view, b, orientation] of pairs) {
      const input = boardInput(m, b, orientation, this.pending);
      view.render(input, force || view.board !== b);
      if (input.myColor && input.myTurn) this.playPremoves(view, b);
    }
  }

  /** The lag the server measured, under the boards (only for a seated player). */
  setLag(ms: number): void {
    const text = this.ctx.model.you ? `lag ${Math.round(ms)} ms` : '';
    this.main.setLag(text);
    this.side.setLag(text);
  }

  /** A premove or predrop stored by chessground goes out when it is legal now. */
  private playPremoves(view: BoardView, b: BoardName): void {
    const legal = this.ctx.model.boardState(b).legal ?? null;
    const s = view.cg.state;
    if (s.premovable.current) view.cg.playPremove();
    else if (s.predroppable.current) view.cg.playPredrop(d => !legal || legal.includes(dropUci(d.role, d.key)));
  }

  private onUserMove(view: BoardView, orig: string, dest: string, meta: MoveMetadata): void {
    const m = this.ctx.model;
    const b = view.board;
    if (!m.state || !m.you || !b) return;
    const bs = m.boardState(b);
    const legal = bs.legal ?? null;
    const pieces = pieceMap(bs.fen);
    const piece = pieces.get(orig);
    let options: string[];
    if (legal) {
      options = [...new Set(ucisFor(legal, orig, dest, pieces))];
      if (options.length === 0) {
        view.resync();
        return;
      }
    } else {
      // No legal list from the server: let it judge.
      options = isPromotion(piece, dest) ? ['q', 'r', 'b', 'n'].map(p => `${orig}${dest}${p}`) : [`${orig}${dest}`];
    }
    if (options.length === 1) {
      this.sendMove(options[0]!, view);
      return;
    }
    const roles = promotionRoles(options);
    const pick = (role: Role): string | undefined => options.find(u => u[4] === letterOfRole(role));
    if (meta.premove) {
      const uci = pick(roles.includes('queen') ? 'queen' : roles[0]!);
      if (uci) this.sendMove(uci, view);
      else view.resync();
      return;
    }
    view.askPromotion(dest, seatColor(m.you), roles, role => {
      const uci = role ? pick(role) : undefined;
      if (uci) this.sendMove(uci, view);
      else view.resync();
    });
  }

  private onUserDrop(view: BoardView, role: Role, key: string, _meta: MoveMetadata): void {
    const m = this.ctx.model;
    const b = view.board;
    m.dropRole = null;
    m.dragRole = null;
    if (!m.state || !b) return;
    const legal = m.boardState(b).legal;
    const uci = dropUci(role, key);
    if (legal && !legal.includes(uci)) {
      view.resync();
      return;
    }
    this.sendMove(uci, view);
  }

  private sendMove(uci: string, view: BoardView): void {
    this.ctx.act({ type: 'move', uci });
    this.ctx.model.dropRole = null;
    view.setDropSquares([]);
  }

  private onPocketPick(role: PocketRole): void {
    const m = this.ctx.model;
    m.dropRole = m.dropRole === role ? null : role;
    this.render();
  }

  private onPocketDrag(view: BoardView, role: PocketRole): void {
    const m = this.ctx.model;
    m.dragRole = role;
    const legal = view.board ? m.boardState(view.board).legal : null;
    if (legal && view.input?.myTurn) view.setDropSquares(dropSquares(legal, role));
    const end = (): void => {
      document.removeEventListener('mouseup', end);
      document.removeEventListener('touchend', end);
      setTimeout(() => {
        m.dragRole = null;
        const picked = m.dropRole;
        view.setDropSquares(picked && legal && view.input?.myTurn ? dropSquares(legal, picked) : []);
      }, 0);
    };
    document.addEventListener('mouseup', end);
    document.addEventListener('touchend', end);
  }
}
