//! The four rulebooks an over-the-board table can follow, and the articles its decisions name.
//!
//! Article numbers are the rulebooks' own (`F` fide, `M` minerva-2014, `K` knsb-1988, `U`
//! uscf-scholastic-2006), as in `RULES.md`. The texts are in `rulebooks/` of the shared folder;
//! each variant's summary paraphrases the article in English.

use std::fmt;

use crate::rules::{Preset, Rules};

/// The rulebook of an over-the-board table: one of the four bughouse presets. Crazyhouse is a
/// single-board game and has no table of two boards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rulebook {
    /// Bughouse extension to the FIDE Laws of Chess (blitz base).
    Fide,
    /// JSV Minerva Bughouse reglement, January 2014.
    Minerva2014,
    /// Nederlands Doorgeefschaakreglement, edition 1988 (KNSB).
    Knsb1988,
    /// National Scholastic Bughouse Rules, revised August 2006 (US).
    UscfScholastic2006,
}

/// A preset that is not a bughouse rulebook (crazyhouse).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("an over-the-board table needs one of the four bughouse rulebooks, not {0:?}")]
pub struct NotABughouseRulebook(pub Preset);

impl Rulebook {
    /// All four.
    pub const ALL: [Rulebook; 4] = [
        Rulebook::Fide,
        Rulebook::Minerva2014,
        Rulebook::Knsb1988,
        Rulebook::UscfScholastic2006,
    ];

    /// The rulebook of a preset.
    ///
    /// # Errors
    ///
    /// [`NotABughouseRulebook`] for crazyhouse.
    pub fn from_preset(preset: Preset) -> Result<Rulebook, NotABughouseRulebook> {
        match preset {
            Preset::Fide => Ok(Rulebook::Fide),
            Preset::Minerva2014 => Ok(Rulebook::Minerva2014),
            Preset::Knsb1988 => Ok(Rulebook::Knsb1988),
            Preset::UscfScholastic2006 => Ok(Rulebook::UscfScholastic2006),
            Preset::Crazyhouse => Err(NotABughouseRulebook(preset)),
        }
    }

    /// The preset of this rulebook.
    pub const fn preset(self) -> Preset {
        match self {
            Rulebook::Fide => Preset::Fide,
            Rulebook::Minerva2014 => Preset::Minerva2014,
            Rulebook::Knsb1988 => Preset::Knsb1988,
            Rulebook::UscfScholastic2006 => Preset::UscfScholastic2006,
        }
    }

    /// The rules of the preset, for the rules engine (scoresheet moves).
    pub fn rules(self) -> Rules {
        self.preset().rules()
    }

    /// Whether the match ends with the first game to end (F4.3, M5.1, U7) or only when both
    /// have ended (K11G).
    pub fn match_ends_with_first_game(self) -> bool {
        self.rules().match_ends_with_first_game
    }

    /// The article under which both games start (F3.1, M6.4; **interp.** the same for K and U).
    pub const fn start_article(self) -> Article {
        match self {
            Rulebook::Fide => Article::F3_1,
            Rulebook::Minerva2014 => Article::M6_4,
            Rulebook::Knsb1988 => Article::K1E,
            Rulebook::UscfScholastic2006 => Article::U6,
        }
    }

    /// The article under which the clocks are stopped for the arbiter: F3.12, M10.1 (the arbiter
    /// acts on request), K15, U18.
    pub const fn arbiter_article(self) -> Article {
        match self {
            Rulebook::Fide => Article::F3_12,
            Rulebook::Minerva2014 => Article::M10_3,
            Rulebook::Knsb1988 => Article::K15,
            Rulebook::UscfScholastic2006 => Article::U18,
        }
    }

    /// The article under which the match ends: F4.3, M5.1, K11G, U7.
    pub const fn match_end_article(self) -> Article {
        match self {
            Rulebook::Fide => Article::F4_3,
            Rulebook::Minerva2014 => Article::M5_1,
            Rulebook::Knsb1988 => Article::K11G,
            Rulebook::UscfScholastic2006 => Article::U7,
        }
    }
}

impl fmt::Display for Rulebook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.preset().id())
    }
}

