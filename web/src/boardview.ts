// One board on the match page: chessground, both pockets, the two players with their clocks,
// and the promotion chooser.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import { cancelDropMode, setDropMode } from '@lichess-org/chessground/drop';
import type { Key, MoveMetadata, Piece } from '@lichess-org/chessground/types';
import { fill, h } from './dom';
import {
  opposite,
  parseFen,
  POCKET_ROLES,
  type Color,
  type PocketRole,
  type Role,
} from './helpers';
import type { BoardName, SeatName } from './protocol';

export interface PlayerLine {
  seat: SeatName;
  name: string;
  you: boolean;
  connected: boolean;
  bot: boolean;
  toMove: boolean;
}

export interface BoardInput {
  board: BoardName;
  /** The colour at the bottom. */
  orientation: Color;
  fen: string;
  lastMove?: string[];
  check: boolean;
  /** The player's own colour when this is his board and he may act on it (live, playing). */
  myColor?: Color;
  /** Whether it is his move now (and no move of his is on its way). */
  myTurn: boolean;
  /** Destinations for board moves; `free` when the server sent no legal list. */
  dests: Map<string, string[]> | 'free';
  /** Squares to mark: legal drops of the selected pocket piece. */
  dropSquares: string[];
  /** The pocket piece picked for a click drop. */
  selectedRole: PocketRole | null;
  players: { top: PlayerLine; bottom: PlayerLine };
  /** A word under the board: `checkmate`, `waiting for a piece`, a board result. */
  label: string;
}

export interface BoardHandlers {
  move(view: BoardView, orig: string, dest: string, meta: MoveMetadata): void;
  drop(view: BoardView, role: Role, key: string, meta: MoveMetadata): void;
  pocketPick(view: BoardView, role: PocketRole): void;
  pocketDragStart(view: BoardView, role: PocketRole): void;
  dropModeUsed(view: BoardView): void;
}

export function pieceEl(role: string, color: Color): HTMLElement {
  const el = document.createElement('piece');
  el.className = `${role} ${color}`;
  return el;
}

export class BoardView {
  readonly el: HTMLElement;
  readonly cg: Api;
  input: BoardInput | undefined;
  private readonly boardWrap: HTMLElement;
  private readonly cgEl: HTMLElement;
  private readonly pockets: { top: HTMLElement; bottom: HTMLElement };
  private readonly playerEls: { top: HTMLElement; bottom: HTMLElement };
  readonly clockEls: { top: HTMLElement; bottom: HTMLElement };
  private readonly labelEl: HTMLElement;
  private promo: HTMLElement | undefined;
  private shownPosition = '';
  /** The player's measured lag, shown by his own name (`lag 42 ms`), or empty. */
  private lagText = '';
  /** When a tap on a pocket piece last picked it (`performance.now()`). */
  private lastTapPick = -Infinity;

  constructor(
    readonly size: 'main' | 'side',
    private readonly handlers: BoardHandlers,
  ) {
    this.cgEl = h('div', { class: 'cg-wrap' });
    this.boardWrap = h('div', { class: 'board-wrap' }, this.cgEl);
    this.pockets = { top: h('div', { class: 'pocket cg-wrap top' }), bottom: h('div', { class: 'pocket cg-wrap bottom' }) };
    this.clockEls = { top: h('div', { class: 'clock' }), bottom: h('div', { class: 'clock' }) };
    this.playerEls = { top: h('div', { class: 'name' }), bottom: h('div', { class: 'name' }) };
    this.labelEl = h('div', { class: 'board-label' });
    this.el = h(
      'section',
      { class: `board-col ${size}` },
      h('div', { class: 'player top' }, this.playerEls.top, this.clockEls.top),
      this.pockets.top,
      this.boardWrap,
      this.pockets.bottom,
      h('div', { class: 'player bottom' }, this.playerEls.bottom, this.clockEls.bottom),
      this.labelEl,
    );
    // A click on the board while a pocket piece is picked is the drop (or its cancellation):
    // chessground handles it first, then the pick ends.
    const endDropMode = (): void => {
      // Chessground keeps the board's position from its last resize or scroll; the page may
      // have moved it since (a phone's layout shifts as names and labels fill in).
      this.cg.state.dom.bounds.clear();
      if (this.cg.state.dropmode.active) setTimeout(() => this.handlers.dropModeUsed(this), 0);
    };
    this.boardWrap.addEventListener('mousedown', endDropMode, true);
    this.boardWrap.addEventListener('touchstart', endDropMode, { capture: true, passive: true });

    this.cg = Chessground(this.cgEl, {
      coordinates: size === 'main',
      autoCastle: true,
      animation: { enabled: true, duration: 150 },
      movable: {
        free: false,
        showDests: true,
        events: {
          after: (orig, dest, meta) => this.handlers.move(this, orig, dest, meta),
          afterNewPiece: (role, key, meta) => this.handlers.drop(this, role, key, meta),
        },
      },
      premovable: { enabled: false, showDests: true, castle: true },
      predroppable: { enabled: false },
      draggable: { enabled: false, showGhost: true },
      selectable: { enabled: false },
      drawable: { enabled: true },
      highlight: { lastMove: true, check: true },
    });
  }

