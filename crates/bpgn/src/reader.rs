//! Reading BPGN (two boards) and PGN (one board) as they are written in practice.
//!
//! The reader takes bytes, not strings: real files hold bytes that are not UTF-8 (FICS writes
//! 0xFE in comments), so text is decoded as Latin-1. It copes with glued comments (`{120}{C:…}`),
//! two tags on one line, clocks with 0 to 3 decimals, comments spanning lines, variations,
//! NAGs, `%` escape lines, and a `[Result]` tag that disagrees with the final token. It never
//! panics; what it cannot read becomes a [`ReadError`] naming the line.

use std::time::Duration;

use bughouse_core::{BoardId, Color};

/// One move token of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordMove {
    /// The board, for BPGN; `None` in single-board PGN.
    pub board: Option<BoardId>,
    /// The side that moved, from the move number (`12A.` White, `12a.` Black) or, in PGN, from
    /// the order of moves.
    pub color: Color,
    /// The move number as written (that board's own number).
    pub number: u32,
    /// The SAN as written, with any `+`, `#`, `!` or `?`.
    pub san: String,
    /// The mover's remaining clock from the comment after the move (`{179.5}`, `[%clk 0:01:00]`).
    pub clock: Option<Duration>,
    /// The 1-based line of the SAN token.
    pub line: usize,
}

impl RecordMove {
    /// The token as a reader would quote it: `23b. Q@d8#`, or `12... Nf6` in PGN.
    pub fn token(&self) -> String {
        match (self.board, self.color) {
            (Some(board), Color::White) => format!("{}{}. {}", self.number, board.char(), self.san),
            (Some(board), Color::Black) => format!(
                "{}{}. {}",
                self.number,
                board.char().to_ascii_lowercase(),
                self.san
            ),
            (None, Color::White) => format!("{}. {}", self.number, self.san),
            (None, Color::Black) => format!("{}... {}", self.number, self.san),
        }
    }
}

/// One game as written: tags, moves, comments and the final token.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// The tags in file order.
    pub tags: Vec<(String, String)>,
    /// The moves in the order they were made.
    pub moves: Vec<RecordMove>,
    /// The last comment that stood directly before the result token, such as
    /// `Fudpucker checkmated`.
    pub termination: Option<String>,
    /// The final token: `1-0`, `0-1`, `1/2-1/2` or `*`; `None` when the file ended without one.
    pub result: Option<String>,
    /// The 1-based line where the game starts.
    pub line: usize,
    /// Whether this is a bughouse record (board letters in move numbers, or bughouse tags).
    pub bughouse: bool,
}

impl Record {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The `Date` tag as year, month and day, written with dots (`2005.01.03`, PGN) or dashes
    /// (`2014-07-18`, bughousedb). Unknown parts (`??`) are `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// let games: Vec<_> = bughouse_bpgn::read_games(b"[Date \"2014-07-18\"]\n*").collect();
    /// assert_eq!(games[0].as_ref().unwrap().date(), Some((2014, Some(7), Some(18))));
    /// ```
    pub fn date(&self) -> Option<(u16, Option<u8>, Option<u8>)> {
        let text = self.tag("Date")?;
        let mut parts = text.split(['.', '-', '/']);
        let year = parts.next()?.parse().ok()?;
        let month = parts
            .next()
            .and_then(|m| m.parse().ok())
            .filter(|m| (1..=12).contains(m));
        let day = parts
            .next()
            .and_then(|d| d.parse().ok())
            .filter(|d| (1..=31).contains(d));
        Some((year, month, day))
    }
}

/// What cannot be read, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ReadError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads every game of a file.
///
/// Each item is a game or the error that stopped reading that game; reading goes on with the
/// next game after an error.
///
/// # Examples
///
/// ```
/// let text = b"[WhiteA \"x\"][BlackA \"y\"]\n1A. e4 {179.5} 1B. d4{180} 1a. e5 {178} *\n";
/// let games: Vec<_> = bughouse_bpgn::read_games(text).collect();
/// let game = games[0].as_ref().unwrap();
/// assert_eq!(game.moves.len(), 3);
/// assert_eq!(game.moves[2].token(), "1a. e5");
/// ```
pub fn read_games(bytes: &[u8]) -> Games<'_> {
    Games {
        lexer: Lexer {
            bytes,
            pos: 0,
            line: 1,
        },
    }
}

/// The games of a file, see [`read_games`].
pub struct Games<'a> {
    lexer: Lexer<'a>,
}

impl Iterator for Games<'_> {
    type Item = Result<Record, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.lexer.next_game()
    }
}

struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

