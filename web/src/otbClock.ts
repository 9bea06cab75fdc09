// The table clock as the page shows it between the server's answers: the faces of the last
// answer, then the presses, pauses and starts made here since (not yet answered), run forward
// to now. Only clock arithmetic: every decision (flags, claims) comes from the server.

import type { OtbEvent, OtbEventItem, OtbTableView } from './generated/otb';
import type { SeatName } from './generated/protocol';
import { SEATS } from './otbText';

export interface Face {
  seat: SeatName;
  remaining: number;
  running: boolean;
  flag: boolean;
}

export interface LocalClock {
  started: boolean;
  paused: boolean;
  faces: Face[];
}

const OPPONENT: Record<SeatName, SeatName> = { WhiteA: 'BlackA', BlackA: 'WhiteA', WhiteB: 'BlackB', BlackB: 'WhiteB' };

function boardOver(view: OtbTableView, seat: SeatName): boolean {
  if (view.result) return true;
  return view.games.some((g) => g.board === seat.slice(-1) && g.result !== undefined);
}

/** The clock at `now`: the view's faces, then `pending` applied in order. */
export function localClock(view: OtbTableView, pending: readonly OtbEventItem[], now: number): LocalClock {
  const faces: Face[] = SEATS.map((seat) => {
    const f = view.clocks.find((c) => c.seat === seat);
    return { seat, remaining: f?.remaining_ms ?? view.base_ms, running: f?.running ?? false, flag: f?.flag_ms !== undefined };
  });
  const face = (seat: SeatName): Face => faces[SEATS.indexOf(seat)]!;
  let started = view.started;
  let paused = view.paused;
  let pausedRunning: SeatName[] = [];
  if (paused) {
    // The server's faces show nothing running while paused; the record says who was on turn.
    pausedRunning = onTurnWhenPaused(view);
  }
  let asOf = view.as_of_ms;
  const advance = (t: number): void => {
    if (t <= asOf) return;
    for (const f of faces) if (f.running) f.remaining = Math.max(0, f.remaining - (t - asOf));
    asOf = t;
  };
  const apply = (e: OtbEvent, t: number): void => {
    advance(t);
    switch (e.type) {
      case 'start':
        if (started) return;
        started = true;
        for (const f of faces) f.running = f.seat.startsWith('White') && !boardOver(view, f.seat);
        return;
      case 'press': {
        const f = face(e.seat);
        if (!f.running || paused) return;
        f.running = false;
        if (f.remaining > 0) f.remaining += view.increment_ms;
        face(OPPONENT[e.seat]).running = true;
        return;
      }
      case 'pause':
        if (!started || paused) return;
        paused = true;
        pausedRunning = faces.filter((f) => f.running).map((f) => f.seat);
        for (const f of faces) f.running = false;
        return;
      case 'resume':
        if (!paused) return;
        paused = false;
        for (const s of pausedRunning) face(s).running = true;
        return;
      default:
        return;
    }
  };
  for (const item of pending) apply(item.event, item.at_ms);
  advance(now);
  for (const f of faces) if (f.remaining <= 0) f.flag = true;
  return { started, paused, faces };
}

/** Who was on turn on each board when the clocks were paused (the presses since the start). */
function onTurnWhenPaused(view: OtbTableView): SeatName[] {
  const turn: Record<'A' | 'B', SeatName> = { A: 'WhiteA', B: 'WhiteB' };
  for (const entry of view.record) {
    const e = entry.event;
    if (!e) continue;
    if (e.type === 'press') turn[e.seat.slice(-1) as 'A' | 'B'] = OPPONENT[e.seat];
    for (const d of entry.decisions) {
      const c = d.consequence;
      if (c.kind === 'replace_move') turn[c.offender.slice(-1) as 'A' | 'B'] = c.offender;
      if (c.kind === 'restart_both') {
        turn.A = 'WhiteA';
        turn.B = 'WhiteB';
      }
      if (c.kind === 'restart_game') turn[c.board] = c.board === 'A' ? 'WhiteA' : 'WhiteB';
    }
  }
  return (['A', 'B'] as const).filter((b) => !view.games.find((g) => g.board === b)?.result).map((b) => turn[b]);
}
