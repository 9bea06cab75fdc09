import { describe, expect, it } from 'vitest';
import { gamesLabel, resultLabel, secretKey, seatLink, tournamentRoute, validTimeControl, type PairingView } from '../src/tournamentTypes';

const pairing = (result: PairingView['result']): PairingView => ({
  table: 1,
  home: 0,
  away: 1,
  home_name: 'A',
  away_name: 'B',
  seats: [],
  colours: '',
  result,
  home_points: null,
  away_points: null,
  match_id: null,
});

describe('tournament pages', () => {
  it('routes /t/...', () => {
    expect(tournamentRoute('/t/new')).toEqual({ page: 'new' });
    expect(tournamentRoute('/t/abc')).toEqual({ page: 'public', id: 'abc' });
    expect(tournamentRoute('/t/abc/')).toEqual({ page: 'public', id: 'abc' });
    expect(tournamentRoute('/t/abc/admin')).toEqual({ page: 'admin', id: 'abc' });
    expect(tournamentRoute('/t/a%20b/print')).toEqual({ page: 'print', id: 'a b' });
    expect(tournamentRoute('/t/abc/other')).toBeNull();
    expect(tournamentRoute('/m/abc')).toBeNull();
    expect(tournamentRoute('/t/')).toBeNull();
  });

  it('links seats with the player name', () => {
    expect(seatLink('m1', 'Ann Lee')).toBe('/m/m1?name=Ann%20Lee');
    expect(secretKey('x')).toBe('bughouse.tournament.x');
  });

  it('shows results', () => {
    expect(resultLabel(pairing(null))).toBe('');
    const r = pairing({ board_a: '1/2-1/2', board_b: '*', match: '1/2-1/2', text: '' });
    expect(resultLabel(r)).toBe('½-½');
    expect(gamesLabel(r)).toBe('A ½ · B *');
    expect(gamesLabel(pairing({ board_a: null, board_b: null, match: '+-', text: '' }))).toBe('');
  });

  it('checks time controls', () => {
    expect(validTimeControl('3+2')).toBe(true);
    expect(validTimeControl(' 1.5+0 ')).toBe(true);
    expect(validTimeControl('fast')).toBe(false);
  });
});
