import { describe, expect, it } from 'vitest';
import {
  BOT_OFFER_MS,
  backoffMs,
  botWaitMs,
  clocksAfter,
  bothGamesPlayedOut,
  drawClaims,
  dropSquares,
  dropUci,
  formatClock,
  isPromotion,
  lastMoveKeys,
  layoutFor,
  liveRemaining,
  matchIdFromPath,
  moveLabel,
  outcomeFor,
  parseFen,
  parseTimeControl,
  partnerOf,
  pieceMap,
  promotionRoles,
  seatOf,
  ucisFor,
  uciToDests,
} from '../src/helpers';
import type { MoveInfo } from '../src/protocol';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1';

describe('parseFen', () => {
  it('strips the reserves and reads the side to move', () => {
    const p = parseFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qn] b KQkq - 0 1');
    expect(p.board).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
    expect(p.turn).toBe('black');
    expect(p.pockets.white).toEqual({ pawn: 0, knight: 0, bishop: 0, rook: 0, queen: 1 });
    expect(p.pockets.black).toEqual({ pawn: 0, knight: 1, bishop: 0, rook: 0, queen: 0 });
    expect(p.promoted).toEqual([]);
  });

  it('counts repeated reserve pieces and handles an empty reserve', () => {
    const p = parseFen('4k3/8/8/8/8/8/8/4K3[PPPnnq] w - - 0 1');
    expect(p.pockets.white.pawn).toBe(3);
    expect(p.pockets.black.knight).toBe(2);
    expect(p.pockets.black.queen).toBe(1);
    expect(parseFen(START).pockets.white.pawn).toBe(0);
  });

  it('strips ~ and remembers the promoted squares', () => {
    const p = parseFen('Q~3k3/8/8/8/8/8/8/4K2q~[] w - - 0 1');
    expect(p.board).toBe('Q3k3/8/8/8/8/8/8/4K2q');
    expect(p.promoted).toEqual(['a8', 'h1']);
  });

  it('accepts the reserve as a ninth rank', () => {
    const p = parseFen('4k3/8/8/8/8/8/8/4K3/Rb w - - 0 1');
    expect(p.board).toBe('4k3/8/8/8/8/8/8/4K3');
    expect(p.pockets.white.rook).toBe(1);
    expect(p.pockets.black.bishop).toBe(1);
  });
});

describe('pieceMap', () => {
  it('places the pieces', () => {
    const m = pieceMap(START);
    expect(m.get('e1')).toEqual({ role: 'king', color: 'white' });
    expect(m.get('d8')).toEqual({ role: 'queen', color: 'black' });
    expect(m.get('e4')).toBeUndefined();
    expect(m.size).toBe(32);
  });
});

describe('UCI to chessground dests', () => {
  it('groups board moves by origin and leaves drops out', () => {
    const d = uciToDests(['e2e4', 'e2e3', 'g1f3', 'N@f5', 'e7e8q', 'e7e8n']);
    expect(d.get('e2')).toEqual(['e4', 'e3']);
    expect(d.get('g1')).toEqual(['f3']);
    expect(d.get('e7')).toEqual(['e8']);
    expect([...d.keys()]).not.toContain('N@');
    expect(d.size).toBe(3);
  });

  it('adds the rook square for castling and maps it back', () => {
    const fen = 'r3k2r/8/8/8/8/8/8/R3K2R[] w KQkq - 0 1';
    const pieces = pieceMap(fen);
    const legal = ['e1g1', 'e1c1', 'e1f1'];
    const d = uciToDests(legal, pieces);
    expect(d.get('e1')).toEqual(['g1', 'h1', 'c1', 'a1', 'f1']);
    expect(ucisFor(legal, 'e1', 'h1', pieces)).toEqual(['e1g1']);
    expect(ucisFor(legal, 'e1', 'a1', pieces)).toEqual(['e1c1']);
    expect(ucisFor(legal, 'e1', 'f1', pieces)).toEqual(['e1f1']);
    expect(ucisFor(legal, 'e1', 'd1', pieces)).toEqual([]);
  });

  it('finds every promotion of a pawn move', () => {
    const legal = ['e7e8q', 'e7e8r', 'e7e8b', 'e7e8n', 'e7d8q'];
    const ucis = ucisFor(legal, 'e7', 'e8');
    expect(ucis).toHaveLength(4);
    expect(promotionRoles(ucis)).toEqual(['queen', 'rook', 'bishop', 'knight']);
    expect(promotionRoles(['a7a8n', 'a7a8q'])).toEqual(['queen', 'knight']);
    expect(isPromotion({ role: 'pawn', color: 'white' }, 'e8')).toBe(true);
    expect(isPromotion({ role: 'pawn', color: 'black' }, 'e1')).toBe(true);
    expect(isPromotion({ role: 'rook', color: 'white' }, 'e8')).toBe(false);
  });

  it('lists the drop squares of one role', () => {
    const legal = ['N@f3', 'N@e4', 'P@e4', 'e2e4', 'Q@h5'];
    expect(dropSquares(legal, 'knight')).toEqual(['f3', 'e4']);
    expect(dropSquares(legal, 'pawn')).toEqual(['e4']);
    expect(dropSquares(legal, 'rook')).toEqual([]);
    expect(dropUci('knight', 'f3')).toBe('N@f3');
    expect(dropUci('pawn', 'e4')).toBe('P@e4');
  });

  it('turns last moves into squares', () => {
    expect(lastMoveKeys('e2e4')).toEqual(['e2', 'e4']);
    expect(lastMoveKeys('e7e8q')).toEqual(['e7', 'e8']);
    expect(lastMoveKeys('N@f3')).toEqual(['f3']);
    expect(lastMoveKeys(null)).toBeUndefined();
  });
});

