import { describe, expect, it } from 'vitest';
import type { OtbEventItem, OtbTableView } from '../src/generated/otb';
import { localClock } from '../src/otbClock';

/** A table as the server answers it: started at 1000 with 60 s each, nothing else. */
function view(over: Partial<OtbTableView> = {}): OtbTableView {
  return {
    id: 't',
    rulebook: 'knsb-1988',
    base_ms: 60_000,
    increment_ms: 2_000,
    started: true,
    paused: false,
    as_of_ms: 1_000,
    clocks: [
      { seat: 'WhiteA', remaining_ms: 60_000, running: true },
      { seat: 'BlackA', remaining_ms: 60_000, running: false },
      { seat: 'WhiteB', remaining_ms: 60_000, running: true },
      { seat: 'BlackB', remaining_ms: 60_000, running: false },
    ],
    games: [{ board: 'A' }, { board: 'B' }],
    illegal_moves: [0, 0, 0, 0],
    record: [],
    applied: [],
    rejected: [],
    moves: [],
    ...over,
  };
}

const item = (at_ms: number, event: OtbEventItem['event']): OtbEventItem => ({ id: at_ms, at_ms, event });

describe('localClock', () => {
  it('runs the faces of the answer forward to now', () => {
    const c = localClock(view(), [], 11_000);
    expect(c.faces.map((f) => f.remaining)).toEqual([50_000, 60_000, 50_000, 60_000]);
    expect(c.faces.map((f) => f.running)).toEqual([true, false, true, false]);
  });

  it('applies presses not yet answered, with the increment', () => {
    const c = localClock(view(), [item(5_000, { type: 'press', seat: 'WhiteA' })], 8_000);
    expect(c.faces[0]).toMatchObject({ remaining: 58_000, running: false });
    expect(c.faces[1]).toMatchObject({ remaining: 57_000, running: true });
  });

  it('ignores a press of a side that does not run', () => {
    const c = localClock(view(), [item(5_000, { type: 'press', seat: 'BlackB' })], 5_000);
    expect(c.faces[2]!.running).toBe(true);
    expect(c.faces[3]!.running).toBe(false);
  });

  it('stops every face while paused and resumes those that ran', () => {
    const pending = [item(3_000, { type: 'pause' }), item(30_000, { type: 'resume' })];
    const paused = localClock(view(), pending.slice(0, 1), 20_000);
    expect(paused.paused).toBe(true);
    expect(paused.faces[0]!.remaining).toBe(58_000);
    const resumed = localClock(view(), pending, 31_000);
    expect(resumed.faces[0]).toMatchObject({ remaining: 57_000, running: true });
  });

  it('shows a flag at zero', () => {
    const c = localClock(view(), [], 70_000);
    expect(c.faces[0]).toMatchObject({ remaining: 0, flag: true });
    expect(c.faces[1]!.flag).toBe(false);
  });

  it('starts both White clocks when the start is not answered yet', () => {
    const fresh = view({ started: false, clocks: view().clocks.map((f) => ({ ...f, running: false })) });
    const c = localClock(fresh, [item(2_000, { type: 'start' })], 4_000);
    expect(c.started).toBe(true);
    expect(c.faces.map((f) => f.running)).toEqual([true, false, true, false]);
    expect(c.faces[0]!.remaining).toBe(58_000);
  });
});
