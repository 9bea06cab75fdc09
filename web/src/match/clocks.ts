// The match page's clocks: the time on each seat's clock, live (counted down between the
// server's messages) or in the replay (rebuilt from the record), and their faces.

import type { BoardView } from '../boardview';
import { clocksAfter, formatClock, liveRemaining, lowTimeMs, parseTimeControl, seatIndex } from '../helpers';
import { SEATS, type MatchState, type SeatName } from '../protocol';
import { play } from '../sound';

export interface ClockTimes {
  /** Each seat's time left in ms, in protocol order ({@link SEATS}). */
  times: number[];
  /** The clocks running now (none in the replay or when the match does not play). */
  running: SeatName[];
  /** Under this a clock shows as low ({@link lowTimeMs} of the base time). */
  lowMs: number;
}

/**
 * The times shown: in the replay (`replay` moves played) the clocks as the record left them;
 * live, the state's clocks with the running ones counted down by `elapsedMs` since they came.
 */
export function clockTimes(st: MatchState, replay: number | null, elapsedMs: number): ClockTimes {
  const baseMs = parseTimeControl(st.time_control)?.baseMs ?? 0;
  const lowMs = lowTimeMs(baseMs);
  if (replay !== null) return { times: clocksAfter(st.moves, replay, baseMs), running: [], lowMs };
  const running = st.status === 'playing' ? st.clocks.running : [];
  const times = SEATS.map((seat, i) => liveRemaining(st.clocks.remaining_ms[i] ?? 0, running.includes(seat), elapsedMs));
  return { times, running, lowMs };
}

/** The clock faces under and over both boards, and the low-time sound. */
export class ClockFaces {
  /** The seats whose low-time warning has sounded. */
  private readonly lowWarned = new Set<SeatName>();

  /** Draws `t` on the views' clocks; `you` hears one short sound when his clock runs low. */
  render(views: readonly BoardView[], t: ClockTimes, you: SeatName | null): void {
    const { times, running, lowMs } = t;
    for (const view of views) {
      const input = view.input;
      if (!input) continue;
      for (const side of ['top', 'bottom'] as const) {
        const seat = input.players[side].seat;
        const ms = times[seatIndex(seat)] ?? 0;
        const el = view.clockEls[side];
        const text = formatClock(ms);
        if (el.textContent !== text) el.textContent = text;
        el.classList.toggle('running', running.includes(seat));
        el.classList.toggle('low', ms < lowMs && ms > 0);
        el.classList.toggle('flag', ms <= 0);
        // One short sound the first time one's own clock runs low.
        if (seat === you && ms < lowMs && ms > 0 && running.includes(seat) && !this.lowWarned.has(seat)) {
          this.lowWarned.add(seat);
          play('low');
        }
      }
    }
  }
}