describe('BPGN move labels', () => {
  it('writes number, board letter (lower case for Black) and SAN', () => {
    expect(moveLabel({ seat: 'WhiteA', number: 1, san: 'e4' })).toBe('1A. e4');
    expect(moveLabel({ seat: 'BlackA', number: 1, san: 'e5' })).toBe('1a. e5');
    expect(moveLabel({ seat: 'WhiteB', number: 1, san: 'd4' })).toBe('1B. d4');
    expect(moveLabel({ seat: 'BlackB', number: 12, san: 'N@f2#' })).toBe('12b. N@f2#');
  });
});

describe('clocks', () => {
  it('formats minutes, hours and tenths under ten seconds', () => {
    expect(formatClock(300_000)).toBe('5:00');
    expect(formatClock(299_999)).toBe('4:59');
    expect(formatClock(61_000)).toBe('1:01');
    expect(formatClock(10_000)).toBe('0:10');
    expect(formatClock(9_999)).toBe('0:09.9');
    expect(formatClock(9_850)).toBe('0:09.8');
    expect(formatClock(450)).toBe('0:00.4');
    expect(formatClock(0)).toBe('0:00.0');
    expect(formatClock(-25)).toBe('0:00.0');
    expect(formatClock(3_723_000)).toBe('1:02:03');
  });

  it('counts running clocks down from the message', () => {
    expect(liveRemaining(5000, true, 1200)).toBe(3800);
    expect(liveRemaining(5000, false, 1200)).toBe(5000);
    expect(liveRemaining(500, true, 1200)).toBe(0);
  });

  it('parses time controls', () => {
    expect(parseTimeControl('5+0')).toEqual({ baseMs: 300_000, incrementMs: 0 });
    expect(parseTimeControl('2+12')).toEqual({ baseMs: 120_000, incrementMs: 12_000 });
    expect(parseTimeControl('0.5+1')).toEqual({ baseMs: 30_000, incrementMs: 1000 });
    expect(parseTimeControl('5')).toBeNull();
    expect(parseTimeControl('0+0')).toBeNull();
    expect(parseTimeControl('a+b')).toBeNull();
  });

  it('rebuilds the clocks of a record', () => {
    const mv = (seat: MoveInfo['seat'], clock_ms: number, ply: number): MoveInfo => ({
      ply,
      seat,
      uci: 'e2e4',
      san: 'e4',
      number: 1,
      clock_ms,
      lag_ms: 0,
    });
    const moves = [mv('WhiteA', 299_000, 0), mv('WhiteB', 298_000, 1), mv('BlackA', 297_000, 2)];
    expect(clocksAfter(moves, 0, 300_000)).toEqual([300_000, 300_000, 300_000, 300_000]);
    expect(clocksAfter(moves, 2, 300_000)).toEqual([299_000, 300_000, 298_000, 300_000]);
    expect(clocksAfter(moves, 3, 300_000)).toEqual([299_000, 297_000, 298_000, 300_000]);
  });
});

