// The match page's model (web/src/match/model.ts): how the server's messages change the state,
// and what each board shows from it (boardInput.ts).

import { describe, expect, it } from 'vitest';
import { boardInput } from '../src/match/boardInput';
import { MatchModel, type Msg } from '../src/match/model';
import type { BoardState, MatchState, MoveInfo, SeatName, TalkEntry } from '../src/protocol';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1';

const board = (b: 'A' | 'B', fen = START, over: Partial<BoardState> = {}): BoardState => ({
  board: b,
  fen,
  last_move: null,
  check: false,
  verdict: 'ongoing',
  ...over,
});

const matchState = (over: Partial<MatchState> = {}): MatchState => ({
  match_id: 'm1',
  rules: 'fide',
  time_control: '5+0',
  status: 'playing',
  seats: (['WhiteA', 'BlackA', 'WhiteB', 'BlackB'] as SeatName[]).map(seat => ({
    seat,
    name: seat === 'BlackB' ? null : `p-${seat}`,
    bot: seat === 'BlackB',
    connected: seat !== 'BlackB',
    account: false,
  })),
  boards: [board('A'), board('B')],
  clocks: { remaining_ms: [300_000, 300_000, 300_000, 300_000], running: ['WhiteA', 'WhiteB'] },
  moves: [],
  result: null,
  draw_offers: [],
  talk: ['need', 'text'],
  settings: [{ field: 'match_ends_with_first_game', value: 'true' }],
  seq: 5,
  talk_log: [],
  rated: false,
  allow_bots: true,
  ...over,
});

const move = (ply: number, seat: SeatName, uci: string, san: string): MoveInfo => ({
  ply,
  seat,
  uci,
  san,
  number: 1,
  clock_ms: 299_000,
  lag_ms: 0,
});

const moved = (seq: number, mv: MoveInfo, fenA = AFTER_E4): Msg<'moved'> => ({
  type: 'moved',
  mv,
  board: board('A', fenA, { last_move: mv.uci }),
  other: board('B'),
  clocks: { remaining_ms: [299_000, 300_000, 300_000, 300_000], running: ['BlackA', 'WhiteB'] },
  seq,
});

const talk = (n: number, from: SeatName, text: string): Msg<'talk'> => ({ type: 'talk', n, from, kind: 'text', text, at_ms: n });

describe('numbered events', () => {
  it('applies the next number, drops those already in the state, and on a gap waits for a whole state', () => {
    const m = new MatchModel();
    m.applyState(matchState(), 'WhiteA', 0);
    expect(m.takeSeq(5)).toBe('skip');
    expect(m.takeSeq(3)).toBe('skip');
    expect(m.takeSeq(6)).toBe('apply');
    expect(m.lastSeq).toBe(6);
    expect(m.takeSeq(8)).toBe('gap');
    expect(m.resyncing).toBe(true);
    // Until the state comes, even the next number is dropped.
    expect(m.takeSeq(7)).toBe('skip');
    m.applyState(matchState({ seq: 9 }), 'WhiteA', 0);
    expect(m.resyncing).toBe(false);
    expect(m.takeSeq(10)).toBe('apply');
  });

  it('drops events before any state', () => {
    const m = new MatchModel();
    expect(m.applyMoved(moved(1, move(0, 'WhiteA', 'e2e4', 'e4')), 0)).toBe('skip');
    expect(m.applyDrawOffers({ type: 'draw_offers', seats: ['WhiteA'], seq: 1 })).toBe('skip');
    expect(m.lastSeq).toBe(0);
  });
});