  get board(): BoardName | undefined {
    return this.input?.board;
  }

  /** Shows `input`; `force` puts the pieces back even if the position did not change. */
  render(input: BoardInput, force = false): void {
    this.input = input;
    const parsed = parseFen(input.fen);
    const active = !!input.myColor;
    const position = `${input.board} ${parsed.board} ${parsed.turn}`;
    const config: Config = {
      orientation: input.orientation,
      turnColor: parsed.turn,
      check: input.check ? parsed.turn : false,
      lastMove: input.lastMove as Key[] | undefined,
      movable: {
        color: input.myColor,
        free: active && input.myTurn && input.dests === 'free',
        dests: (active && input.myTurn && input.dests !== 'free' ? input.dests : new Map()) as Map<Key, Key[]>,
      },
      premovable: { enabled: active },
      predroppable: { enabled: active },
      draggable: { enabled: active },
      selectable: { enabled: active },
      highlight: { custom: this.highlights(parsed.promoted, input.dropSquares) },
    };
    if (force || position !== this.shownPosition) {
      config.fen = parsed.board;
      this.shownPosition = position;
      this.closePromotion();
    }
    if (!active) {
      this.cg.cancelMove();
      cancelDropMode(this.cg.state);
    } else if (input.selectedRole) {
      const mode = this.cg.state.dropmode;
      if (!mode.active || mode.piece?.role !== input.selectedRole || mode.piece.color !== input.myColor)
        setDropMode(this.cg.state, { role: input.selectedRole, color: input.myColor! });
    } else {
      cancelDropMode(this.cg.state);
    }
    this.cg.set(config);
    this.renderPockets(parsed.pockets, input);
    this.renderPlayers(input);
    this.labelEl.textContent = input.label;
    this.el.classList.toggle('mine', active);
  }

  /** Shows the marks only (drop squares of a picked or dragged piece). */
  setDropSquares(squares: string[]): void {
    if (!this.input) return;
    this.input.dropSquares = squares;
    this.cg.set({ highlight: { custom: this.highlights(parseFen(this.input.fen).promoted, squares) } });
  }

  private highlights(promoted: string[], drops: string[]): Map<Key, string> {
    const map = new Map<Key, string>();
    for (const sq of promoted) map.set(sq as Key, 'promoted');
    for (const sq of drops) map.set(sq as Key, map.has(sq as Key) ? 'promoted drop-dest' : 'drop-dest');
    return map;
  }

  /** Puts the position back as the server last gave it (after a refused or cancelled move). */
  resync(): void {
    if (this.input) this.render(this.input, true);
  }

