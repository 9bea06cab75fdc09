// Pure helpers: no DOM, no chessground state, so they can be unit tested.

import type { BoardName, MoveInfo, RuleSetting, SeatName, TalkKind } from './protocol';

export type Color = 'white' | 'black';
export type Role = 'pawn' | 'knight' | 'bishop' | 'rook' | 'queen' | 'king';
/** The roles a reserve can hold, in the order pockets show them. */
export type PocketRole = 'pawn' | 'knight' | 'bishop' | 'rook' | 'queen';
export const POCKET_ROLES: readonly PocketRole[] = ['pawn', 'knight', 'bishop', 'rook', 'queen'];
export type Pocket = Record<PocketRole, number>;

const ROLE_OF_LETTER: Record<string, Role> = {
  p: 'pawn',
  n: 'knight',
  b: 'bishop',
  r: 'rook',
  q: 'queen',
  k: 'king',
};

export function roleOfLetter(letter: string): Role | undefined {
  return ROLE_OF_LETTER[letter.toLowerCase()];
}

export function letterOfRole(role: Role): string {
  return role === 'knight' ? 'n' : role[0]!;
}

export function emptyPocket(): Pocket {
  return { pawn: 0, knight: 0, bishop: 0, rook: 0, queen: 0 };
}

export interface ParsedFen {
  /** The piece placement for chessground: no reserves, no `~`. */
  board: string;
  /** The reserves of each side. */
  pockets: Record<Color, Pocket>;
  /** The side to move. */
  turn: Color;
  /** The squares holding promoted pieces (marked `~`). */
  promoted: string[];
}

const FILES = 'abcdefgh';

/**
 * Parses a FEN with bracketed reserves (`…/RNBQKBNR[Qn] w KQkq - 0 1`) and `~` after promoted
 * pieces. A reserve written as a ninth rank (`…/RNBQKBNR/Qn w …`) is accepted too.
 */
export function parseFen(fen: string): ParsedFen {
  const fields = fen.trim().split(/\s+/);
  let placement = fields[0] ?? '';
  let reserve = '';
  const open = placement.indexOf('[');
  if (open >= 0) {
    const close = placement.indexOf(']', open);
    reserve = placement.slice(open + 1, close < 0 ? undefined : close);
    placement = placement.slice(0, open);
  } else {
    const ranks = placement.split('/');
    if (ranks.length === 9) {
      reserve = ranks.pop()!;
      placement = ranks.join('/');
    }
  }
  const pockets: Record<Color, Pocket> = { white: emptyPocket(), black: emptyPocket() };
  for (const c of reserve) {
    const role = roleOfLetter(c);
    if (!role || role === 'king') continue;
    pockets[c === c.toUpperCase() ? 'white' : 'black'][role] += 1;
  }
  const promoted: string[] = [];
  placement.split('/').forEach((rank, row) => {
    let file = 0;
    for (const c of rank) {
      if (c === '~') {
        if (file > 0) promoted.push(`${FILES[file - 1]}${8 - row}`);
      } else if (c >= '0' && c <= '9') {
        file += Number(c);
      } else {
        file += 1;
      }
    }
  });
  return {
    board: placement.replace(/~/g, ''),
    pockets,
    turn: fields[1] === 'b' ? 'black' : 'white',
    promoted,
  };
}

export interface SimplePiece {
  role: Role;
  color: Color;
}

/** The pieces of a FEN placement by square (`e4`). */
export function pieceMap(fen: string): Map<string, SimplePiece> {
  const board = parseFen(fen).board;
  const map = new Map<string, SimplePiece>();
  board.split('/').forEach((rank, row) => {
    let file = 0;
    for (const c of rank) {
      if (c >= '0' && c <= '9') file += Number(c);
      else {
        const role = roleOfLetter(c);
        if (role && file < 8) {
          map.set(`${FILES[file]}${8 - row}`, { role, color: c === c.toUpperCase() ? 'white' : 'black' });
        }
        file += 1;
      }
    }
  });
  return map;
}

