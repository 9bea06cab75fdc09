// The tournament API's types, generated from crates/protocol/src/tournament.rs into
// ./generated/tournament.ts (`cargo run -p bughouse-protocol --example gen-ts`), and the pure
// helpers of the tournament pages, kept apart from the DOM so vitest can check them.

import type { GameResult, MatchResult, PairingView, PlayerView, TournamentFormat, TournamentView } from './generated/tournament';

export type * from './generated/tournament';

export const TOURNAMENT_PRESETS = ['minerva-2014', 'knsb-1988', 'fide', 'uscf-scholastic-2006'] as const;

export const FORMATS: readonly { id: TournamentFormat; label: string }[] = [
  { id: 'round-robin', label: 'Round robin' },
  { id: 'double-round-robin', label: 'Double round robin' },
  { id: 'swiss', label: 'Swiss' },
];

export const GAME_RESULTS: readonly GameResult[] = ['1-0', '0-1', '1/2-1/2', '*'];

/** The match results (home team first) and forfeits the organiser can enter for a match. */
export const MATCH_RESULTS: readonly { value: MatchResult; label: string }[] = [
  { value: '1-0', label: '1-0 (home wins)' },
  { value: '0-1', label: '0-1 (away wins)' },
  { value: '1/2-1/2', label: '½-½' },
  { value: '+-', label: '+- (away forfeits)' },
  { value: '-+', label: '-+ (home forfeits)' },
  { value: '--', label: '-- (both forfeit)' },
];

export type TournamentRoute =
  | { page: 'new' }
  | { page: 'public'; id: string }
  | { page: 'admin'; id: string }
  | { page: 'print'; id: string };

/** `/t/new`, `/t/{id}`, `/t/{id}/admin`, `/t/{id}/print`; null for anything else. */
export function tournamentRoute(path: string): TournamentRoute | null {
  if (/^\/t\/new\/?$/.test(path)) return { page: 'new' };
  const m = /^\/t\/([^/]+)(?:\/(admin|print))?\/?$/.exec(path);
  if (!m) return null;
  const id = decodeURIComponent(m[1]!);
  const page = m[2] === 'admin' ? 'admin' : m[2] === 'print' ? 'print' : 'public';
  return { page, id };
}

/** Where the organiser secret of a tournament is kept in localStorage. */
export function secretKey(id: string): string {
  return `bughouse.tournament.${id}`;
}

/** The match page, with the player's name filled in for "Sit here". */
export function seatLink(matchId: string, player: string): string {
  return `/m/${encodeURIComponent(matchId)}?name=${encodeURIComponent(player)}`;
}

/** The match result as shown: `1-0`, `½-½`, `+-`... or empty. */
export function resultLabel(p: PairingView): string {
  if (!p.result) return '';
  return p.result.match.replace('1/2-1/2', '½-½');
}

/** The games of a result: `A 1-0, B *`, or empty when entered as a match result. */
export function gamesLabel(p: PairingView): string {
  const r = p.result;
  if (!r || r.board_a === null || r.board_b === null) return '';
  const g = (s: string): string => s.replace('1/2-1/2', '½');
  return `A ${g(r.board_a)} · B ${g(r.board_b)}`;
}

/** "Round 3 of 5". */
export function roundsLabel(t: TournamentView): string {
  const paired = t.rounds.length;
  if (paired === 0) return `${t.total_rounds > 0 ? `${t.total_rounds} rounds` : 'no rounds yet'}`;
  return `round ${paired} of ${t.total_rounds}${t.finished ? ', finished' : ''}`;
}

/** The name of a player with a rating: `Ann (1900)`. */
export function playerLabel(p: PlayerView): string {
  return p.rating === null ? p.name : `${p.name} (${p.rating})`;
}

/** A time control `M+S` with M and S numbers. */
export function validTimeControl(tc: string): boolean {
  return /^\d+(\.\d+)?\+\d+$/.test(tc.trim());
}
