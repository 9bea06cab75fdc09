//! Rules as data: one field per decision point of the "Moves, drops, promotion" and
//! "End of a game" tables of `RULES.md`, and one constructor per rulebook preset.
//!
//! Article numbers are the rulebooks' own: `F` fide, `M` minerva-2014, `K` knsb-1988,
//! `U` uscf-scholastic-2006. Where a rulebook is silent the value is the project's
//! interpretation, marked **interp.** next to the preset value, naming the article it extends.
//!
//! Two rows of the "Moves" table are not fields because every rulebook says the same and the
//! engine has exactly one behaviour for them:
//! - *own king left in check*: illegal in all four (F3.4, FIDE base); the engine generates
//!   legal moves only.
//! - *pawn on its 2nd rank* (F3.5; **interp.** M, K, U the same): any pawn standing on its own
//!   second rank may advance two squares, whether it was dropped there or not, and may then be
//!   taken en passant. This is the ordinary pawn rule applied to every pawn.

use std::fmt;
use std::str::FromStr;

/// Where a captured piece goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CaptureDestination {
    /// Bughouse: to the capturer's partner on the other board (F3.2, M2.1, K3, U9). On a single
    /// board it leaves the board; the two-board game puts it into the partner's reserve.
    Partner,
    /// Crazyhouse: into the capturer's own reserve, changing colour.
    Capturer,
}

/// Where a piece may be dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DropSquares {
    /// Any empty square (F3.4, M2.3, K5A, U10a).
    AnyEmpty,
    /// Only empty squares in the dropper's own half (ranks 1-4 for White, 5-8 for Black), a
    /// house rule some clubs play.
    OwnHalf,
}

/// Whether a drop may give check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DropCheck {
    /// A drop may give check and mate (F3.4, M2.4, U10b).
    Allowed,
    /// A drop may not put the enemy king in check, and so a mating drop is also forbidden
    /// (K5A).
    Forbidden,
}

/// What a promoted piece becomes when it is captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PromotedCapture {
    /// It is passed on as a pawn (F3.6, M3.3, K6B, U10c).
    Pawn,
    /// It is passed on as the piece it was promoted to (house rule).
    Piece,
}

/// Whether the reserves must be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ReserveVisibility {
    /// Always visible to the other team (F3.3, M2.6, U11).
    Always,
    /// Shown when the opponent asks (K12). Online, a request is a click, so interfaces may
    /// simply show them.
    OnRequest,
}

/// When a player in check with no legal move is checkmated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MateRule {
    /// FIDE base: in check and no legal move with the reserve he has now.
    Classic,
    /// Mate only if no piece he could ever receive could be dropped to block the check: every
    /// piece of his colour in the two sets that is not on his board counts as potentially in
    /// reserve (a promoted piece counts as a pawn), so mate needs a contact check, a knight
    /// check, a double check, or all usable blockers on his board (F3.7, U15a1a). Otherwise the
    /// verdict is [`crate::Verdict::Waiting`].
    Unblockable,
}

/// What happens to a player with no legal move who is not in check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum NoMoveRule {
    /// Stalemate, a draw (FIDE base).
    Stalemate,
    /// He waits for a piece from his partner, unless no piece of his colour could ever be
    /// dropped (all are on his board, or none fits an empty square): then stalemate (F3.7).
    Wait,
}

/// What a flag fall means. Applied by the two-board game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FlagRule {
    /// The flagged player loses (FIDE blitz base; U15a3 when claimed).
    Loss,
    /// The flagged player loses unless his opponent could never mate him, counting the pieces
    /// the opponent has and could still receive from his partner: then a draw (M5.2, K11E).
    LossUnlessOpponentCannotMate,
}

/// What happens when flags fall on both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BothFlagsRule {
    /// Both flags of one game down: a draw of that game (blitz base; K11D; U16b unless a mate
    /// came first).
    DrawOnSameBoard,
    /// As soon as at least one clock of each team is down, on either board, the match is drawn
    /// (M5.5, M10.2).
    DrawWhenEachTeamFlagged,
}