/// Latin-1 decoding: every byte is one character.
pub fn latin1(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(ascii) if bytes.is_ascii() => ascii.to_owned(),
        _ => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

enum Token<'a> {
    Tag(String, String),
    Comment(&'a [u8]),
    /// A move number: `12A.` (board and colour), `12.` (White) or `12...` (Black).
    Number {
        number: u32,
        board: Option<BoardId>,
        color: Color,
    },
    Result(&'a str),
    Word(&'a [u8]),
    End,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.pos += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.bytes[self.pos - 1] == b'\n'
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() {
                self.bump();
            } else if (c == b'%' && self.at_line_start()) || c == b';' {
                self.skip_line();
            } else {
                break;
            }
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == b'\n' {
                break;
            }
        }
    }

    fn error(&self, line: usize, message: impl Into<String>) -> ReadError {
        ReadError {
            line,
            message: message.into(),
        }
    }

    fn token(&mut self) -> Result<Token<'a>, ReadError> {
        self.skip_space();
        let line = self.line;
        let Some(c) = self.peek() else {
            return Ok(Token::End);
        };
        match c {
            b'[' => self.tag(),
            b'{' => {
                self.bump();
                let start = self.pos;
                while let Some(c) = self.peek() {
                    if c == b'}' {
                        break;
                    }
                    self.bump();
                    if c == b'\n' && self.peek() == Some(b'[') {
                        // A line that starts with a tag inside a comment: the comment was never
                        // closed and the next game has begun. Reading goes on from there.
                        return Err(self.error(line, "comment opened with '{' is not closed"));
                    }
                }
                if self.peek().is_none() {
                    // Recovery starts again from the brace, so the games after it are kept.
                    self.pos = start;
                    self.line = line;
                    return Err(self.error(line, "comment opened with '{' is not closed"));
                }
                let text = &self.bytes[start..self.pos];
                self.bump();
                Ok(Token::Comment(text))
            }
            b'(' => {
                // A variation: skipped, with nesting and comments inside.
                let mut depth = 0usize;
                while let Some(c) = self.bump() {
                    match c {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                return self.token();
                            }
                        }
                        b'{' => {
                            while let Some(c) = self.bump() {
                                if c == b'}' {
                                    break;
                                }
                            }
                        }
                        _ => {}
                    }
                }
                Err(self.error(line, "variation opened with '(' is not closed"))
            }
            b')' => {
                self.bump();
                Err(self.error(line, "')' without '('"))
            }
            b'$' => {
                self.bump();
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
                self.token()
            }
            _ => {
                let start = self.pos;
                while let Some(c) = self.peek() {
                    if c.is_ascii_whitespace() || matches!(c, b'{' | b'[' | b'(' | b')' | b';') {
                        break;
                    }
                    self.bump();
                    // A move number ends at its dot(s): `12A.e4` and `12.e4` are split.
                    if c == b'.' && self.bytes[start].is_ascii_digit() {
                        while self.peek() == Some(b'.') {
                            self.bump();
                        }
                        break;
                    }
                }
                let word = &self.bytes[start..self.pos];
                Ok(classify(word))
            }
        }
    }

    fn tag(&mut self) -> Result<Token<'a>, ReadError> {
        let line = self.line;
        self.bump(); // [
        let name_start = self.pos;
        while self
            .peek()
            .is_some_and(|c| !c.is_ascii_whitespace() && c != b'"' && c != b']')
        {
            self.bump();
        }
        let name = latin1(&self.bytes[name_start..self.pos]);
        while self.peek().is_some_and(|c| c == b' ' || c == b'\t') {
            self.bump();
        }
        let mut value = Vec::new();
        if self.peek() == Some(b'"') {
            self.bump();
            loop {
                match self.bump() {
                    None | Some(b'\n') => {
                        return Err(self.error(line, format!("tag [{name}] has no closing quote")))
                    }
                    Some(b'\\') => {
                        if let Some(c) = self.bump() {
                            value.push(c);
                        }
                    }
                    Some(b'"') => break,
                    Some(c) => value.push(c),
                }
            }
        }
        while self.peek().is_some_and(|c| c == b' ' || c == b'\t') {
            self.bump();
        }
        if self.peek() != Some(b']') {
            return Err(self.error(line, format!("tag [{name}] is not closed with ']'")));
        }
        self.bump();
        if name.is_empty() {
            return Err(self.error(line, "tag without a name"));
        }
        Ok(Token::Tag(name, latin1(&value)))
    }

    /// Skips to the start of the next game after an error: the next line that starts a tag.
    fn recover(&mut self) {
        loop {
            if self.at_line_start() && self.peek() == Some(b'[') {
                return;
            }
            self.skip_line();
            if self.peek().is_none() {
                return;
            }
        }
    }

    fn next_game(&mut self) -> Option<Result<Record, ReadError>> {
        let result = self.read_game();
        match result {
            Ok(Some(record)) => Some(Ok(record)),
            Ok(None) => None,
            Err(e) => {
                self.recover();
                Some(Err(e))
            }
        }
    }

    fn read_game(&mut self) -> Result<Option<Record>, ReadError> {
        self.skip_space();
        if self.peek().is_none() {
            return Ok(None);
        }
        let mut record = Record {
            line: self.line,
            ..Record::default()
        };
        let mut in_moves = false;
        let mut pending: Option<(u32, Option<BoardId>, Color)> = None;
        let mut last_comment: Option<String> = None;
        let mut pgn_color = Color::White;
        let mut pgn_number = 1u32;
        loop {
            let before = (self.pos, self.line);
            let line = self.line;
            match self.token()? {
                Token::End => {
                    if record.tags.is_empty() && record.moves.is_empty() {
                        return Ok(None);
                    }
                    return Ok(Some(record));
                }
                Token::Tag(name, value) => {
                    if in_moves {
                        // A new game began without a result token.
                        (self.pos, self.line) = before;
                        return Ok(Some(record));
                    }
                    if matches!(name.as_str(), "WhiteA" | "BlackA" | "WhiteB" | "BlackB") {
                        record.bughouse = true;
                    }
                    if name == "Variant" && value.eq_ignore_ascii_case("bughouse") {
                        record.bughouse = true;
                    }
                    record.tags.push((name, value));
                }
                Token::Comment(bytes) => {
                    in_moves = true;
                    if let Some(clock) = parse_clock(bytes) {
                        if let Some(m) = record.moves.last_mut() {
                            if last_comment.is_none() {
                                m.clock = m.clock.or(Some(clock));
                            }
                        }
                        // A clock is no termination comment.
                        continue;
                    }
                    last_comment = Some(latin1(bytes).trim().to_owned());
                }
                Token::Number {
                    number,
                    board,
                    color,
                } => {
                    in_moves = true;
                    last_comment = None;
                    if board.is_some() {
                        record.bughouse = true;
                    }
                    pending = Some((number, board, color));
                }
                Token::Result(r) => {
                    record.result = Some(r.to_owned());
                    record.termination = last_comment.take();
                    return Ok(Some(record));
                }
                Token::Word(word) => {
                    in_moves = true;
                    last_comment = None;
                    let san = latin1(word);
                    let (number, board, color) = match pending.take() {
                        Some((n, Some(board), color)) => (n, Some(board), color),
                        Some((n, None, color)) => {
                            if record.bughouse {
                                return Err(self.error(
                                    line,
                                    format!("move {san} has a number without a board letter"),
                                ));
                            }
                            (n, None, color)
                        }
                        None => {
                            if record.bughouse {
                                return Err(self.error(
                                    line,
                                    format!("move {san} has no move number like 12A."),
                                ));
                            }
                            (pgn_number, None, pgn_color)
                        }
                    };
                    if board.is_none() {
                        // The next move in PGN: the other side, and a new number after Black.
                        pgn_color = !color;
                        pgn_number = if color == Color::Black {
                            number + 1
                        } else {
                            number
                        };
                    }
                    record.moves.push(RecordMove {
                        board,
                        color,
                        number,
                        san,
                        clock: None,
                        line,
                    });
                }
            }
        }
    }
}

