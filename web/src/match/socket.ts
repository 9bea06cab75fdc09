// The match page's side of the websocket: each server message applied to the model and
// redrawn, the answers to our actions (done or refused), and errors.

import { siteHeader } from '../account';
import { fill, h, storageGet, storageSet, toast } from '../dom';
import { tokenKey } from '../helpers';
import type { PendingAction } from '../outbox';
import type { MatchState, SeatName, ServerMessage } from '../protocol';
import { play } from '../sound';
import type { Boards } from './boards';
import type { MatchContext } from './context';
import type { SeqVerdict } from './model';
import type { MoveRecord } from './record';
import type { SeatsPanel } from './seats';
import type { TalkPanel } from './talk';

/** The parts of the page a message may touch beside the redraws. */
export interface SocketParts {
  boards: Boards;
  seats: SeatsPanel;
  talk: TalkPanel;
  record: MoveRecord;
}

/** The errors (without an id) that may answer a move: the boards go back to the server's. */
const MOVE_ERRORS = ['illegal_move', 'not_your_turn', 'game_over', 'not_seated', 'rate_limited', 'bad_message', 'too_large', 'not_stored'];

export class MatchSocket {
  constructor(
    private readonly ctx: MatchContext,
    private readonly parts: SocketParts,
    /** The seat a lobby link asked to take (`?sit=WhiteA`), until tried. */
    private autoSit: SeatName | null,
  ) {}

  onMessage(msg: ServerMessage): void {
    const { ctx } = this;
    const m = ctx.model;
    switch (msg.type) {
      case 'state':
        this.onState(msg.state, msg.you);
        break;
      case 'seats':
        // Someone connected or went away: only the seats changed.
        if (!m.state) return;
        m.state.seats = msg.seats;
        // The boards' player labels show who is connected too.
        ctx.renderAll();
        break;
      case 'seated':
        storageSet(tokenKey(ctx.id), msg.token);
        m.you = msg.seat;
        m.standing = false;
        ctx.renderAll();
        break;
      case 'moved':
        if (!this.take(m.applyMoved(msg, performance.now()))) return;
        play(msg.mv.san.includes('x') ? 'capture' : 'move');
        ctx.renderNextFrame();
        break;
      case 'ended':
        if (!this.take(m.applyEnded(msg, performance.now()))) return;
        play('end');
        ctx.renderAll();
        this.parts.record.maybeFetchPositions();
        break;
      case 'draw_offers':
        if (!this.take(m.applyDrawOffers(msg))) return;
        ctx.renderPanels();
        break;
      case 'talk':
        this.parts.talk.received(msg);
        break;
      case 'ack':
        if (msg.lag_ms !== undefined) this.setLag(msg.lag_ms);
        break;
      case 'rating_changes': {
        if (!m.state) return;
        const { type: _type, ...changes } = msg;
        m.state.rating_changes = changes;
        ctx.renderPanels();
        break;
      }
      case 'rematch':
        m.rematchId = msg.match_id;
        // The server opens the rematch seats with the players' old secrets: carry ours over.
        {
          const token = storageGet(tokenKey(ctx.id));
          if (token) storageSet(tokenKey(msg.match_id), token);
        }
        if (m.you) location.assign(`/m/${encodeURIComponent(msg.match_id)}`);
        else ctx.renderPanels();
        break;
      case 'pong':
        if (msg.lag_ms !== undefined) this.setLag(msg.lag_ms);
        break;
      case 'error':
        // An error with an id answers one of our actions: `onSettled` has dealt with it.
        if (msg.id === undefined) this.onError(msg.code, msg.message);
        break;
    }
  }

  /** The server answered an action of ours: done (`ack`) or refused (`error`). */
  onSettled(action: PendingAction, answer: ServerMessage): void {
    if (answer.type === 'error') {
      const what = action.msg.type === 'move' ? `Move ${action.msg.uci} refused` : `${action.msg.type.replace('_', ' ')} refused`;
      toast(`${what}: ${answer.message || answer.code}`);
      if (action.msg.type === 'stand') this.ctx.model.standing = false;
    }
    if (action.msg.type === 'move') {
      // Refused: the boards go back to what the server last showed; done: the move is free again.
      this.ctx.renderBoards(answer.type === 'error');
    }
    this.ctx.renderConn();
  }

  /** Whether a numbered event applies; on a gap the page says hello again for a whole state. */
  private take(verdict: SeqVerdict): boolean {
    if (verdict === 'gap') this.ctx.conn.resync();
    return verdict === 'apply';
  }

  private setLag(ms: number): void {
    this.ctx.model.lagMs = ms;
    this.parts.boards.setLag(ms);
  }

  private onState(state: MatchState, you: SeatName | null): void {
    const { ctx } = this;
    const m = ctx.model;
    // Moves sent before a reconnection stay in the outbox until answered: nothing to forget.
    const { fresh, stoodUp } = m.applyState(state, you, performance.now());
    if (stoodUp) storageSet(tokenKey(ctx.id), null);
    ctx.renderAll(fresh);
    this.parts.talk.renderLog();
    if (m.lagMs !== null) this.setLag(m.lagMs);
    this.parts.record.maybeFetchPositions();
    this.maybeAutoSit();
  }

  /** Takes the seat a lobby link asked for (`?sit=WhiteA`), once, if it is still free. */
  private maybeAutoSit(): void {
    const seat = this.autoSit;
    const m = this.ctx.model;
    const st = m.state;
    if (!seat || !st) return;
    this.autoSit = null;
    history.replaceState(history.state, '', location.pathname);
    if (m.you || st.status !== 'waiting') return;
    const info = st.seats.find(s => s.seat === seat);
    if (info && (info.name !== null || info.bot)) {
      toast(`${seat} was taken meanwhile: choose another seat.`, 'info');
      return;
    }
    this.parts.seats.sit(seat);
  }

  private onError(code: string, message: string): void {
    const { ctx } = this;
    if (code === 'bad_token') {
      // The stored seat secret opens no seat of this match (stale, or of an older server): it
      // is forgotten and the page watches.
      storageSet(tokenKey(ctx.id), null);
      ctx.model.tokenRefused = true;
      toast('Your saved seat is not valid for this match: you are watching.', 'info');
      ctx.renderPanels();
      return;
    }
    if (code === 'no_such_match' && !ctx.model.state) {
      ctx.conn.stop();
      fill(
        ctx.root,
        siteHeader(),
        h('main', { class: 'notfound' }, h('h2', {}, 'No such match'), h('p', {}, message), h('p', {}, h('a', { href: '/' }, 'Back to the lobby'))),
      );
      return;
    }
    toast(message || code);
    // An error without an id answers no action of ours that waits; those that can answer a
    // move put the boards back as the server last showed them.
    if (MOVE_ERRORS.includes(code)) ctx.renderBoards(true);
  }
}