describe('a whole state', () => {
  it('says whether it is the first of the connection, and whether the player stood up', () => {
    const m = new MatchModel();
    expect(m.applyState(matchState(), 'WhiteA', 10)).toEqual({ fresh: true, stoodUp: false });
    expect(m.applyState(matchState(), 'WhiteA', 20)).toEqual({ fresh: false, stoodUp: false });
    expect(m.clocksAt).toBe(20);
    m.standing = true;
    expect(m.applyState(matchState(), null, 30)).toEqual({ fresh: false, stoodUp: true });
    expect(m.standing).toBe(false);
    expect(m.you).toBeNull();
    m.freshConnection = true;
    expect(m.applyState(matchState(), 'BlackA', 40).fresh).toBe(true);
  });

  it('rebuilds the talk from the team log and knows the current position', () => {
    const m = new MatchModel();
    m.addTalk(talk(9, 'WhiteB', 'stale'));
    const log: TalkEntry[] = [
      { n: 2, from: 'WhiteB', kind: 'need', piece: 'N', at_ms: 2 },
      { n: 1, from: 'WhiteA', kind: 'text', text: 'hi', at_ms: 1 },
    ];
    const moves = [move(0, 'WhiteA', 'e2e4', 'e4')];
    m.applyState(matchState({ talk_log: log, moves, boards: [board('A', AFTER_E4), board('B')] }), 'WhiteA', 0);
    expect(m.talkEntries().map(e => e.n)).toEqual([1, 2]);
    expect(m.positions.get(1)).toEqual([AFTER_E4, START]);
    expect(m.positions.has(0)).toBe(false);
  });
});

describe('moves', () => {
  it('updates both boards, the record, the clocks and the positions; a waiting match starts', () => {
    const m = new MatchModel();
    m.applyState(matchState({ status: 'waiting' }), 'WhiteA', 0);
    m.dropRole = 'knight';
    const mv = move(0, 'WhiteA', 'e2e4', 'e4');
    expect(m.applyMoved(moved(6, mv), 50)).toBe('apply');
    const st = m.state!;
    expect(st.status).toBe('playing');
    expect(st.moves).toEqual([mv]);
    expect(st.boards[0].fen).toBe(AFTER_E4);
    expect(st.boards[0].last_move).toBe('e2e4');
    expect(st.clocks.running).toEqual(['BlackA', 'WhiteB']);
    expect(m.clocksAt).toBe(50);
    expect(m.positions.get(1)).toEqual([AFTER_E4, START]);
    // The player's own move clears the piece he had picked to drop.
    expect(m.dropRole).toBeNull();
  });

  it("keeps another seat's move from clearing the picked piece, and never records a move twice", () => {
    const m = new MatchModel();
    m.applyState(matchState({ moves: [move(0, 'WhiteA', 'e2e4', 'e4')] }), 'WhiteB', 0);
    m.dropRole = 'pawn';
    // Its number is new but its move is in the record already (ply 0).
    expect(m.applyMoved(moved(6, move(0, 'WhiteA', 'e2e4', 'e4')), 1)).toBe('apply');
    expect(m.state!.moves).toHaveLength(1);
    expect(m.dropRole).toBe('pawn');
    // A repeated event changes nothing.
    expect(m.applyMoved(moved(6, move(1, 'BlackA', 'e7e5', 'e5')), 2)).toBe('skip');
    expect(m.state!.moves).toHaveLength(1);
    expect(m.clocksAt).toBe(1);
  });
});

describe('the end', () => {
  const result = (boards: [string, string]): Msg<'ended'> => ({
    type: 'ended',
    result: { result: '1-0', boards, reason: 'checkmate on board A' },
    clocks: { remaining_ms: [1, 2, 3, 4], running: [] },
    seq: 6,
  });

  it('finishes the match and clears the draw offers', () => {
    const m = new MatchModel();
    m.applyState(matchState({ draw_offers: ['BlackA'] }), 'WhiteA', 0);
    m.dropRole = 'queen';
    expect(m.applyEnded(result(['1-0', '*']), 7)).toBe('apply');
    expect(m.state!.status).toBe('finished');
    expect(m.state!.draw_offers).toEqual([]);
    expect(m.state!.clocks.remaining_ms).toEqual([1, 2, 3, 4]);
    expect(m.dropRole).toBeNull();
  });

  it('when both games are played out, the end of one game lets the other go on', () => {
    const m = new MatchModel();
    const settings = [{ field: 'match_ends_with_first_game', value: 'false' }];
    m.applyState(matchState({ settings, draw_offers: ['BlackA'] }), 'WhiteB', 0);
    expect(m.applyEnded(result(['1-0', '*']), 7)).toBe('apply');
    expect(m.state!.status).toBe('playing');
    expect(m.state!.result?.boards).toEqual(['1-0', '*']);
    expect(m.state!.draw_offers).toEqual(['BlackA']);
    expect(m.applyEnded({ ...result(['1-0', '0-1']), seq: 7 }, 8)).toBe('apply');
    expect(m.state!.status).toBe('finished');
  });

  it('takes draw offers by their number', () => {
    const m = new MatchModel();
    m.applyState(matchState(), 'WhiteA', 0);
    expect(m.applyDrawOffers({ type: 'draw_offers', seats: ['BlackA'], seq: 6 })).toBe('apply');
    expect(m.state!.draw_offers).toEqual(['BlackA']);
    expect(m.applyDrawOffers({ type: 'draw_offers', seats: [], seq: 6 })).toBe('skip');
    expect(m.state!.draw_offers).toEqual(['BlackA']);
  });
});