/// When a player may resign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ResignRule {
    /// At any time (fide, M, U15a2).
    AnyTime,
    /// Only when it is his move (K11B).
    OnMove,
}

/// Who agrees a draw, and what it decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DrawAgreement {
    /// Both players of one team offer, both opponents accept; it decides the match (F4.5).
    TeamOffersOpponentsAccept,
    /// All four players must agree (M5.3).
    AllFour,
    /// The two players of one game (K11C).
    SameGame,
    /// Team against team (U16a).
    TeamAgainstTeam,
}

/// What an illegal move means when recorded from a physical game. Online play refuses illegal
/// moves outright; this field is for recording and adjudication.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum IllegalMoveRule {
    /// The opponent may claim the win before making his own move (F4.2; U8, U15a4).
    OpponentMayClaimWin,
    /// The opponent may accept it or demand a legal replacement before his own next move
    /// (M7.3-M7.6, K8C-K8E).
    OpponentMayDemandReplacement,
}

/// What partners may say to each other during play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PartnerTalk {
    /// Anything that does not annoy the opponents: move suggestions, "sit", advice (F3.10, U12).
    Anything,
    /// Only asking for pieces (M9.2), warning that a piece wins for the opponent (M9.3), telling
    /// the partner to stop moving (M9.4) and that his opponent's flag fell (M9.5).
    MinervaKinds,
    /// Only asking for pieces; no advice, no flag alerts, also after one's own game ended (K14).
    PieceRequestsOnly,
}

/// Rules for one board and the match around it.
///
/// One field per decision point of the "Moves, drops, promotion" and "End of a game" tables of
/// `RULES.md`. Build one from a preset ([`Rules::fide`], [`Rules::minerva_2014`],
/// [`Rules::knsb_1988`], [`Rules::uscf_scholastic_2006`], [`Rules::crazyhouse`]) and change
/// fields to make a custom set.
///
/// # Examples
///
/// ```
/// use bughouse_core::{DropCheck, Rules};
///
/// let rules: Rules = "knsb-1988".parse().unwrap();
/// assert_eq!(rules.drop_check, DropCheck::Forbidden);
/// let custom = Rules { drop_check: DropCheck::Allowed, ..rules };
/// assert_ne!(custom, rules);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// Where a captured piece goes.
    pub capture_destination: CaptureDestination,
    /// Whether a move may be a drop from the player's reserve (F3.4, M2.2, K4, U10). `false`
    /// plays chess without drops.
    pub drops: bool,
    /// Where a piece may be dropped.
    pub drop_squares: DropSquares,
    /// Whether a pawn may be dropped on rank 1 or 8 (forbidden in all four: F3.4, M2.5, K5B,
    /// U10a).
    pub pawn_drop_on_back_rank: bool,
    /// Whether a drop may give check.
    pub drop_check: DropCheck,
    /// Whether a rook dropped on its original corner may castle while its king has not moved
    /// (F3.5). When `true`, a castling right is lost only when the king moves; when `false`, a
    /// right once lost never comes back.
    pub castle_with_dropped_rook: bool,
    /// The roles a pawn may promote to: Q, R, B and N in all four (F3.6, M3.1, K6A, U21).
    pub promotion_roles: PromotionRoles,
    /// What a captured promoted piece becomes.
    pub promoted_capture: PromotedCapture,
    /// Whether the reserves are public.
    pub reserves_visible: ReserveVisibility,
    /// When a check with no legal move is mate.
    pub mate: MateRule,
    /// No legal move and not in check.
    pub no_move: NoMoveRule,
    /// The number of occurrences of the same board position (reserves not included) at which
    /// the player to move may claim a draw; `None` when there is no such claim.
    pub repetition_claim: Option<u32>,
    /// The number of moves by each side with no capture, no drop and no move of an unpromoted
    /// pawn after which a draw may be claimed; `None` when there is no such claim.
    pub move_count_claim: Option<u32>,
    /// Whether a position where neither side could ever mate is a draw by itself. `false` in
    /// all four: in bughouse material can always still come (F3.7, M5.4, U24); K11E and M5.2
    /// use the question only at a flag fall, see [`Rules::flag`].
    pub insufficient_material_draw: bool,
    /// What a flag fall means.
    pub flag: FlagRule,
    /// What flags down on both sides mean.
    pub both_flags: BothFlagsRule,
    /// When a player may resign.
    pub resign: ResignRule,
    /// Who agrees a draw.
    pub draw_agreement: DrawAgreement,
    /// What an illegal move means in a physical game.
    pub illegal_move: IllegalMoveRule,
    /// Whether the match ends with the first game to end (F4.3, M5.1, U7) or only when both
    /// games have ended, each scoring on its own (K11G).
    pub match_ends_with_first_game: bool,
    /// What partners may say to each other (the "Partners talking" row of `RULES.md`).
    pub partner_talk: PartnerTalk,
}

