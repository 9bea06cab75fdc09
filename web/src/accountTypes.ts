// The JSON of the account, profile and leaderboard routes (crates/server/src/http/accounts.rs
// and players.rs; docs/protocol.md, "Accounts, profiles and the leaderboard"). Written here by
// hand until those types move into crates/protocol and are generated like the others.

import type { SeatName } from './protocol';

/** A rating as the API shows it. */
export interface RatingView {
  rating: number;
  deviation: number;
  volatility: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** The deviation is still above 230 (about the first nine rated matches). */
  provisional: boolean;
}

/** `GET /api/account/me`, and the answer to signing in or up. */
export interface AccountView {
  username: string;
  /** Unix milliseconds. */
  created_at: number;
  rating: RatingView | null;
}

/** Who sat in a seat of a played match. */
export interface PlayerView {
  name: string;
  /** The account's name when a signed-in player sat there. */
  account: string | null;
  bot: boolean;
}

export interface PlayedMatchView {
  match_id: string;
  rules: string;
  finished_at: number;
  seat: SeatName;
  result: string;
  outcome: 'win' | 'draw' | 'loss';
  partner: PlayerView | null;
  opponents: [PlayerView | null, PlayerView | null];
  players: (PlayerView | null)[];
  /** null for a casual match. */
  rating_delta: number | null;
}

export interface RatingPointView {
  match_id: string;
  at: number;
  rating: number;
  deviation: number;
  delta: number;
}

export interface PartnerView {
  username: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  team_rating: { rating: number; deviation: number } | null;
}

export interface RulesView {
  rules: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** `GET /api/players/{name}`. */
export interface Profile {
  username: string;
  created_at: number;
  rating: RatingView | null;
  /** Oldest first. */
  rating_history: RatingPointView[];
  /** Newest first. */
  matches: PlayedMatchView[];
  best_partners: PartnerView[];
  by_rules: RulesView[];
}

/** `GET /api/leaderboard`. */
export interface Leaderboard {
  min_games: number;
  team_min_games: number;
  max_deviation: number;
  players: (RatingView & { rank: number; username: string })[];
  teams: (RatingView & { rank: number; players: [string, string] })[];
}
