//! The websocket protocol (RFC 6455), our own, for both ends: the server's connections
//! (`bughouse-server`) and the clients of the load and crash tools (`bughouse-loadtest`).
//! Written for this project's traffic: thousands of connections each carrying a few small text
//! messages a second. No extension (compression) and no subprotocol is offered.
//!
//! - [`frame`]: a frame read from a buffer (masked from a client, unmasked from a server), a
//!   frame's header, masking.
//! - [`message`]: frames joined into messages; a close frame's payload.
//! - [`reader`]: messages read from a stream through a small buffer ([`Inbox`]).
//! - [`handshake`]: the keys, the client's request, the check of the server's answer.
//! - [`client`]: a client's websocket ([`Client`]): handshake, masked frames out, pings and a
//!   close answered.
//!
//! The server's half of the handshake (an axum extractor) and its writer (frames written from
//! the messages' shared bytes with one vectored write) are the server's own, in
//! `crates/server/src/http/ws/`.

pub mod client;
pub mod frame;
pub mod handshake;
pub mod message;
pub mod reader;

pub use client::{Client, Incoming, WsError};
pub use frame::{apply_mask, Frame, FrameError, Header, Opcode, Role};
pub use handshake::HandshakeError;
pub use message::{close_payload, Assembler, Message};
pub use reader::{Inbox, ReadError};
