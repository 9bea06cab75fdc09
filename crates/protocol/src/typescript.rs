//! The TypeScript bindings of the wire types: what the front end (`web/src/generated/`) imports
//! instead of keeping copies by hand. Rendered by [`ts-rs`](ts_rs) from the types and their
//! serde attributes; `cargo run -p bughouse-protocol --example gen-ts` writes them, and the test
//! `ts_bindings_are_fresh` fails while the checked-in files differ from what the types render.

use ts_rs::{Config, TS};

use crate::accounts as acc;
use crate::lobby::*;
use crate::otb::*;
use crate::tournament::*;
use crate::*;

/// Where the files go, from the workspace root.
pub const DIR: &str = "web/src/generated";

/// One generated file: its name in [`DIR`] and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The file name (`protocol.ts`).
    pub file: &'static str,
    /// The TypeScript.
    pub text: String,
    /// Types the file names but neither declares nor imports (a type missing from the lists
    /// of [`bindings`]): must be empty.
    pub undeclared: Vec<String>,
}

/// A file being written: declarations in the order given.
struct File {
    cfg: Config,
    text: String,
    /// What it declares or imports.
    declared: Vec<String>,
    /// What its declarations refer to.
    needed: Vec<String>,
}

impl File {
    /// A file that imports `imports` from `./protocol`.
    fn new(imports: &[&str]) -> File {
        // Integers travel as JSON numbers; the protocol keeps them below 2^53 (ids, times,
        // seeds a client sends), so `number`, not ts-rs's default `bigint`.
        let cfg = Config::new().with_large_int("number");
        let mut text = String::from(
            "// Generated from crates/protocol by ts-rs: do not edit. After changing the Rust \
             types, run\n// `cargo run -p bughouse-protocol --example gen-ts` (the test \
             `ts_bindings_are_fresh` checks this file).\n",
        );
        if !imports.is_empty() {
            text.push_str(&format!(
                "\nimport type {{ {} }} from './protocol';\n",
                imports.join(", ")
            ));
        }
        File {
            cfg,
            text,
            declared: imports.iter().map(|s| (*s).to_owned()).collect(),
            needed: Vec::new(),
        }
    }

    /// Notes what `T` refers to.
    fn needs<T: TS + 'static>(&mut self) {
        let deps = T::dependencies(&self.cfg);
        self.needed.extend(deps.into_iter().map(|d| d.ts_name));
    }

    /// `export type Name = ...;` for a type that derives `TS`, with its doc comment.
    fn decl<T: TS + 'static>(mut self) -> File {
        self.declared.push(T::ident(&self.cfg));
        self.needs::<T>();
        self.text.push('\n');
        if let Some(docs) = T::docs() {
            self.text.push_str(&layout::doc(&docs));
        }
        self.text.push_str("export ");
        self.text
            .push_str(&layout::declaration(&T::decl(&self.cfg)));
        self.text.push('\n');
        self
    }

    /// `export type Name = ...;` for a Rust type without a name of its own (a `Vec`, say).
    fn alias<T: TS + 'static>(mut self, name: &str, doc: &str) -> File {
        self.declared.push(name.to_owned());
        self.needs::<T>();
        self.text.push_str(&format!(
            "\n/** {doc} */\nexport type {name} = {};\n",
            T::name(&self.cfg)
        ));
        self
    }

    fn done(self, file: &'static str) -> Binding {
        let mut undeclared: Vec<String> = self
            .needed
            .into_iter()
            .filter(|n| !self.declared.contains(n))
            .collect();
        undeclared.sort();
        undeclared.dedup();
        Binding {
            file,
            text: self.text,
            undeclared,
        }
    }
}