  private renderPockets(pockets: ReturnType<typeof parseFen>['pockets'], input: BoardInput): void {
    for (const side of ['top', 'bottom'] as const) {
      const color = side === 'bottom' ? input.orientation : opposite(input.orientation);
      const mine = input.myColor === color;
      const el = this.pockets[side];
      fill(
        el,
        POCKET_ROLES.map(role => {
          const count = pockets[color][role];
          // On one's own pocket, a piece not (yet) held can still be predropped.
          const usable = mine && (count > 0 || !input.myTurn);
          const item = h(
            'div',
            {
              class: `pocket-piece${count === 0 ? ' empty' : ''}${usable ? ' usable' : ''}${mine && input.selectedRole === role ? ' selected' : ''}`,
              'data-count': count,
              title: `${role}: ${count}`,
            },
            pieceEl(role, color),
            count > 1 ? h('span', { class: 'count' }, count) : null,
          );
          if (usable) {
            const start = (e: MouseEvent | TouchEvent): void => {
              if (e instanceof MouseEvent && e.button !== 0) return;
              this.cg.state.dom.bounds.clear();
              this.handlers.pocketDragStart(this, role);
              this.cg.dragNewPiece({ role, color } as Piece, e);
            };
            item.addEventListener('mousedown', start);
            item.addEventListener('touchstart', start, { passive: true });
            // A tap picks the piece for a tap on the board. Chessground ends its drag on
            // `touchend` without the mouse events and click a tap would bring, so the tap is
            // recognised here: the finger lifted over the piece it touched.
            item.addEventListener('touchend', e => {
              const touch = e.changedTouches[0];
              const over = touch && document.elementFromPoint(touch.clientX, touch.clientY);
              if (over && item.contains(over)) {
                this.lastTapPick = performance.now();
                this.handlers.pocketPick(this, role);
              }
            });
            item.addEventListener('click', () => {
              // The click a browser may still send after a recognised tap.
              if (performance.now() - this.lastTapPick < 600) return;
              this.handlers.pocketPick(this, role);
            });
          }
          return item;
        }),
      );
      el.classList.toggle('mine', mine);
    }
  }

  private renderPlayers(input: BoardInput): void {
    for (const side of ['top', 'bottom'] as const) {
      const p = input.players[side];
      const el = this.playerEls[side];
      el.parentElement?.classList.toggle('to-move', p.toMove);
      fill(
        el,
        h('span', { class: `dot${p.connected || p.bot ? ' on' : ''}`, title: p.connected ? 'connected' : 'not connected' }),
        h('span', { class: 'player-name' }, p.name),
        p.bot ? h('span', { class: 'tag' }, 'bot') : null,
        p.you ? h('span', { class: 'tag you' }, 'you') : null,
        h('span', { class: 'seat' }, p.seat),
        p.you ? h('span', { class: 'lag', title: 'your measured one-way lag to the server, which compensates your moves' }, this.lagText) : null,
      );
    }
  }

  /** Shows the player's measured lag by his name (on his own board). */
  setLag(text: string): void {
    this.lagText = text;
    for (const el of this.el.querySelectorAll('.player .lag')) el.textContent = text;
  }

  /** Asks which piece to promote to; `choose(null)` when cancelled. */
  askPromotion(dest: string, color: Color, roles: Role[], choose: (role: Role | null) => void): void {
    this.closePromotion();
    const done = (role: Role | null): void => {
      this.closePromotion();
      choose(role);
    };
    const file = dest.charCodeAt(0) - 97;
    const left = ((this.input?.orientation === 'white' ? file : 7 - file) * 12.5).toFixed(2);
    const dialog = h(
      'div',
      { class: 'promotion cg-wrap', role: 'dialog', 'aria-label': 'promote to' },
      h(
        'div',
        { class: 'promotion-choices', style: `left: ${left}%` },
        roles.map(role =>
          h(
            'button',
            { type: 'button', class: 'promotion-choice', title: role, 'aria-label': role, onclick: () => done(role) },
            pieceEl(role, color),
          ),
        ),
      ),
    );
    dialog.addEventListener('click', e => {
      if (e.target === dialog) done(null);
    });
    this.promo = dialog;
    this.boardWrap.append(dialog);
  }

  private closePromotion(): void {
    this.promo?.remove();
    this.promo = undefined;
  }
}