export function isDrop(uci: string): boolean {
  return uci.length >= 4 && uci[1] === '@';
}

export function dropUci(role: Role, square: string): string {
  return `${letterOfRole(role).toUpperCase()}@${square}`;
}

/** For a castling king move `e1g1`, the square of the rook it castles with (`h1`). */
function castlingRookSquare(uci: string, pieces?: Map<string, SimplePiece>): string | undefined {
  if (!pieces || isDrop(uci)) return undefined;
  const orig = uci.slice(0, 2);
  const dest = uci.slice(2, 4);
  const king = pieces.get(orig);
  if (!king || king.role !== 'king' || orig[1] !== dest[1] || orig[0] !== 'e') return undefined;
  const rookFile = dest[0] === 'g' ? 'h' : dest[0] === 'c' ? 'a' : undefined;
  if (!rookFile) return undefined;
  const rookSquare = `${rookFile}${orig[1]}`;
  const rook = pieces.get(rookSquare);
  return rook && rook.role === 'rook' && rook.color === king.color ? rookSquare : undefined;
}

/**
 * The board moves of a UCI list as chessground `dests` (origin square to its destinations).
 * Drops are left out. With the pieces, a castling king move also gets the rook's square as a
 * destination (moving the king onto its rook castles, as on lichess).
 */
export function uciToDests(legal: readonly string[], pieces?: Map<string, SimplePiece>): Map<string, string[]> {
  const dests = new Map<string, string[]>();
  const add = (orig: string, dest: string): void => {
    const list = dests.get(orig);
    if (!list) dests.set(orig, [dest]);
    else if (!list.includes(dest)) list.push(dest);
  };
  for (const uci of legal) {
    if (isDrop(uci) || uci.length < 4) continue;
    const orig = uci.slice(0, 2);
    add(orig, uci.slice(2, 4));
    const rook = castlingRookSquare(uci, pieces);
    if (rook) add(orig, rook);
  }
  return dests;
}

/**
 * The legal UCI moves that a chessground move `orig`→`dest` stands for: one, several for a
 * promotion (`e7e8q`, `e7e8r`, …), the castling move when the king was put on its rook, or none.
 */
export function ucisFor(
  legal: readonly string[],
  orig: string,
  dest: string,
  pieces?: Map<string, SimplePiece>,
): string[] {
  return legal.filter(uci => {
    if (isDrop(uci) || uci.slice(0, 2) !== orig) return false;
    return uci.slice(2, 4) === dest || castlingRookSquare(uci, pieces) === dest;
  });
}

/** The squares where `role` may be dropped, from a UCI list (`N@f3`). */
export function dropSquares(legal: readonly string[], role: Role): string[] {
  const letter = letterOfRole(role).toUpperCase();
  return legal.filter(uci => isDrop(uci) && uci[0]!.toUpperCase() === letter).map(uci => uci.slice(2, 4));
}

/** The promotion roles among UCI moves (`e7e8q` → queen), in the order Q, R, B, N. */
export function promotionRoles(ucis: readonly string[]): Role[] {
  const order: Role[] = ['queen', 'rook', 'bishop', 'knight'];
  const found = new Set(ucis.filter(u => u.length === 5).map(u => roleOfLetter(u[4]!)));
  return order.filter(r => found.has(r));
}

/** Whether a pawn move from `orig` to `dest` reaches the last rank. */
export function isPromotion(piece: SimplePiece | undefined, dest: string): boolean {
  return !!piece && piece.role === 'pawn' && (dest[1] === '8' || dest[1] === '1');
}

/** The squares to highlight for a last move: `[orig, dest]`, or `[dest]` for a drop. */
export function lastMoveKeys(uci: string | null | undefined): string[] | undefined {
  if (!uci || uci.length < 4) return undefined;
  if (isDrop(uci)) return [uci.slice(2, 4)];
  return [uci.slice(0, 2), uci.slice(2, 4)];
}

// Seats and teams.

export function seatColor(seat: SeatName): Color {
  return seat.startsWith('White') ? 'white' : 'black';
}

