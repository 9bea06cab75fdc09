// Generated from crates/protocol by ts-rs: do not edit. After changing the Rust types, run
// `cargo run -p bughouse-protocol --example gen-ts` (the test `ts_bindings_are_fresh` checks this file).

import type { SeatName } from './protocol';

/** How the rounds are paired. */
export type TournamentFormat = "round-robin" | "double-round-robin" | "swiss";

/** One of the two players of a team. */
export type Slot = "first" | "second";

/** One of the two teams of a pairing. */
export type TeamSide = "home" | "away";

/** The result of one game, from its board's White side. */
export type GameResult = "1-0" | "0-1" | "1/2-1/2" | "*";

/** A match result from the home team's side, or a forfeit. */
export type MatchResult = "1-0" | "0-1" | "1/2-1/2" | "+-" | "-+" | "--";

/** The body of `POST /api/tournaments`. */
export type CreateTournament = {
  /** Up to 80 characters. */
  name: string,
  /**
   * The rules preset: `minerva-2014`, `knsb-1988`, `fide` or `uscf-scholastic-2006` (the
   * two-board presets).
   */
  preset: string,
  /** How the rounds are paired. */
  format: TournamentFormat,
  /**
   * The number of rounds: needed for a Swiss; a round robin plays every round of its table
   * unless told fewer.
   */
  rounds?: number,
  /** The time control of the server matches, `M+S` (default `5+0`). */
  time_control?: string,
  /** The seed of the draws of lots (default random). */
  seed?: number,
};

/** A player of a team being registered. */
export type PlayerEntry = {
  /** Up to 32 characters (a seat name). */
  name: string,
  /** Up to 4000. */
  rating?: number,
};

/** The body of `POST /api/tournaments/{id}/teams`. */
export type AddTeam = {
  /** Up to 80 characters, unique in the tournament. */
  name: string,
  /** The first-board player. */
  first: PlayerEntry,
  /** His partner. */
  second: PlayerEntry,
};

/** The body of `POST /api/tournaments/{id}/rounds` (none at all is `{}`). */
export type PairRound = {
  /** Also create one server match per pairing. */
  online?: boolean,
};

/**
 * The body of `PUT /api/tournaments/{id}/rounds/{r}/tables/{t}/result`: both games, or the
 * match result alone.
 */
export type SetResult = {
  /** The game on board A. */
  board_a?: GameResult,
  /** The game on board B. */
  board_b?: GameResult,
  /** The match result alone (first-game scoring only), or a forfeit. */
  result?: MatchResult,
};

/**
 * The body of `PUT /api/tournaments/{id}/rounds/{r}/tables/{t}/colours` (uscf-scholastic-2006,
 * U3: a team chooses which of its players has White).
 */
export type SetColours = {
  /** The team that chooses. */
  team: TeamSide,
  /** Its player with White. */
  white: Slot,
};

/** The answer to `POST /api/tournaments` (201). */
export type CreatedTournament = {
  /** The new tournament's id. */
  tournament_id: string,
  /** The secret of organiser requests (`Authorization: Bearer SECRET`): shown once. */
  organiser_secret: string,
  /** The tournament. */
  tournament: TournamentView,
};

/**
 * The tournament as the pages show it: the answer to `GET /api/tournaments/{id}` and to every
 * change by the organiser.
 */
export type TournamentView = {
  /** The id. */
  id: string,
  /** The name. */
  name: string,
  /** The rules preset id. */
  preset: string,
  /** How the rounds are paired. */
  format: TournamentFormat,
  /** The number of rounds asked for at creation, if any. */
  planned_rounds: number | null,
  /** The number of rounds to play (0 for a Swiss without a number yet). */
  total_rounds: number,
  /** The time control of the server matches. */
  time_control: string,
  /** The seed of the draws of lots. */
  seed: number,
  /** How results score. */
  scoring: ScoringView,
  /** The teams, by id. */
  teams: Array<TeamView>,
  /** The rounds paired so far. */
  rounds: Array<RoundView>,
  /** The standings, best first. */
  standings: Array<StandingView>,
  /** Whether every round is paired and played. */
  finished: boolean,
  /** Whether the teams can no longer change (a round is paired). */
  teams_fixed: boolean,
  /** Why the next round cannot be paired, if it cannot. */
  cannot_pair: string | null,
  /** When it was created, Unix milliseconds. */
  created_at: number,
  /** When it last changed, Unix milliseconds (also the ETag). */
  updated_at: number,
};

