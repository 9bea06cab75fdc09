//! What the nodes say to each other over the bus: a header line (`KIND FROM CONN [EXTRA]`) and
//! a body. A server message or a client frame travels as it is (its JSON is the body), so it is
//! neither parsed nor quoted again on the way.

use crate::hub::ConnId;

/// One message between nodes, addressed to a node's inbox channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Wire {
    /// A client on node `from` opened a connection relayed to this node (the owner), signed in
    /// as an account or not.
    Open {
        /// The node holding the socket.
        from: String,
        /// The connection's number there.
        conn: ConnId,
        /// The account: id and name.
        account: Option<(i64, String)>,
    },
    /// A text frame from a relayed client, as the client sent it.
    Frame {
        /// The node holding the socket.
        from: String,
        /// The connection's number there.
        conn: ConnId,
        /// The frame.
        text: String,
    },
    /// A binary frame (refused by the owner's hub, as on a local socket).
    Binary {
        /// The node holding the socket.
        from: String,
        /// The connection's number there.
        conn: ConnId,
    },
    /// A relayed client's round trip, measured by the node holding the socket.
    Rtt {
        /// The node holding the socket.
        from: String,
        /// The connection's number there.
        conn: ConnId,
        /// Microseconds.
        micros: u64,
    },
    /// A relayed client went away.
    Close {
        /// The node holding the socket.
        from: String,
        /// The connection's number there.
        conn: ConnId,
    },
    /// A server message for a relayed client (owner to the node holding the socket).
    Out {
        /// The connection's number on the node holding the socket.
        conn: ConnId,
        /// The message, serialised by the owner.
        text: String,
    },
    /// The owner closes a relayed client's connection.
    Shut {
        /// The connection's number on the node holding the socket.
        conn: ConnId,
    },
    /// "Play now": seat a player in a waiting match of the node addressed (its owner).
    Place {
        /// The asking node.
        from: String,
        /// The request's number there.
        request: u64,
        /// What is asked (JSON, `place.rs`).
        text: String,
    },
    /// The owner's answer to a `place`.
    Placed {
        /// The request's number on the asking node.
        request: u64,
        /// The seat and its token, or why not (JSON, `place.rs`).
        text: String,
    },
}

/// A bus message that cannot be read (from a node of another version, say).
#[derive(Debug, thiserror::Error)]
#[error("unreadable bus message: {0}")]
pub(crate) struct WireError(&'static str);

impl Wire {
    /// The message as sent on the bus.
    pub(crate) fn encode(&self) -> String {
        match self {
            Wire::Open {
                from,
                conn,
                account,
            } => match account {
                Some((id, name)) => format!("open {from} {conn} {id}\n{name}"),
                None => format!("open {from} {conn}\n"),
            },
            Wire::Frame { from, conn, text } => format!("frame {from} {conn}\n{text}"),
            Wire::Binary { from, conn } => format!("binary {from} {conn}\n"),
            Wire::Rtt { from, conn, micros } => format!("rtt {from} {conn} {micros}\n"),
            Wire::Close { from, conn } => format!("close {from} {conn}\n"),
            Wire::Out { conn, text } => format!("out - {conn}\n{text}"),
            Wire::Shut { conn } => format!("shut - {conn}\n"),
            Wire::Place {
                from,
                request,
                text,
            } => format!("place {from} {request}\n{text}"),
            Wire::Placed { request, text } => format!("placed - {request}\n{text}"),
        }
    }

    /// Reads a message sent on the bus.
    pub(crate) fn decode(bytes: &[u8]) -> Result<Wire, WireError> {
        let text = std::str::from_utf8(bytes).map_err(|_| WireError("not UTF-8"))?;
        let (head, body) = text.split_once('\n').ok_or(WireError("no header"))?;
        let mut words = head.split(' ');
        let kind = words.next().ok_or(WireError("no kind"))?;
        let from = words.next().ok_or(WireError("no sender"))?.to_owned();
        let conn: ConnId = words
            .next()
            .and_then(|c| c.parse().ok())
            .ok_or(WireError("no connection"))?;
        let extra = words.next();
        Ok(match kind {
            "open" => Wire::Open {
                from,
                conn,
                account: match extra {
                    Some(id) => Some((
                        id.parse().map_err(|_| WireError("bad account id"))?,
                        body.to_owned(),
                    )),
                    None => None,
                },
            },
            "frame" => Wire::Frame {
                from,
                conn,
                text: body.to_owned(),
            },
            "binary" => Wire::Binary { from, conn },
            "rtt" => Wire::Rtt {
                from,
                conn,
                micros: extra
                    .and_then(|m| m.parse().ok())
                    .ok_or(WireError("bad round trip"))?,
            },
            "close" => Wire::Close { from, conn },
            "out" => Wire::Out {
                conn,
                text: body.to_owned(),
            },
            "shut" => Wire::Shut { conn },
            "place" => Wire::Place {
                from,
                request: conn,
                text: body.to_owned(),
            },
            "placed" => Wire::Placed {
                request: conn,
                text: body.to_owned(),
            },
            _ => return Err(WireError("unknown kind")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_reads_back_as_sent() {
        let all = [
            Wire::Open {
                from: "n1".into(),
                conn: 7,
                account: Some((42, "alice bob\nx".into())),
            },
            Wire::Open {
                from: "n1".into(),
                conn: 7,
                account: None,
            },
            Wire::Frame {
                from: "n-2".into(),
                conn: 1,
                text: "{\"type\":\"move\",\n\"uci\":\"e2e4\"}".into(),
            },
            Wire::Binary {
                from: "a".into(),
                conn: 3,
            },
            Wire::Rtt {
                from: "a".into(),
                conn: 3,
                micros: 1234,
            },
            Wire::Close {
                from: "a".into(),
                conn: u64::MAX,
            },
            Wire::Out {
                conn: 9,
                text: "{}".into(),
            },
            Wire::Shut { conn: 9 },
            Wire::Place {
                from: "n1".into(),
                request: 4,
                text: "{\"match_id\":\"m\"}".into(),
            },
            Wire::Placed {
                request: 4,
                text: "\"Full\"".into(),
            },
        ];
        for wire in all {
            assert_eq!(Wire::decode(wire.encode().as_bytes()).unwrap(), wire);
        }
    }

    #[test]
    fn garbage_is_refused() {
        for bad in ["", "frame a 1", "frame a x\n", "nope a 1\n", "rtt a 1\n"] {
            assert!(Wire::decode(bad.as_bytes()).is_err(), "{bad:?}");
        }
    }
}
