//! What the hub asks of its adapter: messages to send, writes to store (before any later
//! send), connections to close, bot turns.

use super::*;

/// What the adapter must do, in this order.
// Effects live only from `apply` to their execution, most of them `Send`s: boxing the message
// would add an allocation to nearly every one (as for `ServerMessage` itself).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send a message to these connections.
    Send(Vec<ConnId>, ServerMessage),
    /// Close a connection.
    Close(ConnId),
    /// Store this, before any later `Send`.
    Store(Write),
    /// Ask a bot for its move.
    BotTurn(BotTurn),
    /// Apply a finished rated match's ratings, once its end is stored (the adapter answers with
    /// [`Input::Rated`]).
    Rate(RateRequest),
}

/// What a stored event is (the store keeps it as text: [`EventKind::as_str`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// A resignation.
    Resign,
    /// A draw offer (or the acceptance of one).
    OfferDraw,
    /// A draw offer taken back.
    WithdrawDraw,
    /// A draw claim; its detail names the claim.
    ClaimDraw,
    /// A flag fall.
    Flag,
}

impl EventKind {
    /// Every kind.
    pub const ALL: [EventKind; 5] = [
        EventKind::Resign,
        EventKind::OfferDraw,
        EventKind::WithdrawDraw,
        EventKind::ClaimDraw,
        EventKind::Flag,
    ];

    /// The stored name: `resign`, `offer_draw`, `withdraw_draw`, `claim_draw`, `flag`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Resign => "resign",
            EventKind::OfferDraw => "offer_draw",
            EventKind::WithdrawDraw => "withdraw_draw",
            EventKind::ClaimDraw => "claim_draw",
            EventKind::Flag => "flag",
        }
    }

    /// The kind of a stored name.
    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A message as JSON text, the way the sender puts it on the wire (once for all its
/// recipients). The buffer starts at the size of a typical `moved`, so that most messages are
/// written without growing it.
pub fn encode(msg: &ServerMessage) -> Result<String, serde_json::Error> {
    let mut buf = Vec::with_capacity(768);
    serde_json::to_writer(&mut buf, msg)?;
    // serde_json writes UTF-8 only.
    Ok(String::from_utf8(buf).unwrap_or_default())
}