export function seatBoard(seat: SeatName): BoardName {
  return seat.endsWith('A') ? 'A' : 'B';
}

export function seatOf(board: BoardName, color: Color): SeatName {
  return `${color === 'white' ? 'White' : 'Black'}${board}` as SeatName;
}

export function seatIndex(seat: SeatName): number {
  return ['WhiteA', 'BlackA', 'WhiteB', 'BlackB'].indexOf(seat);
}

/** Partners: WhiteA + BlackB, BlackA + WhiteB. */
export function partnerOf(seat: SeatName): SeatName {
  const map: Record<SeatName, SeatName> = { WhiteA: 'BlackB', BlackB: 'WhiteA', BlackA: 'WhiteB', WhiteB: 'BlackA' };
  return map[seat];
}

export function otherBoard(board: BoardName): BoardName {
  return board === 'A' ? 'B' : 'A';
}

export function opposite(color: Color): Color {
  return color === 'white' ? 'black' : 'white';
}

export interface Layout {
  /** The large board and the colour at its bottom. */
  main: BoardName;
  mainOrientation: Color;
  /** The small board beside it. */
  side: BoardName;
  sideOrientation: Color;
}

/**
 * Which board is large and how each is turned. A player sees his own board large with his
 * colour at the bottom and his partner's board beside it with the partner's colour at the
 * bottom. A spectator sees board A large with White at the bottom (and board B as WhiteA's
 * partner would). `flipped` turns the view to the other team's.
 */
export function layoutFor(you: SeatName | null, flipped = false): Layout {
  let seat: SeatName = you ?? 'WhiteA';
  if (flipped) seat = seatOf(seatBoard(seat), opposite(seatColor(seat)));
  const color = seatColor(seat);
  const main = seatBoard(seat);
  return { main, mainOrientation: color, side: otherBoard(main), sideOrientation: opposite(color) };
}

// The record.

/** A move as BPGN writes it: `1A. e4`, `1a. e5`, `1B. d4` (board letter lower case for Black). */
export function moveLabel(mv: Pick<MoveInfo, 'seat' | 'number' | 'san'>): string {
  const board = seatBoard(mv.seat);
  const letter = seatColor(mv.seat) === 'white' ? board : board.toLowerCase();
  return `${mv.number}${letter}. ${mv.san}`;
}

