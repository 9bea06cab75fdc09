// The websocket: connects, says hello (with the seat token if there is one), reconnects with
// backoff when the socket closes, and pings every five seconds to measure the round trip.

import { backoffMs } from './helpers';
import type { ClientMessage, ServerMessage } from './protocol';

export interface ConnectionEvents {
  /** Every message from the server. */
  message(msg: ServerMessage): void;
  /** `connecting`, `open`, or `closed` with the delay before the next attempt. */
  status(status: 'connecting' | 'open' | 'closed', retryInMs?: number): void;
  /** A measured round trip, in ms. */
  rtt(ms: number): void;
  /** The hello to send on each (re)connection. */
  hello(): ClientMessage;
}

export function wsUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}

export class Connection {
  private ws: WebSocket | undefined;
  private attempt = 0;
  private retryTimer: number | undefined;
  private pingTimer: number | undefined;
  private stopped = false;

  constructor(private readonly events: ConnectionEvents) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Closes for good (no more reconnection). */
  stop(): void {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.pingTimer);
    this.ws?.close();
  }

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  send(msg: ClientMessage): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
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
      ws = new WebSocket(wsUrl());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.events.status('open');
      this.send(this.events.hello());
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