describe('talk and names', () => {
  it('shows each message once, in order, the last 50', () => {
    const m = new MatchModel();
    expect(m.addTalk(talk(1, 'WhiteA', 'a'))).toBe(true);
    expect(m.addTalk(talk(1, 'WhiteA', 'a'))).toBe(false);
    for (let n = 60; n >= 2; n--) m.addTalk(talk(n, 'WhiteB', `m${n}`));
    const shown = m.talkEntries();
    expect(shown).toHaveLength(50);
    expect(shown[0]!.n).toBe(11);
    expect(shown.at(-1)!.n).toBe(60);
    expect(shown[0]).not.toHaveProperty('type');
  });

  it('names a seat by its player, a bot, or the seat when free', () => {
    const m = new MatchModel();
    expect(m.seatName('WhiteA')).toBe('WhiteA');
    const st = matchState();
    st.seats[1]!.name = null;
    m.applyState(st, null, 0);
    expect(m.seatName('WhiteA')).toBe('p-WhiteA');
    expect(m.seatName('BlackB')).toBe('bot');
    expect(m.seatNames()).toBe('p-WhiteA|BlackA|p-WhiteB|bot');
  });
});

describe('replay', () => {
  const finished = (): MatchModel => {
    const m = new MatchModel();
    const moves = [move(0, 'WhiteA', 'e2e4', 'e4'), move(1, 'WhiteB', 'd2d4', 'd4'), move(2, 'BlackA', 'e7e5', 'e5')];
    m.applyState(matchState({ status: 'finished', moves }), 'WhiteA', 0);
    return m;
  };

  it('takes the fetched positions, leaving out entries that are no pair of FENs', () => {
    const m = finished();
    expect(m.positionsComplete()).toBe(false);
    expect(m.addPositions({ not: 'a list' })).toBe(false);
    expect(m.addPositions([['a0', 'b0'], ['a1', 'b1'], ['a2'], ['a3', 'b3'], ['a4', 'b4']])).toBe(true);
    expect(m.positions.get(1)).toEqual(['a1', 'b1']);
    expect(m.positions.has(2)).toBe(false);
    // Positions past the record are kept but not stepped to.
    expect(m.knownPlies()).toEqual([0, 1, 3]);
    m.addPositions([null, null, ['a2', 'b2']]);
    expect(m.positionsComplete()).toBe(true);
  });

  it('steps through the known positions and back to the live one', () => {
    const m = finished();
    m.addPositions([['a0', 'b0'], ['a1', 'b1'], ['a2', 'b2']]);
    expect(m.stepTarget('next')).toBeUndefined();
    expect(m.stepTarget('prev')).toBe(2);
    expect(m.stepTarget('first')).toBe(0);
    expect(m.stepTarget('last')).toBe(3);
    m.dropRole = 'rook';
    m.goto(1);
    expect(m.replay).toBe(1);
    expect(m.dropRole).toBeNull();
    expect(m.stepTarget('prev')).toBe(0);
    expect(m.stepTarget('next')).toBe(2);
    m.goto(-4);
    expect(m.replay).toBe(0);
    expect(m.stepTarget('prev')).toBeUndefined();
    // The last position is the live one.
    m.goto(3);
    expect(m.replay).toBeNull();
    m.goto(1);
    m.goto(null);
    expect(m.replay).toBeNull();
  });
});