/// Every generated file.
pub fn bindings() -> Vec<Binding> {
    let protocol = File::new(&[])
        .decl::<SeatName>()
        .decl::<BoardName>()
        .decl::<Status>()
        .decl::<Verdict>()
        .decl::<Claim>()
        .decl::<Piece>()
        .decl::<TalkKind>()
        .decl::<ErrorCode>()
        .decl::<ClientMessage>()
        .decl::<ClientFrame>()
        .decl::<ServerMessage>()
        .decl::<MatchState>()
        .decl::<RatingChanges>()
        .decl::<PlayerRatingChange>()
        .decl::<TeamRatingChange>()
        .decl::<SeatInfo>()
        .decl::<UciList>()
        .decl::<BoardState>()
        .decl::<Clocks>()
        .decl::<MoveInfo>()
        .decl::<ResultInfo>()
        .decl::<TalkEntry>()
        .decl::<CreateMatch>()
        .decl::<CreatedMatch>()
        .decl::<RulesCatalog>()
        .decl::<PresetInfo>()
        .decl::<RuleSetting>()
        .decl::<RuleField>()
        .decl::<ArchiveEntry>()
        .alias::<Vec<ArchiveEntry>>(
            "Archive",
            "The answer to `GET /api/archive`: finished matches, newest first.",
        )
        .alias::<Vec<[String; 2]>>(
            "Positions",
            "The answer to `GET /api/matches/{id}/positions`: the FEN of boards A and B before \
             the first move and after each move.",
        )
        .decl::<ApiError>()
        .done("protocol.ts");
    let tournament = File::new(&["SeatName"])
        .decl::<TournamentFormat>()
        .decl::<Slot>()
        .decl::<TeamSide>()
        .decl::<GameResult>()
        .decl::<MatchResult>()
        .decl::<CreateTournament>()
        .decl::<PlayerEntry>()
        .decl::<AddTeam>()
        .decl::<PairRound>()
        .decl::<SetResult>()
        .decl::<SetColours>()
        .decl::<CreatedTournament>()
        .decl::<TournamentView>()
        .decl::<ScoringView>()
        .decl::<TeamView>()
        .decl::<PlayerView>()
        .decl::<RoundView>()
        .decl::<ByeView>()
        .decl::<PairingView>()
        .decl::<SeatView>()
        .decl::<PairingResult>()
        .decl::<PointsView>()
        .decl::<StandingView>()
        .done("tournament.ts");
    let lobby = File::new(&["Clocks", "SeatInfo", "SeatName"])
        .decl::<LobbySnapshot>()
        .decl::<OpenMatch>()
        .decl::<LiveGame>()
        .decl::<LobbyBoard>()
        .decl::<PlayNow>()
        .decl::<PlacedSeat>()
        .done("lobby.ts");
    let otb = File::new(&["BoardName", "Piece", "SeatName"])
        .decl::<OtbRulebook>()
        .decl::<OtbArticle>()
        .decl::<SetupFault>()
        .decl::<OtbRefusal>()
        .decl::<PieceBackFrom>()
        .decl::<OtbGameResult>()
        .decl::<OtbMatchResult>()
        .decl::<CapturedInfo>()
        .decl::<OtbClaim>()
        .decl::<OtbRuling>()
        .decl::<OtbEvent>()
        .decl::<OtbEventItem>()
        .decl::<OtbEvents>()
        .decl::<CreateOtbTable>()
        .decl::<CreatedOtbTable>()
        .decl::<OtbConsequence>()
        .decl::<OtbDecision>()
        .decl::<OtbEntry>()
        .decl::<OtbClockFace>()
        .decl::<OtbGame>()
        .decl::<OtbPairing>()
        .decl::<OtbTableView>()
        .decl::<OtbRejected>()
        .decl::<OtbSheetMove>()
        .done("otb.ts");
    let accounts = File::new(&["SeatName"])
        .decl::<acc::Credentials>()
        .decl::<acc::AccountView>()
        .decl::<acc::RatingView>()
        .decl::<acc::Profile>()
        .decl::<acc::RatingPointView>()
        .decl::<acc::PlayedMatchView>()
        .decl::<acc::Outcome>()
        .decl::<acc::MatchPlayer>()
        .decl::<acc::PartnerView>()
        .decl::<acc::TeamRatingView>()
        .decl::<acc::RulesView>()
        .decl::<acc::Leaderboard>()
        .decl::<acc::LeaderView>()
        .decl::<acc::TeamLeaderView>()
        .done("accounts.ts");
    vec![protocol, tournament, lobby, otb, accounts]
}

/// Lays out a declaration as ts-rs writes it (one line, doc comments in between) the way a
/// person would: an object with doc comments or too long for a line gets a member a line,
/// each doc comment on its own lines above its member, and a long union a member a line.
mod layout {
    /// How long a flat object or union may be.
    const WIDTH: usize = 72;

