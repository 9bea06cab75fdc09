// The actions on their way to the server: each gets an id, is sent, and is kept until the
// server answers it with `ack` or with an `error` carrying the same id. An action not answered
// is sent again (same id) on every new connection and, on a live one, after RESEND_MS: the
// server answers an id it has already done with the same `ack` and never applies it twice.
// Kept in memory: the actions survive a reconnection, not a page reload.

import type { ActionMessage, ClientFrame } from './protocol';

/** How long an action waits for its answer on a live connection before it is sent again. */
export const RESEND_MS = 2500;

export interface PendingAction {
  id: number;
  msg: ActionMessage;
  /** When it was last sent (the injected clock), or null if never sent. */
  sentAt: number | null;
}

/** Makes action ids: the time in microseconds plus a counter, unique on this page and below
 * 2^53 (until the year 2255). */
export class IdMaker {
  private last = 0;

  constructor(private readonly now: () => number = Date.now) {}

  next(): number {
    const id = Math.max(Math.floor(this.now()) * 1000, this.last + 1);
    this.last = id;
    return id;
  }
}

export class Outbox {
  private readonly pending = new Map<number, PendingAction>();
  private readonly ids: IdMaker;

  constructor(
    /** Sends a frame; false when there is no open connection. */
    private readonly send: (frame: ClientFrame) => boolean,
    private readonly now: () => number = () => performance.now(),
    ids?: IdMaker,
  ) {
    this.ids = ids ?? new IdMaker();
  }

  /** Queues `msg` and sends it now if it can; returns its id. */
  add(msg: ActionMessage): number {
    const action: PendingAction = { id: this.ids.next(), msg, sentAt: null };
    this.pending.set(action.id, action);
    this.transmit(action);
    return action.id;
  }

  /** The answer to `id` came (an `ack` or an `error`): the action is done. Returns it, or
   * undefined when it was not (or no longer) waiting. */
  settle(id: number): PendingAction | undefined {
    const action = this.pending.get(id);
    this.pending.delete(id);
    return action;
  }

  /** A new connection said hello: sends every action still waiting, oldest first. */
  resendAll(): void {
    for (const action of this.list()) this.transmit(action);
  }

  /** Sends again the actions that waited RESEND_MS or more (or were never sent). */
  resendDue(): void {
    const now = this.now();
    for (const action of this.list()) {
      if (action.sentAt === null || now - action.sentAt >= RESEND_MS) this.transmit(action);
    }
  }

  /** The actions waiting, oldest first. */
  list(): PendingAction[] {
    return [...this.pending.values()].sort((a, b) => a.id - b.id);
  }

  has(type: ActionMessage['type']): boolean {
    return this.list().some(a => a.msg.type === type);
  }

  /** Forgets every waiting action of `type` (e.g. moves, when the match is over). */
  drop(type: ActionMessage['type']): PendingAction[] {
    const dropped = this.list().filter(a => a.msg.type === type);
    for (const a of dropped) this.pending.delete(a.id);
    return dropped;
  }

  get size(): number {
    return this.pending.size;
  }

  private transmit(action: PendingAction): void {
    if (this.send({ ...action.msg, id: action.id })) action.sentAt = this.now();
  }
}