/** A clock as shown: `4:59`, `1:02:03`, tenths under ten seconds (`0:09.8`), never negative. */
export function formatClock(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) {
    const tenths = Math.floor(t / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const secs = Math.floor(t / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const s = secs % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** `M+S` (minutes, seconds of increment; minutes may have a fraction): the base and increment in ms. */
export function parseTimeControl(tc: string): { baseMs: number; incrementMs: number } | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+)\s*$/.exec(tc);
  if (!m) return null;
  const baseMs = Math.round(Number(m[1]) * 60_000);
  const incrementMs = Number(m[2]) * 1000;
  if (baseMs <= 0 && incrementMs <= 0) return null;
  return { baseMs, incrementMs };
}

/**
 * The four clocks (seat order) after the first `plies` moves of a record, from the times the
 * record keeps (`clock_ms`, the mover's time after his move) and the starting time.
 */
export function clocksAfter(moves: readonly MoveInfo[], plies: number, startMs: number): number[] {
  const clocks = [startMs, startMs, startMs, startMs];
  for (const mv of moves.slice(0, plies)) {
    const i = seatIndex(mv.seat);
    if (i >= 0) clocks[i] = mv.clock_ms;
  }
  return clocks;
}

/** The time a running clock shows `elapsedMs` after the message that set it to `remainingMs`. */
export function liveRemaining(remainingMs: number, running: boolean, elapsedMs: number): number {
  return running ? Math.max(0, remainingMs - elapsedMs) : remainingMs;
}

/** Reconnection delay: 0.5 s, 1 s, 2 s, … up to 5 s, with a little jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(5000, 500 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.85 + 0.3 * random()));
}

export const TALK_PIECES = ['P', 'N', 'B', 'R', 'Q'] as const;

const PIECE_NAMES: Record<string, string> = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen' };

/** A talk message in words: `need: knight`, `don't give: queen`, `sit!`, the text itself. */
export function talkText(kind: TalkKind, piece?: string | null, text?: string | null): string {
  const p = piece ? (PIECE_NAMES[piece.toUpperCase()] ?? piece) : '';
  switch (kind) {
    case 'need':
      return p ? `I need a ${p}` : 'I need a piece';
    case 'dont_give':
      return p ? `Don't give a ${p}` : "Don't give anything";
    case 'sit':
      return 'Sit! (stop moving)';
    case 'go':
      return 'Go! (move on)';
    case 'flag':
      return 'Your opponent is out of time: flag!';
    case 'text':
      return text ?? '';
  }
}

/** The match result in words, from the protocol's `1-0` (WhiteA + BlackB won). */
export function resultText(result: string): string {
  if (result === '1-0') return 'WhiteA and BlackB win';
  if (result === '0-1') return 'BlackA and WhiteB win';
  if (result === '1/2-1/2') return 'Draw';
  return result;
}

/** What a match result means for one player: `You win`, `You lose`, `Draw`, or null. */
export function outcomeFor(result: string, seat: SeatName): string | null {
  const firstTeam = seat === 'WhiteA' || seat === 'BlackB';
  if (result === '1/2-1/2') return 'Draw';
  if (result === '1-0') return firstTeam ? 'You win' : 'You lose';
  if (result === '0-1') return firstTeam ? 'You lose' : 'You win';
  return null;
}

/** The draw claims worth offering under the match's rule set (the server decides in the end). */
export function drawClaims(settings: RuleSetting[]): ('repetition' | 'move-count')[] {
  // F4.1 repetition, K11F move count: offered where the rule set has the claim.
  const claims: ('repetition' | 'move-count')[] = [];
  const repetition = ruleSetting(settings, 'repetition_claim');
  const moveCount = ruleSetting(settings, 'move_count_claim');
  if (repetition !== undefined && repetition !== 'none') claims.push('repetition');
  if (moveCount !== undefined && moveCount !== 'none') claims.push('move-count');
  return claims;
}

/** The path of the match page, or null: `/m/{id}` → id. */
export function matchIdFromPath(path: string): string | null {
  const m = /^\/m\/([^/]+)\/?$/.exec(path);
  return m ? decodeURIComponent(m[1]!) : null;
}

/** The value of one field of a rule set. */
export function ruleSetting(settings: RuleSetting[] | undefined, field: string): string | undefined {
  return settings?.find(s => s.field === field)?.value;
}

/** Whether both games are played out (K11G) rather than the first game ending the match. */
export function bothGamesPlayedOut(settings: RuleSetting[]): boolean {
  return ruleSetting(settings, 'match_ends_with_first_game') === 'false';
}

// Match page polish and the lobby.

/**
 * The time under which a clock warns (red, and a short sound for one's own): 10 % of the base
 * time, at least 3 s and at most 10 s.
 */
export function lowTimeMs(baseMs: number): number {
  return Math.min(10_000, Math.max(3_000, baseMs / 10));
}

/**
 * The draw claims `you` may make now on his board, from what the server says the board allows
 * (`BoardState.claims`): the move count by either player of the board, a repetition only on
 * move (F4.1).
 */
export function claimsNow(
  board: { fen: string; claims?: readonly ('repetition' | 'move-count')[] },
  you: SeatName,
): ('repetition' | 'move-count')[] {
  const onMove = parseFen(board.fen).turn === seatColor(you);
  return (board.claims ?? []).filter(c => c === 'move-count' || onMove);
}

/** One line of a board's record: the move number, White's move and Black's. */
export interface MoveRow {
  number: number;
  white?: MoveInfo;
  black?: MoveInfo;
}

/** The moves of one board of the record as lines of a score sheet (`1. e4 e5`). */
export function moveRows(moves: readonly MoveInfo[], board: BoardName): MoveRow[] {
  const rows: MoveRow[] = [];
  for (const mv of moves) {
    if (seatBoard(mv.seat) !== board) continue;
    const white = seatColor(mv.seat) === 'white';
    let row = rows.at(-1);
    // A new line for each White move, and for a Black move whose line is done.
    if (!row || row.number !== mv.number || (white && row.white) || (!white && row.black)) {
      row = { number: mv.number };
      rows.push(row);
    }
    if (white) row.white = mv;
    else row.black = mv;
  }
  return rows;
}

/** A player's name as the server takes it (trimmed, 1 to 32 printable characters), or null. */
export function cleanName(raw: string | null | undefined): string | null {
  const name = (raw ?? '').trim();
  if (!name || [...name].length > 32 || /\p{Cc}/u.test(name)) return null;
  return name;
}

/** The seat a lobby link asks the match page to take (`/m/{id}?sit=WhiteA`), or null. */
export function seatParam(search: string): SeatName | null {
  const seat = new URLSearchParams(search).get('sit');
  return seat === 'WhiteA' || seat === 'BlackA' || seat === 'WhiteB' || seat === 'BlackB' ? seat : null;
}

/** The bots' published ratings by level (1 to 8), as `PUBLISHED_RATINGS` in
 * crates/engine/src/level.rs states them (measured in the arena). */
export const BOT_RATINGS = [800, 1145, 1417, 1756, 1928, 2357, 2357, 2357] as const;

/** How the level picker shows a bot level: its number and its published Elo (measured in the
 * arena, docs/arena.md), the strongest marked: `3 · Elo 1417`, `8 · Elo 2357 (strongest)`. */
export function botLevelLabel(level: number): string {
  const rating = BOT_RATINGS[level - 1];
  const base = rating === undefined ? String(level) : `${level} · Elo ${rating}`;
  return level === BOT_RATINGS.length ? `${base} (strongest)` : base;
}

/**
 * The bot level to fill seats with for a player of `rating` (Glicko-2), 1 to 8: the level whose
 * published rating is nearest (the stronger on a tie); level 4 when the rating is unknown. The
 * match page uses it only when the lobby's level for the match cannot be had.
 */
export function botLevelFor(rating: number | null | undefined): number {
  if (rating === null || rating === undefined || !Number.isFinite(rating)) return 4;
  let best = 0;
  let bestDistance = Infinity;
  BOT_RATINGS.forEach((r, i) => {
    if (Math.abs(r - rating) <= bestDistance) {
      best = i;
      bestDistance = Math.abs(r - rating);
    }
  });
  return best + 1;
}

/** How long a seated player waits for others before the page offers to fill the seats with bots,
 * unless he chose another wait in the lobby ({@link BOT_WAIT_KEY}). */
export const BOT_OFFER_MS = 30_000;

/** Where the lobby keeps the player's chosen wait before bots are offered (milliseconds; 0 for
 * never). */
export const BOT_WAIT_KEY = 'bughouse.botWait';

/** The waits the lobby offers before bots: milliseconds (0: never) and how it reads. */
export const BOT_WAITS: [number, string][] = [
  [15_000, '15 s'],
  [30_000, '30 s'],
  [60_000, '1 min'],
  [120_000, '2 min'],
  [0, 'never'],
];

/** The wait before bots are offered, as the player chose it (`stored`, what {@link BOT_WAIT_KEY}
 * holds; 0: never), else {@link BOT_OFFER_MS}. */
export function botWaitMs(stored: string | null): number {
  const chosen = stored === null || stored.trim() === '' ? NaN : Number(stored);
  return BOT_WAITS.some(([ms]) => ms === chosen) ? chosen : BOT_OFFER_MS;
}

/** Where the player's name is kept in localStorage (the lobby and the match page share it). */
export const NAME_KEY = 'bughouse.name';

/** Where a seat's secret is kept in localStorage, by match (the match page says hello with it). */
export const tokenKey = (id: string): string => `bughouse.token.${id}`;