fn classify(word: &[u8]) -> Token<'_> {
    match word {
        b"1-0" | b"0-1" | b"1/2-1/2" | b"*" => {
            // These are ASCII literals, so from_utf8 cannot fail.
            return Token::Result(std::str::from_utf8(word).unwrap_or("*"));
        }
        _ => {}
    }
    let digits = word.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 && digits < word.len() {
        let rest = &word[digits..];
        let number: u32 = std::str::from_utf8(&word[..digits])
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let dots = |s: &[u8]| !s.is_empty() && s.iter().all(|&c| c == b'.');
        if dots(rest) {
            let color = if rest.len() >= 3 {
                Color::Black
            } else {
                Color::White
            };
            return Token::Number {
                number,
                board: None,
                color,
            };
        }
        if rest.len() >= 2 && dots(&rest[1..]) {
            let (board, color) = match rest[0] {
                b'A' => (BoardId::A, Color::White),
                b'a' => (BoardId::A, Color::Black),
                b'B' => (BoardId::B, Color::White),
                b'b' => (BoardId::B, Color::Black),
                _ => return Token::Word(word),
            };
            return Token::Number {
                number,
                board: Some(board),
                color,
            };
        }
    }
    Token::Word(word)
}

/// A clock comment: `179`, `118.585`, ` 179.5 `, or `[%clk 0:01:00]` (possibly among other
/// commands).
fn parse_clock(bytes: &[u8]) -> Option<Duration> {
    let t = bytes.trim_ascii();
    if !t.is_empty() && t.iter().all(|&c| c.is_ascii_digit() || c == b'.') {
        return seconds(std::str::from_utf8(t).ok()?);
    }
    let at = t.windows(5).position(|w| w == b"[%clk")?;
    let rest = t[at + 5..].trim_ascii_start();
    let end = rest.iter().position(|&c| c == b']')?;
    let mut total = 0f64;
    for part in std::str::from_utf8(&rest[..end]).ok()?.trim().split(':') {
        total = total * 60.0 + part.parse::<f64>().ok()?;
    }
    (0.0..1e9)
        .contains(&total)
        .then(|| Duration::from_secs_f64(total))
}

fn seconds(t: &str) -> Option<Duration> {
    let v: f64 = t.parse().ok()?;
    (0.0..1e9)
        .contains(&v)
        .then(|| Duration::from_millis((v * 1000.0).round() as u64))
}
