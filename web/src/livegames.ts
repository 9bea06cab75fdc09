// The lobby's matches in progress: a card per match with both boards in miniature (chessground,
// view only), the four names and clocks. Cards are kept by match id across snapshots, so a
// board only moves its pieces when its position changes.

import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import { pieceEl } from './boardview';
import { fill, h } from './dom';
import { formatClock, lastMoveKeys, liveRemaining, parseFen, POCKET_ROLES, seatIndex, seatOf, type Color } from './helpers';
import type { BoardName, LiveGame, SeatName } from './protocol';

interface Mini {
  cg: Api;
  fen: string;
  pockets: { top: HTMLElement; bottom: HTMLElement };
  names: { top: HTMLElement; bottom: HTMLElement };
  clocks: { top: HTMLElement; bottom: HTMLElement };
  seats: { top: SeatName; bottom: SeatName };
  orientation: Color;
}

interface Card {
  el: HTMLElement;
  head: HTMLElement;
  minis: [Mini, Mini];
  game: LiveGame;
}

export class LiveGames {
  readonly el = h('div', { class: 'live-list' });
  private readonly cards = new Map<string, Card>();
  private receivedAt = performance.now();

  constructor() {
    window.setInterval(() => this.tick(), 250);
  }

  /** Shows the matches of a snapshot, in its order. */
  update(games: readonly LiveGame[]): void {
    this.receivedAt = performance.now();
    const keep = new Set(games.map(g => g.match_id));
    for (const [id, card] of this.cards) {
      if (!keep.has(id)) {
        for (const m of card.minis) m.cg.destroy();
        card.el.remove();
        this.cards.delete(id);
      }
    }
    games.forEach((game, i) => {
      let card = this.cards.get(game.match_id);
      if (!card) {
        card = this.create(game, i);
        this.cards.set(game.match_id, card);
      } else if (this.el.children[i] !== card.el) {
        this.el.insertBefore(card.el, this.el.children[i] ?? null);
      }
      this.show(card, game);
    });
    this.tick();
  }

  private create(game: LiveGame, index: number): Card {
    const href = `/m/${encodeURIComponent(game.match_id)}`;
    const head = h('div', { class: 'live-head' });
    const boards = h('div', { class: 'live-boards' });
    const el = h('a', { class: 'live-card', href, 'data-match': game.match_id, title: 'watch this match' }, head, boards);
    // Appended before chessground draws, so that it measures a board with a size.
    this.el.insertBefore(el, this.el.children[index] ?? null);
    // Board A with White at the bottom, board B with Black: partners side by side.
    const mini = (board: BoardName, orientation: Color): Mini => {
      const other: Color = orientation === 'white' ? 'black' : 'white';
      const parts = {
        names: { top: h('span', { class: 'mini-name' }), bottom: h('span', { class: 'mini-name' }) },
        clocks: { top: h('span', { class: 'mini-clock' }), bottom: h('span', { class: 'mini-clock' }) },
        pockets: { top: h('div', { class: 'mini-pocket cg-wrap' }), bottom: h('div', { class: 'mini-pocket cg-wrap' }) },
      };
      const cgEl = h('div', { class: 'cg-wrap' });
      boards.append(
        h(
          'div',
          { class: `mini board-${board}` },
          h('div', { class: 'mini-player' }, parts.names.top, parts.clocks.top),
          parts.pockets.top,
          h('div', { class: 'mini-board' }, cgEl),
          parts.pockets.bottom,
          h('div', { class: 'mini-player' }, parts.names.bottom, parts.clocks.bottom),
        ),
      );
      const cg = Chessground(cgEl, {
        viewOnly: true,
        coordinates: false,
        orientation,
        animation: { enabled: true, duration: 120 },
        drawable: { enabled: false, visible: false },
        highlight: { lastMove: true, check: false },
      });
      return {
        cg,
        fen: '',
        ...parts,
        seats: { top: seatOf(board, other), bottom: seatOf(board, orientation) },
        orientation,
      };
    };
    return { el, head, minis: [mini('A', 'white'), mini('B', 'black')], game };
  }

  private show(card: Card, game: LiveGame): void {
    card.game = game;
    fill(card.head, h('span', { class: 'rules' }, game.rules), h('span', { class: 'tc' }, game.time_control));
    game.boards.forEach((board, i) => {
      const mini = card.minis[i]!;
      if (mini.fen !== board.fen) {
        const parsed = parseFen(board.fen);
        mini.cg.set({ fen: parsed.board, lastMove: lastMoveKeys(board.last_move) as Key[] | undefined, turnColor: parsed.turn });
        mini.fen = board.fen;
        for (const side of ['top', 'bottom'] as const) {
          const color: Color = side === 'bottom' ? mini.orientation : mini.orientation === 'white' ? 'black' : 'white';
          const pocket = parsed.pockets[color];
          fill(
            mini.pockets[side],
            POCKET_ROLES.filter(r => pocket[r] > 0).map(r =>
              h('span', { class: 'mini-piece' }, pieceEl(r, color), pocket[r] > 1 ? h('span', { class: 'count' }, pocket[r]) : null),
            ),
          );
        }
      }
      for (const side of ['top', 'bottom'] as const) {
        const info = game.seats[seatIndex(mini.seats[side])];
        const name = info?.name ?? (info?.bot ? 'bot' : '—');
        if (mini.names[side].textContent !== name) mini.names[side].textContent = name;
      }
    });
  }

  /** Counts the running clocks down between snapshots. */
  private tick(): void {
    const elapsed = performance.now() - this.receivedAt;
    for (const card of this.cards.values()) {
      const { clocks } = card.game;
      for (const mini of card.minis) {
        for (const side of ['top', 'bottom'] as const) {
          const seat = mini.seats[side];
          const running = clocks.running.includes(seat);
          const ms = liveRemaining(clocks.remaining_ms[seatIndex(seat)] ?? 0, running, elapsed);
          const text = formatClock(ms);
          const el = mini.clocks[side];
          if (el.textContent !== text) el.textContent = text;
          el.classList.toggle('running', running);
        }
      }
    }
  }
}