describe('boardInput', () => {
  it("gives the player his board to move on, not while his move waits for the server", () => {
    const m = new MatchModel();
    m.applyState(matchState({ boards: [board('A', START, { legal: ['e2e4', 'g1f3', 'P@e4'] }), board('B')] }), 'WhiteA', 0);
    const a = boardInput(m, 'A', 'white', false);
    expect(a.myColor).toBe('white');
    expect(a.myTurn).toBe(true);
    expect(a.dests).toEqual(
      new Map([
        ['e2', ['e4']],
        ['g1', ['f3']],
      ]),
    );
    expect(a.players.bottom).toMatchObject({ seat: 'WhiteA', name: 'p-WhiteA', you: true, toMove: true, connected: true });
    expect(a.players.top).toMatchObject({ seat: 'BlackA', you: false, toMove: false });
    expect(boardInput(m, 'A', 'white', true).myTurn).toBe(false);
    // The partner's board: no colour of his, the server's free moves when it sent no list.
    const b = boardInput(m, 'B', 'black', false);
    expect(b.myColor).toBeUndefined();
    expect(b.myTurn).toBe(false);
    expect(b.dests).toBe('free');
    expect(b.players.bottom).toMatchObject({ seat: 'BlackB', name: 'bot', bot: true });
  });

  it('marks the drops of the picked reserve piece on his move, and the piece only on his board', () => {
    const m = new MatchModel();
    m.applyState(matchState({ boards: [board('A', START, { legal: ['P@e4', 'P@d4', 'N@f3'] }), board('B')] }), 'WhiteA', 0);
    m.dropRole = 'pawn';
    const a = boardInput(m, 'A', 'white', false);
    expect(a.dropSquares.sort()).toEqual(['d4', 'e4']);
    expect(a.selectedRole).toBe('pawn');
    expect(boardInput(m, 'B', 'black', false).selectedRole).toBeNull();
    m.dropRole = null;
    m.dragRole = 'knight';
    expect(boardInput(m, 'A', 'white', false).dropSquares).toEqual(['f3']);
  });

  it('labels a board by its verdict and its result', () => {
    const m = new MatchModel();
    const st = matchState({ boards: [board('A', START, { verdict: 'checkmate' }), board('B', START, { verdict: 'waiting' })] });
    m.applyState(st, 'WhiteA', 0);
    expect(boardInput(m, 'A', 'white', false).label).toBe('checkmate');
    expect(boardInput(m, 'A', 'white', false).myColor).toBeUndefined();
    expect(boardInput(m, 'B', 'white', false).label).toBe('white waits for a piece');
    st.result = { result: '0-1', boards: ['0-1', '*'], reason: 'mate' };
    expect(boardInput(m, 'A', 'white', false).label).toBe('board A: 0-1 (checkmate)');
    expect(boardInput(m, 'A', 'white', false).players.bottom.toMove).toBe(false);
    st.status = 'waiting';
    expect(boardInput(m, 'B', 'white', false).label).toBe('');
  });

  it('shows a replayed position with its last move, and nothing to play', () => {
    const m = new MatchModel();
    const moves = [move(0, 'WhiteA', 'e2e4', 'e4'), move(1, 'WhiteB', 'd2d4', 'd4+')];
    m.applyState(matchState({ status: 'finished', moves, boards: [board('A', START, { legal: ['a2a3'] }), board('B')] }), 'WhiteA', 0);
    m.addPositions([[START, START], [AFTER_E4, START], [AFTER_E4, 'b-after-d4']]);
    m.goto(1);
    const a = boardInput(m, 'A', 'white', false);
    expect(a.fen).toBe(AFTER_E4);
    expect(a.lastMove).toEqual(['e2', 'e4']);
    expect(a.check).toBe(false);
    expect(a.dests).toBe('free');
    expect(a.myColor).toBeUndefined();
    // Board B had no move yet after one ply.
    expect(boardInput(m, 'B', 'white', false).lastMove).toBeUndefined();
    m.goto(0);
    expect(boardInput(m, 'A', 'white', false).fen).toBe(START);
    expect(boardInput(m, 'A', 'white', false).lastMove).toBeUndefined();
  });
});
