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

/// The text of a text frame, shared by all its recipients: UTF-8 by construction, since it is
/// made only from a `String` or by serde_json (which writes UTF-8 only), so it is not checked
/// again on its way to the sockets (that check was 1.2% of the machine's time at 4,900
/// matches).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameText(bytes::Bytes);

impl FrameText {
    /// The bytes, as the frame carries them.
    pub fn bytes(&self) -> &bytes::Bytes {
        &self.0
    }

    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The text (a copy).
    pub fn to_text(&self) -> String {
        // Always valid: see the type's invariant.
        String::from_utf8_lossy(&self.0).into_owned()
    }
}

impl From<String> for FrameText {
    fn from(s: String) -> FrameText {
        FrameText(s.into())
    }
}

impl From<&'static str> for FrameText {
    fn from(s: &'static str) -> FrameText {
        FrameText(bytes::Bytes::from_static(s.as_bytes()))
    }
}

/// A message as JSON text, the way the sender puts it on the wire (once for all its
/// recipients). The buffer starts at the size of a typical `moved`, so that most messages are
/// written without growing it.
pub fn encode(msg: &ServerMessage) -> Result<FrameText, serde_json::Error> {
    let mut buf = Vec::with_capacity(768);
    serde_json::to_writer(&mut buf, msg)?;
    Ok(FrameText(buf.into()))
}
