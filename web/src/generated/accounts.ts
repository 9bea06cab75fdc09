// Generated from crates/protocol by ts-rs: do not edit. After changing the Rust types, run
// `cargo run -p bughouse-protocol --example gen-ts` (the test `ts_bindings_are_fresh` checks this file).

import type { SeatName } from './protocol';

/** The body of `POST /api/account/signup` and `POST /api/account/login`. */
export type Credentials = {
  /** 3 to 20 letters, digits, `_` or `-` (any case; names differing only in case are one). */
  username: string,
  /** At least 8 characters. */
  password: string,
};

/** An account as its owner sees it: `GET /api/account/me`, and the answer to signing in or up. */
export type AccountView = {
  /** The account's name, as it was signed up. */
  username: string,
  /** When it was created, Unix milliseconds. */
  created_at: number,
  /** Null before the first rated match. */
  rating: RatingView | null,
};

/** A rating (Glicko-2) as the API shows it, with the record behind it. */
export type RatingView = {
  /** The rating. */
  rating: number,
  /** Its deviation. */
  deviation: number,
  /** Its volatility. */
  volatility: number,
  /** Rated matches played. */
  games: number,
  /** Of which won. */
  wins: number,
  /** Of which drawn. */
  draws: number,
  /** Of which lost. */
  losses: number,
  /** The deviation is still above 230 (about the first nine rated matches). */
  provisional: boolean,
};

/** `GET /api/players/{name}`: a player's profile. */
export type Profile = {
  /** The account's name. */
  username: string,
  /** When it was created, Unix milliseconds. */
  created_at: number,
  /** Null before the first rated match. */
  rating: RatingView | null,
  /** Oldest first: the chart. */
  rating_history: Array<RatingPointView>,
  /** Newest first, a page (`limit`, `offset`). */
  matches: Array<PlayedMatchView>,
  /** The partners he played most with. */
  best_partners: Array<PartnerView>,
  /** His results by rulebook. */
  by_rules: Array<RulesView>,
};

/** One point of a profile's rating history (the chart). */
export type RatingPointView = {
  /** The rated match. */
  match_id: string,
  /** When, Unix milliseconds. */
  at: number,
  /** The rating after it. */
  rating: number,
  /** The deviation after it. */
  deviation: number,
  /** What it changed. */
  delta: number,
};

/** One match in a profile's history. */
export type PlayedMatchView = {
  /** The match (its replay is `/m/{match_id}`). */
  match_id: string,
  /** The rules preset id, or `custom`. */
  rules: string,
  /** When it ended, Unix milliseconds. */
  finished_at: number,
  /** The player's seat. */
  seat: SeatName,
  /** The result, `1-0`, `0-1` or `1/2-1/2` (team WhiteA + BlackB first). */
  result: string,
  /** How it went for the player. */
  outcome: Outcome,
  /** His partner. */
  partner: MatchPlayer | null,
  /** The two opponents. */
  opponents: [MatchPlayer | null, MatchPlayer | null],
  /** Everyone by seat: WhiteA, BlackA, WhiteB, BlackB. */
  players: [MatchPlayer | null, MatchPlayer | null, MatchPlayer | null, MatchPlayer | null],
  /** What the match changed of his rating; null for a casual match. */
  rating_delta: number | null,
};

/** How a played match went for the player. */
export type Outcome = "win" | "draw" | "loss";

/** Who sat in a seat of a played match. */
export type MatchPlayer = {
  /** The name he sat under. */
  name: string,
  /** The account's name when a signed-in player sat there. */
  account: string | null,
  /** A bot played the seat. */
  bot: boolean,
};

/** A partner in a profile: the matches played together and the team's rating. */
export type PartnerView = {
  /** The partner's account. */
  username: string,
  /** Matches played together. */
  games: number,
  /** Of which won. */
  wins: number,
  /** Of which drawn. */
  draws: number,
  /** Of which lost. */
  losses: number,
  /** Their team rating, null before their first rated match together. */
  team_rating: TeamRatingView | null,
};

/** A team rating in short. */
export type TeamRatingView = {
  /** The rating. */
  rating: number,
  /** Its deviation. */
  deviation: number,
};

/** A profile's results under one rulebook. */
export type RulesView = {
  /** The rules preset id, or `custom`. */
  rules: string,
  /** Matches played. */
  games: number,
  /** Of which won. */
  wins: number,
  /** Of which drawn. */
  draws: number,
  /** Of which lost. */
  losses: number,
};

/** `GET /api/leaderboard`: the best-rated players and teams. */
export type Leaderboard = {
  /** Who is ranked: at least this many rated matches... */
  min_games: number,
  /** ...(a team: this many)... */
  team_min_games: number,
  /** ...and a deviation of at most this. */
  max_deviation: number,
  /** The players, best first. */
  players: Array<LeaderView>,
  /** The teams, best first. */
  teams: Array<TeamLeaderView>,
};

/** A ranked player. */
export type LeaderView = {
  /** From 1. */
  rank: number,
  /** The account's name. */
  username: string,
  /** The rating. */
  rating: number,
  /** Its deviation. */
  deviation: number,
  /** Its volatility. */
  volatility: number,
  /** Rated matches played. */
  games: number,
  /** Of which won. */
  wins: number,
  /** Of which drawn. */
  draws: number,
  /** Of which lost. */
  losses: number,
  /** The deviation is still above 230 (about the first nine rated matches). */
  provisional: boolean,
};

/** A ranked team of two. */
export type TeamLeaderView = {
  /** From 1. */
  rank: number,
  /** The two accounts' names. */
  players: [string, string],
  /** The rating. */
  rating: number,
  /** Its deviation. */
  deviation: number,
  /** Its volatility. */
  volatility: number,
  /** Rated matches played. */
  games: number,
  /** Of which won. */
  wins: number,
  /** Of which drawn. */
  draws: number,
  /** Of which lost. */
  losses: number,
  /** The deviation is still above 230 (about the first nine rated matches). */
  provisional: boolean,
};