/** How results score. */
export type ScoringView = {
  /**
   * Whether the first game to end decides the match (`false`: both games are played out
   * and score apart).
   */
  first_game_decides: boolean,
  /** Match points for a win. */
  win: string,
  /** Match points for a draw. */
  draw: string,
  /** Match points for a loss. */
  loss: string,
};

/** A team. */
export type TeamView = {
  /** Its number, from 0 in the order registered. */
  id: number,
  /** The name. */
  name: string,
  /** The first-board player. */
  first: PlayerView,
  /** His partner. */
  second: PlayerView,
  /** The team rating (the players' mean), if any is known. */
  rating: number | null,
};

/** A player of a team. */
export type PlayerView = {
  /** The name. */
  name: string,
  /** The rating, if known. */
  rating: number | null,
};

/** A round. */
export type RoundView = {
  /** Its number, from 1. */
  number: number,
  /** Whether every pairing has a result. */
  finished: boolean,
  /** The matches, by table. */
  pairings: Array<PairingView>,
  /** The team with the bye, if the number of teams is odd. */
  bye: ByeView | null,
};

/** The team with a round's bye. */
export type ByeView = {
  /** The team's id. */
  team: number,
  /** Its name. */
  name: string,
};

/** A match of a round. */
export type PairingView = {
  /** The table, from 1. */
  table: number,
  /** The home team's id. */
  home: number,
  /** The away team's id. */
  away: number,
  /** The home team's name. */
  home_name: string,
  /** The away team's name. */
  away_name: string,
  /** Who sits where, in seat order WhiteA, BlackA, WhiteB, BlackB. */
  seats: Array<SeatView>,
  /** What decided the colours, in words. */
  colours: string,
  /** The result, once entered. */
  result: PairingResult | null,
  /** What the home team scored, once there is a result. */
  home_points: PointsView | null,
  /** What the away team scored, once there is a result. */
  away_points: PointsView | null,
  /** The server match played for it, if the round was paired online. */
  match_id: string | null,
};

/** A player at a seat of a pairing. */
export type SeatView = {
  /** The seat. */
  seat: SeatName,
  /** The player's team. */
  team: number,
  /** Its name. */
  team_name: string,
  /** The player's name. */
  player: string,
  /** Which of the team's players. */
  slot: Slot,
  /** Whether the team is the home team. */
  home: boolean,
};

/** The result of a pairing. */
export type PairingResult = {
  /** Board A's game, when entered per game. */
  board_a: GameResult | null,
  /** Board B's game, when entered per game. */
  board_b: GameResult | null,
  /**
   * The match result from the home team's side (`1-0`, `0-1`, `1/2-1/2`) or the forfeit
   * (`+-`, `-+`, `--`).
   */
  match: string,
  /** The result as entered, in words (`A 1-0, B *`). */
  text: string,
};

/** What a team scored in a match. */
export type PointsView = {
  /** Match points. */
  match_points: string,
  /** Game points. */
  game_points: string,
};

/** One line of the standings. */
export type StandingView = {
  /** The rank: `3`, or `3-4` for a shared place. */
  rank: string,
  /** The team's id. */
  team: number,
  /** Its name. */
  name: string,
  /** Matches played (forfeits included, byes not). */
  played: number,
  /** Matches won. */
  won: number,
  /** Matches drawn. */
  drawn: number,
  /** Matches lost. */
  lost: number,
  /** Byes. */
  byes: number,
  /** Match points. */
  match_points: string,
  /** Game points. */
  game_points: string,
  /** Buchholz. */
  buchholz: string,
  /** Sonneborn-Berger. */
  sonneborn_berger: string,
  /** Match points against the other teams of its tie, when every two of them have met. */
  direct_encounter: string | null,
  /** The team rating. */
  rating: number | null,
};
