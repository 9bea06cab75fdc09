//! Simulated players against a bughouse server, over its real HTTP and websocket interfaces
//! and with the messages of `bughouse-protocol`:
//!
//! - [`load`]: the load tester (`bughouse loadtest`): many matches against a running server,
//!   latency, throughput, memory and CPU figures.
//! - [`chaos`]: the crash test (`bughouse chaos`): the server killed and restarted under
//!   players, then every acknowledged move and result checked against the store.
//!
//! Both reach loopback addresses only.

pub mod chaos;
pub mod client;
pub use bughouse_histogram as histogram;
pub mod load;
pub mod procfs;
mod stats;
