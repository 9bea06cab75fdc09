// The websocket: connects, says hello (with the seat token if there is one), reconnects with
// backoff (0.5 s to 5 s) when the socket closes, and pings every five seconds to measure the
// round trip. Actions go through the outbox: sent with an id, sent again after each hello and
// every RESEND_MS on a live connection until the server answers them (`ack` or `error` with
// that id).

import { backoffMs } from './helpers';
import { Outbox, type PendingAction } from './outbox';
import type { ActionMessage, ClientFrame, ClientMessage, ServerMessage } from './protocol';

export interface ConnectionEvents {
  /** Every message from the server. */
  message(msg: ServerMessage): void;
  /** `connecting`, `open`, or `closed` with the delay before the next attempt. */
  status(status: 'connecting' | 'open' | 'closed', retryInMs?: number): void;
  /** A measured round trip, in ms. */
  rtt(ms: number): void;
  /** The hello to send on each (re)connection. */
  hello(): ClientMessage;
  /** The server answered an action of ours (`ack` or `error` with its id); called before
   * `message` with the same answer. */
  settled(action: PendingAction, answer: ServerMessage): void;
}

/** The websocket's address; naming the match lets the server run the connection beside it. */
export function wsUrl(matchId?: string): string {
  const query = matchId ? `?match=${encodeURIComponent(matchId)}` : '';
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${query}`;
}

export class Connection {
  private ws: WebSocket | undefined;
  private attempt = 0;
  private retryTimer: number | undefined;
  private pingTimer: number | undefined;
  private resendTimer: number | undefined;
  private stopped = false;
  readonly outbox: Outbox;

  constructor(private readonly events: ConnectionEvents) {
    this.outbox = new Outbox(frame => this.send(frame));
  }

  start(): void {
    this.stopped = false;
    this.connect();
    window.clearInterval(this.resendTimer);
    this.resendTimer = window.setInterval(() => {
      if (this.open) this.outbox.resendDue();
    }, 500);
  }

  /** Closes for good (no more reconnection). */
  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.pingTimer);
    window.clearInterval(this.resendTimer);
    this.ws?.close();
  }

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Sends a frame now if the socket is open (no retry: see `act`). */
  send(msg: ClientFrame): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Sends an action with an id, now or once connected, until the server answers it. */
  act(msg: ActionMessage): number {
    return this.outbox.add(msg);
  }

  /** Says hello again on this connection: the server answers with a full `state`. */
  resync(): void {
    this.send(this.events.hello());
  }

  /** Closes the socket as a lost network would (the page reconnects); a test hook. */
  drop(): void {
    this.ws?.close();
  }

  /** Reconnects now (used after taking a seat elsewhere, or by the user). */
  reconnect(): void {
    this.attempt = 0;
    this.ws?.close();
  }

  private connect(): void {
    window.clearTimeout(this.retryTimer);
    this.events.status('connecting');
    let ws: WebSocket;
    try {
      const hello = this.events.hello();
      ws = new WebSocket(wsUrl(hello.type === 'hello' ? hello.match_id : undefined));
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.events.status('open');
      this.send(this.events.hello());
      // After the hello, which seats this connection again: the server answers an action it
      // already did with the same `ack` and does the others now.
      this.outbox.resendAll();
      this.ping();
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.ping(), 5000);
    };
    ws.onmessage = e => {
      if (typeof e.data !== 'string') return;
      let msg: ServerMessage;
      try {
        msg = JSON.parse(e.data) as ServerMessage;
      } catch {
        return;
      }
      if (msg.type === 'state') this.attempt = 0;
      if (msg.type === 'pong') {
        const rtt = performance.now() - msg.t;
        if (rtt >= 0 && rtt < 60_000) this.events.rtt(rtt);
      }
      if ((msg.type === 'ack' || msg.type === 'error') && typeof msg.id === 'number') {
        const action = this.outbox.settle(msg.id);
        if (action) this.events.settled(action, msg);
      }
      this.events.message(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      window.clearInterval(this.pingTimer);
      this.ws = undefined;
      if (!this.stopped) this.scheduleRetry();
    };
    ws.onerror = () => {
      // onclose follows
    };
  }

  private scheduleRetry(): void {
    const delay = backoffMs(this.attempt++);
    this.events.status('closed', delay);
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  private ping(): void {
    this.send({ type: 'ping', t: performance.now() });
  }
}
