// The match page's pure texts and sums: the clocks shown, the header, rating changes, and when
// the actions panel is rebuilt (web/src/match/).

import { describe, expect, it } from 'vitest';
import { actionsKey } from '../src/match/actions';
import { clockTimes } from '../src/match/clocks';
import { connText, statusText } from '../src/match/header';
import { MatchModel } from '../src/match/model';
import { changeText } from '../src/match/ratings';
import type { MatchState, MoveInfo, SeatName } from '../src/protocol';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1';
const BLACK_TO_MOVE = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1';

const matchState = (over: Partial<MatchState> = {}): MatchState => ({
  match_id: 'm1',
  rules: 'fide',
  time_control: '1+0',
  status: 'playing',
  seats: (['WhiteA', 'BlackA', 'WhiteB', 'BlackB'] as SeatName[]).map(seat => ({
    seat,
    name: seat === 'BlackB' ? null : seat.toLowerCase(),
    bot: false,
    connected: true,
    account: false,
  })),
  boards: [
    { board: 'A', fen: START, last_move: null, check: false, verdict: 'ongoing' },
    { board: 'B', fen: START, last_move: null, check: false, verdict: 'ongoing' },
  ],
  clocks: { remaining_ms: [60_000, 55_000, 5_000, 60_000], running: ['BlackA', 'WhiteB'] },
  moves: [],
  result: null,
  draw_offers: [],
  talk: [],
  settings: [],
  seq: 0,
  talk_log: [],
  rated: false,
  allow_bots: false,
  ...over,
});

describe('clockTimes', () => {
  it('counts the running clocks down, never under zero, and warns under a tenth of the base', () => {
    const t = clockTimes(matchState(), null, 6_000);
    expect(t.times).toEqual([60_000, 49_000, 0, 60_000]);
    expect(t.running).toEqual(['BlackA', 'WhiteB']);
    expect(t.lowMs).toBe(6_000);
  });

  it('stops every clock when the match does not play', () => {
    const t = clockTimes(matchState({ status: 'finished' }), null, 6_000);
    expect(t.times).toEqual([60_000, 55_000, 5_000, 60_000]);
    expect(t.running).toEqual([]);
  });

  it('rebuilds the clocks of the replayed position from the record', () => {
    const mv = (ply: number, seat: SeatName, clock_ms: number): MoveInfo => ({ ply, seat, uci: 'e2e4', san: 'e4', number: 1, clock_ms, lag_ms: 0 });
    const st = matchState({ status: 'finished', moves: [mv(0, 'WhiteA', 58_000), mv(1, 'BlackA', 57_000)] });
    const t = clockTimes(st, 1, 99_000);
    expect(t.times).toEqual([58_000, 60_000, 60_000, 60_000]);
    expect(t.running).toEqual([]);
    expect(clockTimes(st, 0, 0).times).toEqual([60_000, 60_000, 60_000, 60_000]);
  });

  it('takes the low mark of 3 s when the time control cannot be read', () => {
    expect(clockTimes(matchState({ time_control: 'odd' }), null, 0).lowMs).toBe(3_000);
  });
});

describe('header', () => {
  it('says where the match is, counting bots as seated', () => {
    const st = matchState({ status: 'waiting' });
    expect(statusText(st)).toBe('waiting for players (3/4)');
    st.seats[3]!.bot = true;
    expect(statusText(st)).toBe('waiting for players (4/4)');
    expect(statusText(matchState())).toBe('playing');
    expect(statusText(matchState({ status: 'finished' }))).toBe('finished');
  });

  it('says the connection, with the retry in whole seconds', () => {
    expect(connText('open')).toBe('');
    expect(connText('connecting')).toBe('connecting…');
    expect(connText('closed', 1200)).toBe('disconnected, retrying in 2 s');
    expect(connText('closed')).toBe('disconnected, retrying in 0 s');
  });
});

describe('changeText', () => {
  it('writes a rating change with its sign', () => {
    expect(changeText(1500, 1662, 162)).toBe('1500 → 1662 (+162)');
    expect(changeText(1500.4, 1480.2, -20.2)).toBe('1500 → 1480 (-20)');
    expect(changeText(1500, 1500, 0.3)).toBe('1500 → 1500 (±0)');
  });
});

describe('actionsKey', () => {
  it('changes when the buttons must, not at every move', () => {
    const m = new MatchModel();
    m.applyState(matchState(), 'WhiteA', 0);
    const before = actionsKey(m, false);
    // A move on the other board: the same buttons.
    m.state!.boards[1] = { ...m.state!.boards[1], fen: BLACK_TO_MOVE };
    expect(actionsKey(m, false)).toBe(before);
    // Resign asked once, a draw offered, a claim possible, a name changed: rebuilt.
    expect(actionsKey(m, true)).not.toBe(before);
    m.state!.draw_offers = ['BlackA'];
    const offered = actionsKey(m, false);
    expect(offered).not.toBe(before);
    m.state!.boards[0] = { ...m.state!.boards[0], claims: ['repetition'] };
    const claim = actionsKey(m, false);
    expect(claim).not.toBe(offered);
    m.state!.seats[3]!.name = 'dora';
    expect(actionsKey(m, false)).not.toBe(claim);
  });
});