/// An article of one of the four rulebooks (or of the FIDE Laws they build on).
#[allow(non_camel_case_types)] // the rulebooks' own numbers read better than camel case
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Article {
    /// F3.1: both games start simultaneously.
    F3_1,
    /// F3.7: there are no insufficient-material draws in bughouse.
    F3_7,
    /// F3.11: a move is not final until the mover starts the opponent's clock.
    F3_11,
    /// F3.12: in a dispute, both players of a team may neutralise both clocks and call the
    /// referee.
    F3_12,
    /// F4: game completion has no move-count rule.
    F4,
    /// F4.1: a draw may be claimed when the same position has occurred four times on one board.
    F4_1,
    /// F4.2: an illegal move is completed once the clock is pressed; the opponent may claim the
    /// win before completing a move himself.
    F4_2,
    /// F4.3: the match ends as soon as one game ends.
    F4_3,
    /// FIDE Laws 6.9 and the blitz appendix (F1): a flag fall loses; both flags down, a draw.
    FideLaws6_9,
    /// M5.1: the match ends as soon as one game has ended.
    M5_1,
    /// M5.2: a flag fall loses, unless the opponent could not win by any sequence of legal moves,
    /// counting the pieces he has and could still receive from his partner: then a draw.
    M5_2,
    /// M5.4: no draw claims under FIDE 9.2 to 9.6.
    M5_4,
    /// M5.5: a draw when at least one clock of each team is down.
    M5_5,
    /// M6.4: the two Black players start both clocks at the same moment.
    M6_4,
    /// M7.1: a wrong initial position noticed before Black completes his third move: both games
    /// restart.
    M7_1,
    /// M7.2: colours swapped on one board: both games restart; on both boards: play on.
    M7_2,
    /// M7.3: an illegal move may be taken back before the clock is pressed.
    M7_3,
    /// M7.4: after the clock is pressed, the opponent may accept the illegal move or demand a
    /// legal replacement.
    M7_4,
    /// M7.5: the right to demand a replacement is lost once the opponent completes a move.
    M7_5,
    /// M7.6: demanding a replacement, the opponent may start the offender's clock without
    /// moving.
    M7_6,
    /// M7.7: a wrongly captured piece already passed comes back from the partner's reserve, or
    /// from the other board.
    M7_7,
    /// M10.1: the arbiter acts only when a player asks.
    M10_1,
    /// M10.2: the arbiter declares the draw of M5.5 as soon as he sees it.
    M10_2,
    /// M10.3: the arbiter decides where the rules are silent.
    M10_3,
    /// K1E: FIDE rules apply where the rulebook is silent (here: both games start together,
    /// **interp.** as M6.4).
    K1E,
    /// K8C: the opponent may restart the offender's clock and demand a legal replacement, until
    /// he completes a move himself.
    K8C,
    /// K8D: the offender may not replace the illegal move without the opponent's consent.
    K8D,
    /// K8E: a wrongly captured piece already passed comes back from the partner's reserve, or
    /// from the other board.
    K8E,
    /// K8F: deliberate or repeated illegal moves: the arbiter may declare the game lost.
    K8F,
    /// K11: the rulebook's game-end article replaces FIDE's; there is no repetition draw.
    K11,
    /// K11A2: a flag fall loses once the direct opponent has noticed it.
    K11A2,
    /// K11D: both flags of a game down: a draw once either player notices.
    K11D,
    /// K11E: a draw if the flagged player shows his opponent could never have mated.
    K11E,
    /// K11F: a draw claim after 30 moves without capture, drop or move of an unpromoted pawn.
    K11F,
    /// K11G: the match ends when both games have ended.
    K11G,
    /// K15: the arbiter decides where the rules are silent.
    K15,
    /// U6: a move is not completed until the opponent's clock has been started.
    U6,
    /// U7: the match ends as soon as one player wins.
    U7,
    /// U8: an illegal move loses if caught before the claimant moves.
    U8,
    /// U8a: the right to claim is lost once the claimant moves and starts the clock.
    U8a,
    /// U8b: set-up and clock claims are void once each side has moved.
    U8b,
    /// U8c: illegal moves unnoticed cannot be corrected; wrong set-ups stay once each side has
    /// moved.
    U8c,
    /// U15a3: a flag claim wins while the claimant's own flag is up.
    U15a3,
    /// U15a4: after an illegal move, the opponent wins by stopping the clock.
    U15a4,
    /// U15a5: illegal-move and flag claims made at once: the illegal mover loses.
    U15a5,
    /// U16: draws only by agreement or flags.
    U16,
    /// U16b: the second flag falls before a win is claimed: a draw.
    U16b,
    /// U24: no insufficient-losing-chances claims.
    U24,
    /// U18: in a dispute either player may stop both clocks; the director decides.
    U18,
}

