// The wire protocol. The types are generated from crates/protocol/src/lib.rs (the single
// definition) into ./generated/protocol.ts: change them there, then run
// `cargo run -p bughouse-protocol --example gen-ts`. Here only what the front end adds: names it
// uses for them, and constants.

import type { ClientMessage, SeatName, Status } from './generated/protocol';

export type * from './generated/protocol';

/** Where a match is in its life (the protocol's `Status`). */
export type MatchStatus = Status;

/** The seats in protocol order. */
export const SEATS: readonly SeatName[] = ['WhiteA', 'BlackA', 'WhiteB', 'BlackB'];

/** The messages that act (all but `hello` and `ping`): the ones the server acknowledges. */
export type ActionMessage = Exclude<ClientMessage, { type: 'hello' } | { type: 'ping' }>;

/** Limits from the protocol. */
export const MAX_CHAT = 300;
export const MAX_NAME = 32;
/** Bot strength: 1 (weakest) to 8 (full strength). */
export const BOT_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

export const PRESETS: readonly { id: string; description: string }[] = [
  {
    id: 'fide',
    description:
      'Bughouse extension to the FIDE Laws: drops may mate, dropped rooks castle, mate only if no drop could ever block',
  },
  {
    id: 'minerva-2014',
    description:
      'JSV Minerva reglement 2014: FIDE base mate and stalemate, flag fall drawn if the opponent could never mate',
  },
  {
    id: 'knsb-1988',
    description: 'KNSB reglement 1988: no checking drops, 30-move rule, both games played out and scored apart',
  },
  {
    id: 'uscf-scholastic-2006',
    description:
      'US National Scholastic rules 2006: players wait for blocking pieces, the first win ends the match',
  },
];

export type * from './generated/lobby';
