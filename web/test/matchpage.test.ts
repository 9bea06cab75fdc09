import { describe, expect, it } from 'vitest';
import { botLevelFor, botLevelLabel, claimsNow, cleanName, lowTimeMs, moveLabel, moveRows, seatParam } from '../src/helpers';
import type { MoveInfo, SeatName } from '../src/protocol';

const mv = (ply: number, seat: SeatName, number: number, san: string): MoveInfo => ({
  ply,
  seat,
  uci: '',
  san,
  number,
  clock_ms: 0,
  lag_ms: 0,
});

describe('moveRows', () => {
  it('keeps each board apart, a line per move number', () => {
    const moves = [
      mv(0, 'WhiteA', 1, 'e4'),
      mv(1, 'WhiteB', 1, 'd4'),
      mv(2, 'BlackA', 1, 'e5'),
      mv(3, 'WhiteA', 2, 'Nf3'),
      mv(4, 'BlackB', 1, 'd5'),
      mv(5, 'WhiteB', 2, 'c4'),
    ];
    const a = moveRows(moves, 'A');
    expect(a.map(r => [r.number, r.white?.san, r.black?.san])).toEqual([
      [1, 'e4', 'e5'],
      [2, 'Nf3', undefined],
    ]);
    const b = moveRows(moves, 'B');
    expect(b.map(r => [r.number, r.white?.san, r.black?.san])).toEqual([
      [1, 'd4', 'd5'],
      [2, 'c4', undefined],
    ]);
    expect(moveLabel(b[0]!.black!)).toBe('1b. d5');
    expect(moveRows([], 'A')).toEqual([]);
  });
});

describe('claimsNow', () => {
  const onWhite = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1';
  it('offers a repetition only on move, the move count to either player', () => {
    expect(claimsNow({ fen: onWhite, claims: ['repetition'] }, 'WhiteA')).toEqual(['repetition']);
    expect(claimsNow({ fen: onWhite, claims: ['repetition'] }, 'BlackA')).toEqual([]);
    expect(claimsNow({ fen: onWhite, claims: ['move-count'] }, 'BlackA')).toEqual(['move-count']);
    expect(claimsNow({ fen: onWhite }, 'WhiteA')).toEqual([]);
  });
});

describe('lowTimeMs', () => {
  it('is a tenth of the base, between 3 s and 10 s', () => {
    expect(lowTimeMs(300_000)).toBe(10_000);
    expect(lowTimeMs(60_000)).toBe(6_000);
    expect(lowTimeMs(12_000)).toBe(3_000);
    expect(lowTimeMs(0)).toBe(3_000);
  });
});

describe('names and links', () => {
  it('takes a name as the server does', () => {
    expect(cleanName('  Ann ')).toBe('Ann');
    expect(cleanName('')).toBeNull();
    expect(cleanName('   ')).toBeNull();
    expect(cleanName(null)).toBeNull();
    expect(cleanName('x'.repeat(32))).toBe('x'.repeat(32));
    expect(cleanName('x'.repeat(33))).toBeNull();
    expect(cleanName('a\u0007b')).toBeNull();
    expect(cleanName('Zoë 😀')).toBe('Zoë 😀');
  });

  it('reads the seat a lobby link asks for', () => {
    expect(seatParam('?sit=BlackB')).toBe('BlackB');
    expect(seatParam('?name=Ann&sit=WhiteA')).toBe('WhiteA');
    expect(seatParam('?sit=Nowhere')).toBeNull();
    expect(seatParam('')).toBeNull();
  });
});

describe('botLevelLabel', () => {
  it('shows each level with its published Elo, the strongest marked', () => {
    expect(botLevelLabel(1)).toBe('1 · Elo 800');
    expect(botLevelLabel(3)).toBe('3 · Elo 1417');
    expect(botLevelLabel(8)).toBe('8 · Elo 2357 (strongest)');
    expect(botLevelLabel(9)).toBe('9');
  });
});

describe('botLevelFor', () => {
  it('picks a middling bot without a rating, else one near the rating', () => {
    expect(botLevelFor(null)).toBe(4);
    expect(botLevelFor(undefined)).toBe(4);
    // The published ratings: 800, 1145, 1417, 1756, 1928, 2357, 2357, 2357.
    expect(botLevelFor(1500)).toBe(3);
    expect(botLevelFor(1700)).toBe(4);
    expect(botLevelFor(600)).toBe(1);
    expect(botLevelFor(2600)).toBe(8);
    expect(botLevelFor(2320)).toBe(8); // 6 to 8 share a rating: the stronger
    expect(botLevelFor(Number.NaN)).toBe(4);
  });
});