describe('seats and layout', () => {
  it('pairs partners', () => {
    expect(partnerOf('WhiteA')).toBe('BlackB');
    expect(partnerOf('BlackA')).toBe('WhiteB');
    expect(partnerOf('WhiteB')).toBe('BlackA');
    expect(seatOf('B', 'black')).toBe('BlackB');
  });

  it('turns the boards as the player sits', () => {
    expect(layoutFor(null)).toEqual({ main: 'A', mainOrientation: 'white', side: 'B', sideOrientation: 'black' });
    expect(layoutFor('WhiteA')).toEqual({ main: 'A', mainOrientation: 'white', side: 'B', sideOrientation: 'black' });
    expect(layoutFor('BlackB')).toEqual({ main: 'B', mainOrientation: 'black', side: 'A', sideOrientation: 'white' });
    expect(layoutFor('WhiteB')).toEqual({ main: 'B', mainOrientation: 'white', side: 'A', sideOrientation: 'black' });
    expect(layoutFor('BlackA')).toEqual({ main: 'A', mainOrientation: 'black', side: 'B', sideOrientation: 'white' });
    expect(layoutFor(null, true)).toEqual({ main: 'A', mainOrientation: 'black', side: 'B', sideOrientation: 'white' });
  });
});

describe('misc', () => {
  it('reads the wait before bots are offered as the player chose it', () => {
    expect(botWaitMs('15000')).toBe(15_000);
    expect(botWaitMs('0')).toBe(0); // never
    expect(botWaitMs(null)).toBe(BOT_OFFER_MS);
    expect(botWaitMs('')).toBe(BOT_OFFER_MS);
    expect(botWaitMs('12345')).toBe(BOT_OFFER_MS); // not one of the choices
    expect(botWaitMs('soon')).toBe(BOT_OFFER_MS);
  });

  it('routes match paths', () => {
    expect(matchIdFromPath('/m/abc123')).toBe('abc123');
    expect(matchIdFromPath('/m/abc123/')).toBe('abc123');
    expect(matchIdFromPath('/')).toBeNull();
    expect(matchIdFromPath('/m/')).toBeNull();
    expect(matchIdFromPath('/m/a/b')).toBeNull();
  });

  it('backs off up to five seconds', () => {
    const mid = () => 0.5;
    expect(backoffMs(0, mid)).toBe(500);
    expect(backoffMs(1, mid)).toBe(1000);
    expect(backoffMs(3, mid)).toBe(4000);
    expect(backoffMs(20, mid)).toBe(5000);
  });

  it('offers the claims of the rulebook', () => {
    // The presets' values, as `bughouse rules PRESET` prints them.
    const rules = (repetition: string, moveCount: string) => [
      { field: 'repetition_claim', value: repetition },
      { field: 'move_count_claim', value: moveCount },
    ];
    expect(drawClaims(rules('4', 'none'))).toEqual(['repetition']); // fide F4.1
    expect(drawClaims(rules('none', '30'))).toEqual(['move-count']); // knsb-1988 K11F
    expect(drawClaims(rules('none', 'none'))).toEqual([]); // minerva-2014
    expect(drawClaims([])).toEqual([]);
  });
});

describe('outcomeFor', () => {
  it('tells each player whether his team won', () => {
    expect(outcomeFor('1-0', 'WhiteA')).toBe('You win');
    expect(outcomeFor('1-0', 'BlackB')).toBe('You win');
    expect(outcomeFor('1-0', 'BlackA')).toBe('You lose');
    expect(outcomeFor('1-0', 'WhiteB')).toBe('You lose');
    expect(outcomeFor('0-1', 'WhiteB')).toBe('You win');
    expect(outcomeFor('0-1', 'WhiteA')).toBe('You lose');
    expect(outcomeFor('1/2-1/2', 'BlackA')).toBe('Draw');
    expect(outcomeFor('*', 'BlackA')).toBeNull();
  });
});

describe('rule settings', () => {
  const settings = (over: Record<string, string>) =>
    Object.entries({ repetition_claim: '3', move_count_claim: 'none', match_ends_with_first_game: 'true', ...over }).map(
      ([field, value]) => ({ field, value }),
    );
  it('offers the claims the settings allow', () => {
    expect(drawClaims(settings({}))).toEqual(['repetition']);
    expect(drawClaims(settings({ repetition_claim: 'none', move_count_claim: '30' }))).toEqual(['move-count']);
    expect(drawClaims(settings({ repetition_claim: 'none' }))).toEqual([]);
  });
  it('knows when both games are played out (K11G)', () => {
    expect(bothGamesPlayedOut(settings({ match_ends_with_first_game: 'false' }))).toBe(true);
    expect(bothGamesPlayedOut(settings({}))).toBe(false);
  });
});