/// A set of roles a pawn may promote to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PromotionRoles {
    bits: u8,
}

impl PromotionRoles {
    /// Queen, rook, bishop and knight.
    pub const STANDARD: PromotionRoles = PromotionRoles { bits: 0b1111 };

    /// Whether a pawn may promote to `role`.
    pub const fn contains(self, role: shakmaty::Role) -> bool {
        match role {
            shakmaty::Role::Knight => self.bits & 1 != 0,
            shakmaty::Role::Bishop => self.bits & 2 != 0,
            shakmaty::Role::Rook => self.bits & 4 != 0,
            shakmaty::Role::Queen => self.bits & 8 != 0,
            _ => false,
        }
    }

    /// Only the given roles (pawns and kings are ignored).
    pub fn from_roles(roles: &[shakmaty::Role]) -> PromotionRoles {
        let mut bits = 0;
        for role in roles {
            bits |= match role {
                shakmaty::Role::Knight => 1,
                shakmaty::Role::Bishop => 2,
                shakmaty::Role::Rook => 4,
                shakmaty::Role::Queen => 8,
                _ => 0,
            };
        }
        PromotionRoles { bits }
    }

    /// The roles in the set, strongest first.
    pub fn iter(self) -> impl Iterator<Item = shakmaty::Role> {
        [
            shakmaty::Role::Queen,
            shakmaty::Role::Rook,
            shakmaty::Role::Bishop,
            shakmaty::Role::Knight,
        ]
        .into_iter()
        .filter(move |&r| self.contains(r))
    }
}

/// A rule choice with a fixed set of values, named as in [`Rules::describe`].
trait RuleValue: Copy + 'static {
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
}

macro_rules! rule_values {
    ($($t:ident { $($v:ident),+ $(,)? })+) => {
        $(
            impl RuleValue for $t {
                const ALL: &'static [Self] = &[$($t::$v),+];
                fn name(self) -> &'static str {
                    match self {
                        $($t::$v => stringify!($v)),+
                    }
                }
            }
        )+
    };
}

rule_values! {
    CaptureDestination { Partner, Capturer }
    DropSquares { AnyEmpty, OwnHalf }
    DropCheck { Allowed, Forbidden }
    PromotedCapture { Pawn, Piece }
    ReserveVisibility { Always, OnRequest }
    MateRule { Classic, Unblockable }
    NoMoveRule { Stalemate, Wait }
    FlagRule { Loss, LossUnlessOpponentCannotMate }
    BothFlagsRule { DrawOnSameBoard, DrawWhenEachTeamFlagged }
    ResignRule { AnyTime, OnMove }
    DrawAgreement { TeamOffersOpponentsAccept, AllFour, SameGame, TeamAgainstTeam }
    IllegalMoveRule { OpponentMayClaimWin, OpponentMayDemandReplacement }
    PartnerTalk { Anything, MinervaKinds, PieceRequestsOnly }
}

/// A custom rule field that could not be set: which field, which value, what it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleFieldError {
    /// The field name.
    pub field: String,
    /// The value given.
    pub value: String,
    /// What the field takes.
    pub expected: String,
}

impl fmt::Display for RuleFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rule {:?} cannot be {:?}: expected {}",
            self.field, self.value, self.expected
        )
    }
}

impl std::error::Error for RuleFieldError {}