impl Article {
    /// The article as the rulebook numbers it: `M7.4`, `K11A2`, `U15a3`.
    pub const fn code(self) -> &'static str {
        match self {
            Article::F3_1 => "F3.1",
            Article::F3_7 => "F3.7",
            Article::F3_11 => "F3.11",
            Article::F3_12 => "F3.12",
            Article::F4 => "F4",
            Article::F4_1 => "F4.1",
            Article::F4_2 => "F4.2",
            Article::F4_3 => "F4.3",
            Article::FideLaws6_9 => "FIDE 6.9",
            Article::M5_1 => "M5.1",
            Article::M5_2 => "M5.2",
            Article::M5_4 => "M5.4",
            Article::M5_5 => "M5.5",
            Article::M6_4 => "M6.4",
            Article::M7_1 => "M7.1",
            Article::M7_2 => "M7.2",
            Article::M7_3 => "M7.3",
            Article::M7_4 => "M7.4",
            Article::M7_5 => "M7.5",
            Article::M7_6 => "M7.6",
            Article::M7_7 => "M7.7",
            Article::M10_1 => "M10.1",
            Article::M10_2 => "M10.2",
            Article::M10_3 => "M10.3",
            Article::K1E => "K1E",
            Article::K8C => "K8C",
            Article::K8D => "K8D",
            Article::K8E => "K8E",
            Article::K8F => "K8F",
            Article::K11 => "K11",
            Article::K11A2 => "K11A2",
            Article::K11D => "K11D",
            Article::K11E => "K11E",
            Article::K11F => "K11F",
            Article::K11G => "K11G",
            Article::K15 => "K15",
            Article::U6 => "U6",
            Article::U7 => "U7",
            Article::U8 => "U8",
            Article::U8a => "U8a",
            Article::U8b => "U8b",
            Article::U8c => "U8c",
            Article::U15a3 => "U15a3",
            Article::U15a4 => "U15a4",
            Article::U15a5 => "U15a5",
            Article::U16 => "U16",
            Article::U16b => "U16b",
            Article::U18 => "U18",
            Article::U24 => "U24",
        }
    }

    /// Every article, in the order above.
    pub const ALL: [Article; 49] = [
        Article::F3_1,
        Article::F3_7,
        Article::F3_11,
        Article::F3_12,
        Article::F4,
        Article::F4_1,
        Article::F4_2,
        Article::F4_3,
        Article::FideLaws6_9,
        Article::M5_1,
        Article::M5_2,
        Article::M5_4,
        Article::M5_5,
        Article::M6_4,
        Article::M7_1,
        Article::M7_2,
        Article::M7_3,
        Article::M7_4,
        Article::M7_5,
        Article::M7_6,
        Article::M7_7,
        Article::M10_1,
        Article::M10_2,
        Article::M10_3,
        Article::K1E,
        Article::K8C,
        Article::K8D,
        Article::K8E,
        Article::K8F,
        Article::K11,
        Article::K11A2,
        Article::K11D,
        Article::K11E,
        Article::K11F,
        Article::K11G,
        Article::K15,
        Article::U6,
        Article::U7,
        Article::U8,
        Article::U8a,
        Article::U8b,
        Article::U8c,
        Article::U15a3,
        Article::U15a4,
        Article::U15a5,
        Article::U16,
        Article::U16b,
        Article::U18,
        Article::U24,
    ];

    /// The article with this code, if any.
    pub fn from_code(code: &str) -> Option<Article> {
        Article::ALL.into_iter().find(|a| a.code() == code)
    }
}

impl fmt::Display for Article {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
