// The JSON of the account, profile and leaderboard routes (crates/server/src/http/accounts.rs
// and players.rs; docs/protocol.md, "Accounts, profiles and the leaderboard"). The types are
// generated from crates/protocol/src/accounts.rs (the single definition) into
// ./generated/accounts.ts: change them there, then run
// `cargo run -p bughouse-protocol --example gen-ts`.

export type * from './generated/accounts';