/// A named preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Preset {
    /// Bughouse extension to the FIDE Laws of Chess.
    Fide,
    /// JSV Minerva Bughouse reglement, January 2014.
    Minerva2014,
    /// Nederlands Doorgeefschaakreglement, edition 1988 (KNSB).
    Knsb1988,
    /// National Scholastic Bughouse Rules, revised August 2006 (US).
    UscfScholastic2006,
    /// Single-board crazyhouse: captures go to the capturer's own reserve.
    Crazyhouse,
}

impl Preset {
    /// Every preset, in the order `bughouse rules` lists them.
    pub const ALL: [Preset; 5] = [
        Preset::Fide,
        Preset::Minerva2014,
        Preset::Knsb1988,
        Preset::UscfScholastic2006,
        Preset::Crazyhouse,
    ];

    /// The id used on the command line and in files.
    pub const fn id(self) -> &'static str {
        match self {
            Preset::Fide => "fide",
            Preset::Minerva2014 => "minerva-2014",
            Preset::Knsb1988 => "knsb-1988",
            Preset::UscfScholastic2006 => "uscf-scholastic-2006",
            Preset::Crazyhouse => "crazyhouse",
        }
    }

    /// A one-line description.
    pub const fn description(self) -> &'static str {
        match self {
            Preset::Fide => {
                "Bughouse extension to the FIDE Laws: drops may mate, dropped rooks castle, mate only if no drop could ever block"
            }
            Preset::Minerva2014 => {
                "JSV Minerva reglement 2014: FIDE base mate and stalemate, flag fall drawn if the opponent could never mate"
            }
            Preset::Knsb1988 => {
                "KNSB reglement 1988: no checking drops, 30-move rule, both games played out and scored apart"
            }
            Preset::UscfScholastic2006 => {
                "US National Scholastic rules 2006: players wait for blocking pieces, the first win ends the match"
            }
            Preset::Crazyhouse => {
                "Single-board crazyhouse: captured pieces go to the capturer's own reserve"
            }
        }
    }

    /// The rules of this preset.
    pub const fn rules(self) -> Rules {
        match self {
            Preset::Fide => Rules::fide(),
            Preset::Minerva2014 => Rules::minerva_2014(),
            Preset::Knsb1988 => Rules::knsb_1988(),
            Preset::UscfScholastic2006 => Rules::uscf_scholastic_2006(),
            Preset::Crazyhouse => Rules::crazyhouse(),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// An unknown preset name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules preset {name:?}: expected one of fide, minerva-2014, knsb-1988, uscf-scholastic-2006, crazyhouse")]
pub struct UnknownPreset {
    /// The name that was given.
    pub name: String,
}

impl FromStr for Preset {
    type Err = UnknownPreset;

    fn from_str(s: &str) -> Result<Preset, UnknownPreset> {
        Preset::ALL
            .into_iter()
            .find(|p| p.id() == s)
            .or(match s {
                "minerva" => Some(Preset::Minerva2014),
                "knsb" => Some(Preset::Knsb1988),
                "uscf" | "uscf-scholastic" => Some(Preset::UscfScholastic2006),
                _ => None,
            })
            .ok_or_else(|| UnknownPreset { name: s.to_owned() })
    }
}

impl FromStr for Rules {
    type Err = UnknownPreset;

    fn from_str(s: &str) -> Result<Rules, UnknownPreset> {
        s.parse::<Preset>().map(Preset::rules)
    }
}

impl Default for Rules {
    /// The fide preset.
    fn default() -> Rules {
        Rules::fide()
    }
}

impl Rules {
    /// Bughouse extension to the FIDE Laws of Chess (blitz base).
    pub const fn fide() -> Rules {
        Rules {
            capture_destination: CaptureDestination::Partner, // F3.2
            drops: true,                                      // F3.4
            drop_squares: DropSquares::AnyEmpty,              // F3.4
            pawn_drop_on_back_rank: false,                    // F3.4
            drop_check: DropCheck::Allowed,                   // F3.4
            castle_with_dropped_rook: true,                   // F3.5
            promotion_roles: PromotionRoles::STANDARD,        // F3.6
            promoted_capture: PromotedCapture::Pawn,          // F3.6
            reserves_visible: ReserveVisibility::Always,      // F3.3
            mate: MateRule::Unblockable,                      // F3.7
            no_move: NoMoveRule::Wait,                        // F3.7
            repetition_claim: Some(4),                        // F4.1
            move_count_claim: None,                           // F1: blitz base, none listed
            insufficient_material_draw: false,                // F3.7
            flag: FlagRule::Loss,                             // F1: FIDE blitz base
            both_flags: BothFlagsRule::DrawOnSameBoard,       // F1: FIDE blitz base
            resign: ResignRule::AnyTime,
            draw_agreement: DrawAgreement::TeamOffersOpponentsAccept, // F4.5
            illegal_move: IllegalMoveRule::OpponentMayClaimWin,       // F4.2
            match_ends_with_first_game: true,                         // F4.3
            partner_talk: PartnerTalk::Anything,                      // F3.10
        }
    }

    /// JSV Minerva Bughouse reglement v1.0, January 2014.
    pub const fn minerva_2014() -> Rules {
        Rules {
            // M2.1 says the capturer is *entitled* ("bevoegd") to pass the piece.
            // interp. (M2.1): online the piece always passes.
            capture_destination: CaptureDestination::Partner,
            drops: true,                         // M2.2
            drop_squares: DropSquares::AnyEmpty, // M2.3
            pawn_drop_on_back_rank: false,       // M2.5
            drop_check: DropCheck::Allowed,      // M2.4
            // interp. (M2, FIDE base): castling rights, once lost, never return.
            castle_with_dropped_rook: false,
            promotion_roles: PromotionRoles::STANDARD, // M3.1
            promoted_capture: PromotedCapture::Pawn,   // M3.3
            reserves_visible: ReserveVisibility::Always, // M2.6
            // interp. (M5, FIDE base): in check with no legal move using the reserve he has now.
            mate: MateRule::Classic,
            // interp. (M5, FIDE base): no legal move and no check is stalemate, a draw.
            no_move: NoMoveRule::Stalemate,
            repetition_claim: None,                             // M5.4
            move_count_claim: None,                             // M5.4
            insufficient_material_draw: false,                  // M5.4
            flag: FlagRule::LossUnlessOpponentCannotMate,       // M5.2
            both_flags: BothFlagsRule::DrawWhenEachTeamFlagged, // M5.5, M10.2
            resign: ResignRule::AnyTime,
            draw_agreement: DrawAgreement::AllFour, // M5.3
            illegal_move: IllegalMoveRule::OpponentMayDemandReplacement, // M7.3-M7.6
            match_ends_with_first_game: true,       // M5.1
            partner_talk: PartnerTalk::MinervaKinds, // M9.2-M9.5
        }
    }

    /// Nederlands Doorgeefschaakreglement, edition 1988 (KNSB).
    pub const fn knsb_1988() -> Rules {
        Rules {
            // K3 says the capturer is *entitled* ("bevoegd") to pass the piece.
            // interp. (K3): the piece always passes.
            capture_destination: CaptureDestination::Partner,
            drops: true,                         // K4
            drop_squares: DropSquares::AnyEmpty, // K5A
            pawn_drop_on_back_rank: false,       // K5B
            drop_check: DropCheck::Forbidden,    // K5A
            // interp. (K1E, FIDE base): castling rights, once lost, never return.
            castle_with_dropped_rook: false,
            promotion_roles: PromotionRoles::STANDARD, // K6A
            promoted_capture: PromotedCapture::Pawn,   // K6B
            reserves_visible: ReserveVisibility::OnRequest, // K12
            // interp. (K1E, FIDE base): in check with no legal move using the reserve he has now.
            mate: MateRule::Classic,
            // interp. (K1E, FIDE base): stalemate, a draw.
            no_move: NoMoveRule::Stalemate,
            repetition_claim: None,            // K11 replaces FIDE's article
            move_count_claim: Some(30),        // K11F
            insufficient_material_draw: false, // K11E: only at a flag fall
            flag: FlagRule::LossUnlessOpponentCannotMate, // K11A2, K11E
            both_flags: BothFlagsRule::DrawOnSameBoard, // K11D
            resign: ResignRule::OnMove,        // K11B
            draw_agreement: DrawAgreement::SameGame, // K11C
            illegal_move: IllegalMoveRule::OpponentMayDemandReplacement, // K8C-K8E
            match_ends_with_first_game: false, // K11G
            partner_talk: PartnerTalk::PieceRequestsOnly, // K14
        }
    }

    /// National Scholastic Bughouse Rules, revised August 2006 (US).
    pub const fn uscf_scholastic_2006() -> Rules {
        Rules {
            capture_destination: CaptureDestination::Partner, // U9
            drops: true,                                      // U10
            drop_squares: DropSquares::AnyEmpty,              // U10a
            pawn_drop_on_back_rank: false,                    // U10a
            drop_check: DropCheck::Allowed,                   // U10b
            // interp. (U21, chess base): castling rights, once lost, never return.
            castle_with_dropped_rook: false,
            promotion_roles: PromotionRoles::STANDARD, // U21
            promoted_capture: PromotedCapture::Pawn,   // U10c
            reserves_visible: ReserveVisibility::Always, // U11
            mate: MateRule::Unblockable,               // U15a1a
            // interp. (U15a1a by analogy): a player with no move waits for a piece, as in fide.
            no_move: NoMoveRule::Wait,
            repetition_claim: None,                             // U16
            move_count_claim: None,                             // U16
            insufficient_material_draw: false,                  // U24
            flag: FlagRule::Loss,                               // U15a3
            both_flags: BothFlagsRule::DrawOnSameBoard,         // U16b
            resign: ResignRule::AnyTime,                        // U15a2
            draw_agreement: DrawAgreement::TeamAgainstTeam,     // U16a
            illegal_move: IllegalMoveRule::OpponentMayClaimWin, // U8, U15a4
            // U7; interp. (U16b): a game drawn on its own also ends the match, drawn.
            match_ends_with_first_game: true,
            partner_talk: PartnerTalk::Anything, // U12
        }
    }

    /// Single-board crazyhouse, as lichess, FICS and Fairy-Stockfish play it: captures go to the
    /// capturer's own reserve; drops may give check and mate; FIDE mate and stalemate.
    pub const fn crazyhouse() -> Rules {
        Rules {
            capture_destination: CaptureDestination::Capturer,
            drops: true,
            drop_squares: DropSquares::AnyEmpty,
            pawn_drop_on_back_rank: false,
            drop_check: DropCheck::Allowed,
            castle_with_dropped_rook: false,
            promotion_roles: PromotionRoles::STANDARD,
            promoted_capture: PromotedCapture::Pawn,
            reserves_visible: ReserveVisibility::Always,
            mate: MateRule::Classic,
            no_move: NoMoveRule::Stalemate,
            repetition_claim: Some(3),
            move_count_claim: Some(50),
            insufficient_material_draw: false,
            flag: FlagRule::Loss,
            both_flags: BothFlagsRule::DrawOnSameBoard,
            resign: ResignRule::AnyTime,
            draw_agreement: DrawAgreement::SameGame,
            illegal_move: IllegalMoveRule::OpponentMayClaimWin,
            match_ends_with_first_game: true,
            partner_talk: PartnerTalk::Anything,
        }
    }

    /// How many sets of pieces of each colour the match holds: two in bughouse, one in
    /// crazyhouse.
    pub const fn sets(&self) -> u8 {
        match self.capture_destination {
            CaptureDestination::Partner => 2,
            CaptureDestination::Capturer => 1,
        }
    }

    /// Every field with its value, one `name = value` per line.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        Rules::FIELDS
            .iter()
            .map(|&f| (f, self.get(f).unwrap_or_default()))
            .collect()
    }

    /// The names of the fields, in the order of the struct and of [`Rules::describe`].
    pub const FIELDS: [&'static str; 21] = [
        "capture_destination",
        "drops",
        "drop_squares",
        "pawn_drop_on_back_rank",
        "drop_check",
        "castle_with_dropped_rook",
        "promotion_roles",
        "promoted_capture",
        "reserves_visible",
        "mate",
        "no_move",
        "repetition_claim",
        "move_count_claim",
        "insufficient_material_draw",
        "flag",
        "both_flags",
        "resign",
        "draw_agreement",
        "illegal_move",
        "match_ends_with_first_game",
        "partner_talk",
    ];

    /// The value of a field as text (`Forbidden`, `true`, `3`, `none`, `QRBN`), or `None` for an
    /// unknown field name.
    pub fn get(&self, field: &str) -> Option<String> {
        let opt = |v: Option<u32>| v.map_or_else(|| "none".to_owned(), |n| n.to_string());
        Some(match field {
            "capture_destination" => self.capture_destination.name().to_owned(),
            "drops" => self.drops.to_string(),
            "drop_squares" => self.drop_squares.name().to_owned(),
            "pawn_drop_on_back_rank" => self.pawn_drop_on_back_rank.to_string(),
            "drop_check" => self.drop_check.name().to_owned(),
            "castle_with_dropped_rook" => self.castle_with_dropped_rook.to_string(),
            "promotion_roles" => self
                .promotion_roles
                .iter()
                .map(|r| r.upper_char())
                .collect(),
            "promoted_capture" => self.promoted_capture.name().to_owned(),
            "reserves_visible" => self.reserves_visible.name().to_owned(),
            "mate" => self.mate.name().to_owned(),
            "no_move" => self.no_move.name().to_owned(),
            "repetition_claim" => opt(self.repetition_claim),
            "move_count_claim" => opt(self.move_count_claim),
            "insufficient_material_draw" => self.insufficient_material_draw.to_string(),
            "flag" => self.flag.name().to_owned(),
            "both_flags" => self.both_flags.name().to_owned(),
            "resign" => self.resign.name().to_owned(),
            "draw_agreement" => self.draw_agreement.name().to_owned(),
            "illegal_move" => self.illegal_move.name().to_owned(),
            "match_ends_with_first_game" => self.match_ends_with_first_game.to_string(),
            "partner_talk" => self.partner_talk.name().to_owned(),
            _ => return None,
        })
    }

    /// The values a field may take, for a choice in a user interface; `None` for the fields
    /// that take a number (`repetition_claim`, `move_count_claim`: a count or `none`) or a set
    /// of piece letters (`promotion_roles`), and for unknown names.
    pub fn options(field: &str) -> Option<Vec<&'static str>> {
        const BOOL: &[&str] = &["true", "false"];
        fn names<T: RuleValue>() -> Vec<&'static str> {
            T::ALL.iter().map(|v| v.name()).collect()
        }
        Some(match field {
            "capture_destination" => names::<CaptureDestination>(),
            "drop_squares" => names::<DropSquares>(),
            "drop_check" => names::<DropCheck>(),
            "promoted_capture" => names::<PromotedCapture>(),
            "reserves_visible" => names::<ReserveVisibility>(),
            "mate" => names::<MateRule>(),
            "no_move" => names::<NoMoveRule>(),
            "flag" => names::<FlagRule>(),
            "both_flags" => names::<BothFlagsRule>(),
            "resign" => names::<ResignRule>(),
            "draw_agreement" => names::<DrawAgreement>(),
            "illegal_move" => names::<IllegalMoveRule>(),
            "partner_talk" => names::<PartnerTalk>(),
            "drops"
            | "pawn_drop_on_back_rank"
            | "castle_with_dropped_rook"
            | "insufficient_material_draw"
            | "match_ends_with_first_game" => BOOL.to_vec(),
            _ => return None,
        })
    }

    /// Sets one field from text, as [`Rules::get`] writes it: the way to build a custom rule
    /// set from a preset.
    ///
    /// # Errors
    ///
    /// [`RuleFieldError`] naming the field and the value when the field is unknown or the
    /// value is not one it takes (a count of at least 2 for `repetition_claim`, at least 1
    /// for `move_count_claim`, or `none`; one or more of `QRBN` for `promotion_roles`).
    ///
    /// # Examples
    ///
    /// ```
    /// use bughouse_core::{DropCheck, Rules};
    ///
    /// let mut rules = Rules::fide();
    /// rules.set("drop_check", "Forbidden").unwrap();
    /// assert_eq!(rules.drop_check, DropCheck::Forbidden);
    /// assert!(rules.set("drop_check", "Sometimes").is_err());
    /// ```
    pub fn set(&mut self, field: &str, value: &str) -> Result<(), RuleFieldError> {
        let err = |expected: String| RuleFieldError {
            field: field.to_owned(),
            value: value.to_owned(),
            expected,
        };
        fn pick<T: RuleValue>(value: &str) -> Result<T, String> {
            T::ALL
                .iter()
                .copied()
                .find(|v| v.name().eq_ignore_ascii_case(value))
                .ok_or_else(|| {
                    let names: Vec<&str> = T::ALL.iter().map(|v| v.name()).collect();
                    format!("one of {}", names.join(", "))
                })
        }
        let boolean = |v: &str| match v {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err("true or false".to_owned()),
        };
        let count = |v: &str, min: u32| {
            if v == "none" {
                return Ok(None);
            }
            match v.parse::<u32>() {
                Ok(n) if n >= min && n <= 10_000 => Ok(Some(n)),
                _ => Err(format!("none or a whole number from {min} to 10000")),
            }
        };
        let r = self;
        match field {
            "capture_destination" => r.capture_destination = pick(value).map_err(err)?,
            "drops" => r.drops = boolean(value).map_err(err)?,
            "drop_squares" => r.drop_squares = pick(value).map_err(err)?,
            "pawn_drop_on_back_rank" => r.pawn_drop_on_back_rank = boolean(value).map_err(err)?,
            "drop_check" => r.drop_check = pick(value).map_err(err)?,
            "castle_with_dropped_rook" => {
                r.castle_with_dropped_rook = boolean(value).map_err(err)?;
            }
            "promotion_roles" => {
                let mut roles = Vec::new();
                for c in value.chars() {
                    match shakmaty::Role::from_char(c.to_ascii_lowercase()) {
                        Some(
                            role @ (shakmaty::Role::Knight
                            | shakmaty::Role::Bishop
                            | shakmaty::Role::Rook
                            | shakmaty::Role::Queen),
                        ) if !roles.contains(&role) => {
                            roles.push(role);
                        }
                        _ => return Err(err("one or more of the letters Q, R, B, N".to_owned())),
                    }
                }
                if roles.is_empty() {
                    return Err(err("one or more of the letters Q, R, B, N".to_owned()));
                }
                r.promotion_roles = PromotionRoles::from_roles(&roles);
            }
            "promoted_capture" => r.promoted_capture = pick(value).map_err(err)?,
            "reserves_visible" => r.reserves_visible = pick(value).map_err(err)?,
            "mate" => r.mate = pick(value).map_err(err)?,
            "no_move" => r.no_move = pick(value).map_err(err)?,
            "repetition_claim" => r.repetition_claim = count(value, 2).map_err(err)?,
            "move_count_claim" => r.move_count_claim = count(value, 1).map_err(err)?,
            "insufficient_material_draw" => {
                r.insufficient_material_draw = boolean(value).map_err(err)?;
            }
            "flag" => r.flag = pick(value).map_err(err)?,
            "both_flags" => r.both_flags = pick(value).map_err(err)?,
            "resign" => r.resign = pick(value).map_err(err)?,
            "draw_agreement" => r.draw_agreement = pick(value).map_err(err)?,
            "illegal_move" => r.illegal_move = pick(value).map_err(err)?,
            "match_ends_with_first_game" => {
                r.match_ends_with_first_game = boolean(value).map_err(err)?;
            }
            "partner_talk" => r.partner_talk = pick(value).map_err(err)?,
            _ => {
                return Err(RuleFieldError {
                    field: field.to_owned(),
                    value: value.to_owned(),
                    expected: format!("a field name: {}", Rules::FIELDS.join(", ")),
                })
            }
        }
        Ok(())
    }

    /// The preset these rules are exactly, if any.
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.rules() == *self)
    }
}
