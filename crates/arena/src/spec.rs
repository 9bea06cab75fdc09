//! Who plays for a team ([`Spec`], as `bughouse arena --team1` reads it) and which presets the
//! arena plays.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use bughouse_core::Preset;
use bughouse_engine::{EngineParams, Level, ParseLevelError, SearchConfig};

/// Who plays for a team.
///
/// Options follow a `?`, separated by `&`: `bot:8?eval=tuned.txt&search=base` (search names:
/// `bughouse_engine::SearchConfig::named`),
/// `uci:/usr/games/fairy-stockfish?Skill Level=5`, `fairy-stockfish?Skill Level=5&Hash=32`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// Our engine at this level, with its options.
    Bot(Level, BotOptions),
    /// An outside UCI engine at this path, with `setoption` name/value pairs sent after
    /// `UCI_Variant`.
    Uci(PathBuf, Vec<(String, String)>),
    /// An outside XBoard engine at this path.
    Xboard(PathBuf),
}

/// Options of our bot in a [`Spec`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BotOptions {
    /// `eval=FILE`: evaluation weights and search margins read from a file written by
    /// `bughouse tune` (`EngineParams`).
    pub eval: Option<(PathBuf, Box<EngineParams>)>,
    /// `search=NAME`: a search configuration by name (`SearchConfig::named`: `base` is the
    /// search before the drop-aware pruning), for A/B matches.
    pub search: Option<String>,
}

impl Spec {
    /// Our bot at `level` with default options.
    pub fn bot(level: Level) -> Spec {
        Spec::Bot(level, BotOptions::default())
    }

    /// An outside UCI engine without options.
    pub fn uci(path: impl Into<PathBuf>) -> Spec {
        Spec::Uci(path.into(), Vec::new())
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Bot(level, options) => {
                write!(f, "bot:{level}")?;
                let mut opts = Vec::new();
                if let Some((path, _)) = &options.eval {
                    opts.push(format!("eval={}", path.display()));
                }
                if let Some(name) = &options.search {
                    opts.push(format!("search={name}"));
                }
                if !opts.is_empty() {
                    write!(f, "?{}", opts.join("&"))?;
                }
                Ok(())
            }
            Spec::Uci(path, options) => {
                write!(f, "uci:{}", path.display())?;
                if !options.is_empty() {
                    let opts: Vec<String> =
                        options.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    write!(f, "?{}", opts.join("&"))?;
                }
                Ok(())
            }
            Spec::Xboard(path) => write!(f, "xboard:{}", path.display()),
        }
    }
}

/// `k=v&k=v` into pairs.
fn options(text: &str) -> Result<Vec<(String, String)>, SpecError> {
    text.split('&')
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
                .filter(|(k, _)| !k.is_empty())
                .ok_or_else(|| SpecError::Option(kv.to_owned()))
        })
        .collect()
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Spec, SpecError> {
        let (s, opts) = match s.split_once('?') {
            Some((head, tail)) => (head, options(tail)?),
            None => (s, Vec::new()),
        };
        if s == "bot" || s.starts_with("bot:") {
            let level = match s.strip_prefix("bot:") {
                None => Level::DEFAULT,
                Some(level) => level.parse::<Level>().map_err(|source| SpecError::Level {
                    text: level.to_owned(),
                    source,
                })?,
            };
            let mut bot = BotOptions::default();
            for (k, v) in opts {
                match k.as_str() {
                    "eval" => {
                        let path = PathBuf::from(&v);
                        let params =
                            EngineParams::from_file(&path).map_err(|e| SpecError::EvalFile {
                                path: v.clone(),
                                message: e.to_string(),
                            })?;
                        bot.eval = Some((path, Box::new(params)));
                    }
                    "search" if SearchConfig::named(&v).is_some() => bot.search = Some(v),
                    _ => return Err(SpecError::Option(format!("{k}={v}"))),
                }
            }
            return Ok(Spec::Bot(level, bot));
        }
        let no_options = |spec: Spec, opts: Vec<(String, String)>| {
            if let Some((k, v)) = opts.into_iter().next() {
                Err(SpecError::Option(format!("{k}={v}")))
            } else {
                Ok(spec)
            }
        };
        if s == "fairy-stockfish" {
            return Ok(Spec::Uci(fairy_stockfish_path(), opts));
        }
        if s == "fairy-stockfish-xboard" {
            return no_options(Spec::Xboard(fairy_stockfish_path()), opts);
        }
        if let Some(path) = s.strip_prefix("xboard:") {
            if path.is_empty() {
                return Err(SpecError::NoPath("xboard"));
            }
            return no_options(Spec::Xboard(PathBuf::from(path)), opts);
        }
        if let Some(path) = s.strip_prefix("uci:") {
            if path.is_empty() {
                return Err(SpecError::NoPath("uci"));
            }
            return Ok(Spec::Uci(PathBuf::from(path), opts));
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
    /// An option that is not `name=value`, or one this kind of player does not take.
    #[error(
        "invalid option {0:?}: bots take eval=FILE and search={names}, UCI engines NAME=VALUE, XBoard engines none",
        names = SearchConfig::names()
    )]
    Option(String),
    /// `eval=FILE` that cannot be read.
    #[error("eval={path}: {message}")]
    EvalFile {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
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
        assert_eq!("bot".parse::<Spec>(), Ok(Spec::bot(Level::DEFAULT)));
        let three = Level::new(3).expect("level 3 exists");
        assert_eq!("bot:3".parse::<Spec>(), Ok(Spec::bot(three)));
        assert_eq!(Spec::bot(three).to_string(), "bot:3");
        let base: Spec = "bot:3?search=base".parse().expect("an option");
        assert_eq!(base.to_string(), "bot:3?search=base");
        assert!(
            matches!(base, Spec::Bot(_, BotOptions { search: Some(ref s), .. }) if s == "base")
        );
        let fast = "bot?search=fast".parse::<Spec>().unwrap_err().to_string();
        // The error names every configuration there is.
        assert!(fast.contains("search=base|drops|"), "{fast}");
        for (name, _) in SearchConfig::NAMED {
            assert!(
                fast.contains(&format!("{name}|")) || fast.contains(&format!("{name},")),
                "{name}: {fast}"
            );
        }
        assert!("bot?eval=/nonexistent/weights.txt"
            .parse::<Spec>()
            .is_err_and(|e| e.to_string().starts_with("eval=/nonexistent/weights.txt: ")));
        assert!("bot?depth=3".parse::<Spec>().is_err());
        let uci: Spec = "uci:/opt/fsf".parse().expect("a path");
        assert_eq!(uci, Spec::uci("/opt/fsf"));
        assert_eq!(uci.to_string(), "uci:/opt/fsf");
        let skill: Spec = "uci:/opt/fsf?Skill Level=5&Hash=16"
            .parse()
            .expect("options");
        assert_eq!(
            skill,
            Spec::Uci(
                PathBuf::from("/opt/fsf"),
                vec![
                    ("Skill Level".to_owned(), "5".to_owned()),
                    ("Hash".to_owned(), "16".to_owned())
                ]
            )
        );
        assert_eq!(skill.to_string(), "uci:/opt/fsf?Skill Level=5&Hash=16");
        assert!("uci:/opt/fsf?Skill Level".parse::<Spec>().is_err());
        assert!("xboard:/opt/fsf?Hash=1".parse::<Spec>().is_err());
        assert!(matches!(
            "fairy-stockfish".parse::<Spec>(),
            Ok(Spec::Uci(_, _))
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
