// Words for the over-the-board page: what each article says and what each decision does. Only
// display: every decision is taken by the server (crates/core/src/otb); the page shows it.

import type { OtbArticle, OtbConsequence, OtbEvent, OtbRefusal, OtbRulebook } from './generated/otb';
import type { SeatName } from './generated/protocol';

export const SEATS: readonly SeatName[] = ['WhiteA', 'BlackA', 'WhiteB', 'BlackB'];

export function seatLabel(seat: SeatName): string {
  return seat.replace(/^(White|Black)/, '$1 ');
}

export const RULEBOOKS: readonly [OtbRulebook, string][] = [
  ['fide', 'FIDE bughouse extension'],
  ['minerva-2014', 'JSV Minerva 2014'],
  ['knsb-1988', 'KNSB 1988'],
  ['uscf-scholastic-2006', 'US Scholastic 2006'],
];

export const ARTICLE_TEXT: Record<OtbArticle, string> = {
  'F3.1': 'Both games start simultaneously.',
  'F3.7': 'No insufficient-material draws in bughouse.',
  'F3.11': 'A move is not final until the mover starts the opponent’s clock.',
  'F3.12': 'In a dispute both clocks may be neutralised and the referee called.',
  F4: 'No move-count rule.',
  'F4.1': 'Draw claim when a position occurs four times on one board.',
  'F4.2': 'An illegal move, once the clock is pressed, may be claimed as a win before the claimant moves.',
  'F4.3': 'The match ends as soon as one game ends.',
  'FIDE 6.9': 'A flag fall loses; both flags down, a draw (blitz).',
  'M5.1': 'The match ends as soon as one game has ended.',
  'M5.2': 'A flag fall loses unless the opponent could never win, counting pieces still to come.',
  'M5.4': 'No draw claims under FIDE 9.2–9.6.',
  'M5.5': 'Draw as soon as at least one clock of each team is down.',
  'M6.4': 'The two Black players start both clocks at the same moment.',
  'M7.1': 'A wrong set-up noticed before Black’s third move: both games restart.',
  'M7.2': 'Colours swapped on one board: both restart; on both boards: play on.',
  'M7.3': 'An illegal move may be taken back before the clock is pressed.',
  'M7.4': 'After the press, the opponent may accept the illegal move or demand a legal one.',
  'M7.5': 'The right to demand a replacement ends once the opponent completes a move.',
  'M7.6': 'Demanding a replacement, the opponent restarts the offender’s clock.',
  'M7.7': 'A wrongly captured piece already passed comes back from the partner’s reserve.',
  'M10.1': 'The arbiter acts only when a player asks.',
  'M10.2': 'The arbiter declares the M5.5 draw as soon as he sees it.',
  'M10.3': 'The arbiter decides where the rules are silent.',
  K1E: 'FIDE rules where this rulebook is silent: both games start together.',
  K8C: 'The opponent restarts the offender’s clock and demands a legal replacement.',
  K8D: 'An illegal move is not replaced without the opponent’s consent.',
  K8E: 'A wrongly captured piece already passed comes back from the partner’s reserve.',
  K8F: 'Deliberate or repeated illegal moves: the arbiter may declare the game lost.',
  K11: 'No repetition draw.',
  K11A2: 'A flag fall loses once the direct opponent notices it.',
  K11D: 'Both flags of a game down: a draw once either player notices.',
  K11E: 'A draw if the flagged player shows his opponent could never have mated.',
  K11F: 'Draw claim after 30 moves without capture, drop or pawn move.',
  K11G: 'The match ends when both games have ended.',
  K15: 'The arbiter decides where the rules are silent.',
  U6: 'A move is not completed until the opponent’s clock is started.',
  U7: 'The match ends as soon as one player wins.',
  U8: 'An illegal move loses if caught before the claimant moves.',
  U8a: 'The right to claim ends once the claimant moves and starts the clock.',
  U8b: 'Set-up claims are void once each side has moved.',
  U8c: 'Once each side has moved, a wrong set-up stays.',
  U15a3: 'A flag claim wins while the claimant’s own flag is up.',
  U15a4: 'After an illegal move, the opponent wins by stopping the clock.',
  U15a5: 'Illegal-move and flag claims at once: the illegal mover loses.',
  U16: 'Draws only by agreement or flags.',
  U16b: 'The second flag falls before a win is claimed: a draw.',
  U18: 'In a dispute either player may stop both clocks; the director decides.',
  U24: 'No insufficient-losing-chances claims.',
};

