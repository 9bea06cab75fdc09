//! Who plays for a team ([`Spec`], as `bughouse arena --team1` reads it) and which presets the
//! arena plays.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use bughouse_core::Preset;
use bughouse_engine::{Level, ParseLevelError};

/// Who plays for a team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// Our engine at this level.
    Bot(Level),
    /// An outside UCI engine at this path.
    Uci(PathBuf),
    /// An outside XBoard engine at this path.
    Xboard(PathBuf),
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Bot(level) => write!(f, "bot:{level}"),
            Spec::Uci(path) => write!(f, "uci:{}", path.display()),
            Spec::Xboard(path) => write!(f, "xboard:{}", path.display()),
        }
    }
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Spec, SpecError> {
        if s == "bot" {
            return Ok(Spec::Bot(Level::DEFAULT));
        }
        if s == "fairy-stockfish" {
            return Ok(Spec::Uci(fairy_stockfish_path()));
        }
        if s == "fairy-stockfish-xboard" {
            return Ok(Spec::Xboard(fairy_stockfish_path()));
        }
        if let Some(path) = s.strip_prefix("xboard:") {
            if path.is_empty() {
                return Err(SpecError::NoPath("xboard"));
            }
            return Ok(Spec::Xboard(PathBuf::from(path)));
        }
        if let Some(level) = s.strip_prefix("bot:") {
            return level
                .parse::<Level>()
                .map(Spec::Bot)
                .map_err(|source| SpecError::Level {
                    text: level.to_owned(),
                    source,
                });
        }
        if let Some(path) = s.strip_prefix("uci:") {
            if path.is_empty() {
                return Err(SpecError::NoPath("uci"));
            }
            return Ok(Spec::Uci(PathBuf::from(path)));
        }
        Err(SpecError::Unknown(s.to_owned()))
    }
}

/// Why a team's [`Spec`] does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// `uci:` or `xboard:` without a path.
    #[error("{0}: needs the engine's path, like {0}:/usr/games/fairy-stockfish")]
    NoPath(&'static str),
    /// `bot:LEVEL` with a level that does not exist.
    #[error("bot:{text}: {source}")]
    Level {
        /// The text after `bot:`.
        text: String,
        /// Why it is no level.
        source: ParseLevelError,
    },
    /// None of the forms.
    #[error(
        "invalid player {0:?}: expected bot, bot:LEVEL, uci:PATH, xboard:PATH, fairy-stockfish or fairy-stockfish-xboard"
    )]
    Unknown(String),
}

/// Why a preset is not one the arena plays.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    /// No preset has that name.
    #[error("{0}")]
    Unknown(String),
    /// A one-board game.
    #[error("crazyhouse is a one-board game; the arena plays two-board bughouse")]
    OneBoard,
}

/// Reads a rules preset for the arena: any two-board preset (crazyhouse is refused).
///
/// # Errors
///
/// [`PresetError`] for an unknown preset or crazyhouse.
pub fn arena_preset(s: &str) -> Result<Preset, PresetError> {
    let preset = s
        .parse::<Preset>()
        .map_err(|e| PresetError::Unknown(e.to_string()))?;
    if preset == Preset::Crazyhouse {
        return Err(PresetError::OneBoard);
    }
    Ok(preset)
}

/// The path the `fairy-stockfish` shorthand stands for: Debian's `/usr/games/fairy-stockfish`
/// when it exists, else the name looked up on `PATH`.
pub fn fairy_stockfish_path() -> PathBuf {
    let debian = Path::new("/usr/games/fairy-stockfish");
    if debian.exists() {
        debian.to_path_buf()
    } else {
        PathBuf::from("fairy-stockfish")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print() {
        assert_eq!("bot".parse::<Spec>(), Ok(Spec::Bot(Level::DEFAULT)));
        let three = Level::new(3).expect("level 3 exists");
        assert_eq!("bot:3".parse::<Spec>(), Ok(Spec::Bot(three)));
        assert_eq!(Spec::Bot(three).to_string(), "bot:3");
        let uci: Spec = "uci:/opt/fsf".parse().expect("a path");
        assert_eq!(uci, Spec::Uci(PathBuf::from("/opt/fsf")));
        assert_eq!(uci.to_string(), "uci:/opt/fsf");
        assert!(matches!(
            "fairy-stockfish".parse::<Spec>(),
            Ok(Spec::Uci(_))
        ));
        assert!("bot:9".parse::<Spec>().is_err());
        assert!("uci:".parse::<Spec>().is_err());
        let xb: Spec = "xboard:/opt/fsf".parse().expect("a path");
        assert_eq!(xb, Spec::Xboard(PathBuf::from("/opt/fsf")));
        assert_eq!(xb.to_string(), "xboard:/opt/fsf");
        assert!(matches!(
            "fairy-stockfish-xboard".parse::<Spec>(),
            Ok(Spec::Xboard(_))
        ));
        assert!("xboard:".parse::<Spec>().is_err());
        assert!("stockfish".parse::<Spec>().is_err());
    }

    #[test]
    fn errors_say_what_was_expected() {
        assert_eq!(
            "uci:".parse::<Spec>().map_err(|e| e.to_string()),
            Err("uci: needs the engine's path, like uci:/usr/games/fairy-stockfish".to_owned())
        );
        assert_eq!(
            "xboard:".parse::<Spec>().map_err(|e| e.to_string()),
            Err(
                "xboard: needs the engine's path, like xboard:/usr/games/fairy-stockfish"
                    .to_owned()
            )
        );
        assert!("robot".parse::<Spec>().is_err_and(|e| e
            .to_string()
            .starts_with("invalid player \"robot\": expected bot")));
        assert_eq!(arena_preset("crazyhouse"), Err(PresetError::OneBoard));
        assert_eq!(arena_preset("fide"), Ok(Preset::Fide));
        assert!(arena_preset("chess960").is_err());
    }
}