    enum Node {
        Text(String),
        Comment(Vec<String>),
        Group(char, Vec<Node>),
    }

    fn closer(open: char) -> char {
        match open {
            '{' => '}',
            '[' => ']',
            '(' => ')',
            _ => '>',
        }
    }

    fn tokens(s: &str) -> Vec<Node> {
        let mut out = Vec::new();
        let chars: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
            } else if s[char_offset(&chars, i)..].starts_with("/**") {
                let start = i + 3;
                let mut end = start;
                while end + 1 < chars.len() && !(chars[end] == '*' && chars[end + 1] == '/') {
                    end += 1;
                }
                let body: String = chars[start..end].iter().collect();
                let lines = body
                    .lines()
                    .map(|l| {
                        let l = l.trim();
                        let l = l.strip_prefix('*').unwrap_or(l);
                        l.strip_prefix(' ').unwrap_or(l).trim_end().to_owned()
                    })
                    .skip_while(String::is_empty)
                    .collect::<Vec<_>>();
                let mut lines = lines;
                while lines.last().is_some_and(String::is_empty) {
                    lines.pop();
                }
                out.push(Node::Comment(lines));
                i = end + 2;
            } else if c == '"' {
                let mut end = i + 1;
                while end < chars.len() && chars[end] != '"' {
                    end += if chars[end] == '\\' { 2 } else { 1 };
                }
                out.push(Node::Text(
                    chars[i..=end.min(chars.len() - 1)].iter().collect(),
                ));
                i = end + 1;
            } else if "{}[]()<>,;|&:?=".contains(c) {
                out.push(Node::Text(c.to_string()));
                i += 1;
            } else {
                let mut end = i;
                while end < chars.len()
                    && !chars[end].is_whitespace()
                    && !"{}[]()<>,;|&:?=\"".contains(chars[end])
                {
                    end += 1;
                }
                out.push(Node::Text(chars[i..end].iter().collect()));
                i = end;
            }
        }
        out
    }

    fn char_offset(chars: &[char], i: usize) -> usize {
        chars[..i].iter().map(|c| c.len_utf8()).sum()
    }

    /// Nests the tokens into groups up to `close`.
    fn nest(tokens: &mut std::vec::IntoIter<Node>, close: Option<char>) -> Vec<Node> {
        let mut out = Vec::new();
        while let Some(t) = tokens.next() {
            match t {
                Node::Text(ref s) if close.is_some_and(|c| s.len() == 1 && s.starts_with(c)) => {
                    return out;
                }
                Node::Text(ref s) if s.len() == 1 && "{[(<".contains(s.as_str()) => {
                    let open = s.chars().next().unwrap_or('{');
                    out.push(Node::Group(open, nest(tokens, Some(closer(open)))));
                }
                t => out.push(t),
            }
        }
        out
    }

    fn is(n: &Node, text: &str) -> bool {
        matches!(n, Node::Text(s) if s == text)
    }

    /// Splits at `sep` outside groups, dropping an empty last part (a trailing comma).
    fn split<'a>(nodes: &'a [Node], sep: &str) -> Vec<&'a [Node]> {
        let mut parts: Vec<&[Node]> = nodes.split(|n| is(n, sep)).collect();
        if parts.len() > 1 && parts.last().is_some_and(|p| p.is_empty()) {
            parts.pop();
        }
        parts
    }

    /// The nodes on one line, if they hold no comment.
    fn flat(nodes: &[Node]) -> Option<String> {
        let mut out = String::new();
        let mut prev: Option<&Node> = None;
        for n in nodes {
            let piece = match n {
                Node::Comment(_) => return None,
                Node::Text(s) => s.clone(),
                Node::Group(open, inner) => flat_group(*open, inner)?,
            };
            if let Some(p) = prev {
                if space_between(p, n) {
                    out.push(' ');
                }
            }
            out.push_str(&piece);
            prev = Some(n);
        }
        Some(out)
    }

    fn flat_group(open: char, inner: &[Node]) -> Option<String> {
        let members = split(inner, ",")
            .into_iter()
            .map(flat)
            .collect::<Option<Vec<_>>>()?;
        Some(match open {
            '{' if members.is_empty() => "{}".to_owned(),
            '{' => format!("{{ {} }}", members.join(", ")),
            _ => format!("{open}{}{}", members.join(", "), closer(open)),
        })
    }

    fn space_between(prev: &Node, next: &Node) -> bool {
        let tight_before = [",", ";", ":", "?"];
        match next {
            Node::Text(s) if tight_before.contains(&s.as_str()) => false,
            Node::Group('<', _) => false,
            _ => !matches!(prev, Node::Text(s) if s == "?"),
        }
    }

    fn pad(indent: usize) -> String {
        "  ".repeat(indent)
    }

    fn comment(lines: &[String], indent: usize, out: &mut String) {
        let pad = pad(indent);
        if let [line] = lines {
            out.push_str(&format!("{pad}/** {line} */\n"));
            return;
        }
        out.push_str(&format!("{pad}/**\n"));
        for l in lines {
            if l.is_empty() {
                out.push_str(&format!("{pad} *\n"));
            } else {
                out.push_str(&format!("{pad} * {l}\n"));
            }
        }
        out.push_str(&format!("{pad} */\n"));
    }

    /// The nodes from where a line at `indent` is, breaking groups that do not fit.
    fn line(nodes: &[Node], indent: usize) -> String {
        if let Some(f) = flat(nodes).filter(|f| f.len() <= WIDTH) {
            return f;
        }
        let mut out = String::new();
        let mut prev: Option<&Node> = None;
        for n in nodes {
            if let Some(p) = prev {
                if space_between(p, n) {
                    out.push(' ');
                }
            }
            match n {
                Node::Text(s) => out.push_str(s),
                Node::Comment(c) => comment(c, indent, &mut out),
                Node::Group(open, inner) => out.push_str(&group(*open, inner, indent)),
            }
            prev = Some(n);
        }
        out
    }

    fn group(open: char, inner: &[Node], indent: usize) -> String {
        if let Some(f) = flat_group(open, inner).filter(|f| f.len() <= WIDTH) {
            return f;
        }
        match open {
            '{' => {
                let mut out = String::from("{\n");
                for member in split(inner, ",") {
                    let start = member
                        .iter()
                        .position(|n| !matches!(n, Node::Comment(_)))
                        .unwrap_or(member.len());
                    for n in &member[..start] {
                        if let Node::Comment(c) = n {
                            comment(c, indent + 1, &mut out);
                        }
                    }
                    out.push_str(&pad(indent + 1));
                    out.push_str(&line(&member[start..], indent + 1));
                    out.push_str(",\n");
                }
                out.push_str(&pad(indent));
                out.push('}');
                out
            }
            '(' => format!("({}\n{})", union(inner, indent), pad(indent)),
            _ => {
                let members: Vec<String> = split(inner, ",")
                    .into_iter()
                    .map(|m| line(m, indent))
                    .collect();
                format!("{open}{}{}", members.join(", "), closer(open))
            }
        }
    }

    /// A type that may be a union: on the line if it fits, else a member a line, each
    /// starting with `|`, from a new line.
    fn union(nodes: &[Node], indent: usize) -> String {
        let members = split(nodes, "|");
        if members.len() < 2 {
            return format!(" {}", line(nodes, indent));
        }
        if let Some(f) = flat(nodes).filter(|f| f.len() + 2 * indent <= WIDTH + 16) {
            return format!(" {f}");
        }
        members
            .into_iter()
            .map(|m| format!("\n{}| {}", pad(indent + 1), line(m, indent + 1)))
            .collect()
    }

    /// A doc comment laid out.
    pub(super) fn doc(docs: &str) -> String {
        let mut out = String::new();
        for n in tokens(docs) {
            if let Node::Comment(lines) = n {
                comment(&lines, 0, &mut out);
            }
        }
        out
    }

    /// `type Name = T;` laid out.
    pub(super) fn declaration(decl: &str) -> String {
        let mut tokens = tokens(decl).into_iter();
        let nodes = nest(&mut tokens, None);
        let Some(eq) = nodes.iter().position(|n| is(n, "=")) else {
            return decl.to_owned();
        };
        let head = flat(&nodes[..eq]).unwrap_or_default();
        let end = if nodes.last().is_some_and(|n| is(n, ";")) {
            nodes.len() - 1
        } else {
            nodes.len()
        };
        format!("{head} ={};", union(&nodes[eq + 1..end], 0))
    }
}