const REFUSAL_TEXT: Record<OtbRefusal, string> = {
  'already-moved': 'too late: the claimant has moved since',
  'no-move-to-claim': 'the opponent has not completed a move',
  'flag-not-down': 'the flag is not down',
  'own-flag-not-down': 'the claimant’s flag is not down',
  'not-in-rulebook': 'this rulebook has no such claim',
  'setup-too-late': 'too late for a set-up claim',
  'already-pressed': 'the clock was already pressed',
  'game-over': 'that game is over',
  'not-established': 'the moves do not establish it',
  'opponent-could-mate': 'the opponent could still mate',
  'not-repeated': 'one illegal move, not deliberate: no forfeit',
};

const PIECE_NAME: Record<string, string> = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen' };

export function consequenceText(c: OtbConsequence): string {
  switch (c.kind) {
    case 'started':
      return 'Both clocks started.';
    case 'win':
      return `${seatLabel(c.seat)} wins board ${c.seat.slice(-1)}.`;
    case 'draw':
      return `Board ${c.board} is drawn.`;
    case 'draw_both':
      return 'Both games are drawn.';
    case 'forfeit':
      return `${seatLabel(c.seat)} loses by forfeit.`;
    case 'forfeit_possible':
      return `Repeated illegal moves: the arbiter may declare ${seatLabel(c.seat)}’s game lost.`;
    case 'replace_move': {
      let text = `${seatLabel(c.offender)}’s clock is restarted: he replaces the illegal move by a legal one.`;
      if (c.piece_back) {
        const name = PIECE_NAME[c.piece_back] ?? c.piece_back;
        if (c.piece_from === 'partner-reserve') text += ` The ${name} comes back from his partner’s reserve.`;
        else if (c.piece_from === 'other-board')
          text += ` His partner has no ${name} left: the opponent takes one from the other board; his partner may not move until then.`;
        else text += ` The ${name} goes back on the board.`;
      }
      return text;
    }
    case 'take_back':
      return `${seatLabel(c.seat)} may take the move back.`;
    case 'restart_both':
      return 'Both games restart: set up again; the Black players start the clocks.';
    case 'restart_game':
      return `Board ${c.board} restarts with a correct set-up.`;
    case 'play_on':
      return 'Play on.';
    case 'paused':
      return 'Clocks stopped for the arbiter.';
    case 'resumed':
      return 'Clocks running again.';
    case 'arbiter_decides':
      return 'The arbiter hears the players and rules.';
    case 'match_over':
      return c.result === '1/2-1/2' ? 'Match drawn.' : `Match won by ${c.result === '1-0' ? 'White A + Black B' : 'Black A + White B'} (${c.result}).`;
    case 'refused':
      return `Refused: ${REFUSAL_TEXT[c.why]}.`;
  }
}

export function eventText(e: OtbEvent): string {
  switch (e.type) {
    case 'start':
      return 'Start';
    case 'press':
      return `${seatLabel(e.seat)} pressed`;
    case 'pause':
      return 'Pause';
    case 'resume':
      return 'Resume';
    case 'observe':
      return 'Clock seen';
    case 'move':
      return `${seatLabel(e.seat)} ${e.text}`;
    case 'ruling':
      return `Arbiter’s ruling on board ${e.board}: ${e.ruling}`;
    case 'forfeit':
      return `Arbiter: forfeit of ${seatLabel(e.seat)}${e.deliberate ? ' (deliberate)' : ''}`;
    case 'claim': {
      const c = e.claim;
      const who = 'claimant' in c ? seatLabel(c.claimant) : 'seat' in c ? seatLabel(c.seat) : `Board ${c.board}`;
      const what: Record<typeof c.kind, string> = {
        flag: 'claims the flag',
        both_flags: 'claims both flags',
        illegal_move: 'claims an illegal move',
        illegal_move_with_flag: 'claims an illegal move as the flag is claimed',
        take_back: 'takes back before pressing',
        repetition: 'claims repetition',
        move_count: 'claims 30 moves',
        opponent_cannot_mate: 'claims the opponent could never mate',
        wrong_setup: 'wrong set-up',
      };
      return `${who} ${what[c.kind]}`;
    }
  }
}

/** `m:ss`, and tenths under ten seconds. */
export function clockText(ms: number): string {
  const t = Math.max(0, ms);
  if (t < 10_000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const s = Math.ceil(t / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
