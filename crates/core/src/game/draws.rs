//! Draws in the two-board match: offers and agreement by each rulebook's scope (F4.5, M5.3,
//! K11C, U16a), offers lapsing when a player moves instead, and claims by repetition or the
//! move count (F4.1, K11F).

use std::time::Duration;

use super::{EndReason, GameEnd, Match, MatchError, Score};
use crate::outcome::DrawClaim;
use crate::rules::DrawAgreement;
use crate::seat::{BoardId, Seat, Team};

impl Match {
    /// `seat` offers or accepts a draw at `now`. The draw happens once everyone its scope needs
    /// has agreed:
    /// - fide (F4.5): both players of one team offer and both opponents accept, that is all
    ///   four; it decides the match;
    /// - minerva-2014 (M5.3): all four players;
    /// - knsb-1988 (K11C): the two players of that game; the other game goes on;
    /// - uscf (U16a): team against team: **interp.** one player speaks for each team.
    ///
    /// A pending offer lapses when a player whose agreement it needs makes a move instead (see
    /// `lapse_draw_offer`). Returns whether the draw happened.
    ///
    /// # Errors
    ///
    /// The match has not started or is over, or this seat's game is over.
    pub fn agree_draw(&mut self, seat: Seat, now: Duration) -> Result<bool, MatchError> {
        self.check_can_act(seat, now)?;
        self.draw_agreed[seat.index()] = true;
        let agreed = |s: Seat| self.draw_agreed[s.index()];
        let done = match self.rules.draw_agreement {
            DrawAgreement::TeamOffersOpponentsAccept | DrawAgreement::AllFour => {
                Seat::ALL.into_iter().all(agreed)
            }
            DrawAgreement::SameGame => agreed(seat) && agreed(seat.opponent()),
            DrawAgreement::TeamAgainstTeam => [Team::One, Team::Two]
                .iter()
                .all(|t| t.seats().into_iter().any(agreed)),
        };
        if !done {
            return Ok(false);
        }
        let boards: Vec<BoardId> = match self.rules.draw_agreement {
            DrawAgreement::SameGame => vec![seat.board],
            _ => BoardId::ALL
                .into_iter()
                .filter(|b| self.ends[b.index()].is_none())
                .collect(),
        };
        for board in boards {
            self.end_game(
                board,
                GameEnd {
                    score: Score::Draw,
                    reason: EndReason::Agreement,
                    seat: None,
                    at: now,
                },
            );
        }
        match self.rules.draw_agreement {
            // K11C: a draw in one game leaves an offer pending in the other.
            DrawAgreement::SameGame => {
                self.draw_agreed[seat.index()] = false;
                self.draw_agreed[seat.opponent().index()] = false;
            }
            _ => self.draw_agreed = [false; 4],
        }
        self.settle(now);
        Ok(true)
    }

    /// `mover` made a move: a pending draw offer that needed his agreement lapses (he declined
    /// it by moving). Which offers need him depends on the scope of the agreement:
    /// - fide, minerva-2014: everyone's, so any pending offer he has not agreed to;
    /// - knsb-1988 (K11C): only an offer by his opponent in his own game; an offer in the other
    ///   game does not concern him;
    /// - uscf (U16a, **interp.** one player speaks for each team): an offer by the other team,
    ///   while no one of his team has agreed; his partner's offer stands.
    pub(super) fn lapse_draw_offer(&mut self, mover: Seat) {
        let agreed = |s: Seat| self.draw_agreed[s.index()];
        if agreed(mover) {
            return;
        }
        match self.rules.draw_agreement {
            DrawAgreement::TeamOffersOpponentsAccept | DrawAgreement::AllFour => {
                if self.draw_agreed.iter().any(|&a| a) {
                    self.draw_agreed = [false; 4];
                }
            }
            DrawAgreement::SameGame => {
                self.draw_agreed[mover.opponent().index()] = false;
            }
            DrawAgreement::TeamAgainstTeam => {
                let team_agreed = |t: Team| t.seats().into_iter().any(agreed);
                if !team_agreed(mover.team()) && team_agreed(mover.team().other()) {
                    self.draw_agreed = [false; 4];
                }
            }
        }
    }

    /// Withdraws `seat`'s draw offer or agreement.
    pub fn withdraw_draw(&mut self, seat: Seat) {
        self.draw_agreed[seat.index()] = false;
    }

    /// Whether `seat` has offered or agreed to a draw that is still pending.
    pub fn draw_offered(&self, seat: Seat) -> bool {
        self.draw_agreed[seat.index()]
    }

    /// `seat` claims a draw at `now`: by repetition only when on move (F4.1, as FIDE 9.2), under
    /// the move-count rule either player of the game (K11F: "een der beide betrokken spelers").
    ///
    /// # Errors
    ///
    /// [`MatchError::NoSuchClaim`] when that claim is not available to him now.
    pub fn claim_draw(
        &mut self,
        seat: Seat,
        claim: DrawClaim,
        now: Duration,
    ) -> Result<(), MatchError> {
        self.check_can_act(seat, now)?;
        let game = &self.boards[seat.board.index()];
        let on_move_needed = claim == DrawClaim::Repetition;
        if (on_move_needed && game.position().turn() != seat.color)
            || !game.claims().contains(&claim)
        {
            return Err(MatchError::NoSuchClaim { seat, claim });
        }
        self.end_game(
            seat.board,
            GameEnd {
                score: Score::Draw,
                reason: match claim {
                    DrawClaim::Repetition => EndReason::Repetition,
                    DrawClaim::MoveCount => EndReason::MoveCount,
                },
                seat: Some(seat),
                at: now,
            },
        );
        self.settle(now);
        Ok(())
    }
}
