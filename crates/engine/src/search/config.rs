//! The search's switches for A/B matches (`SearchConfig`): each newer part of the search on
//! its own switch, the named configurations the arena's `bot?search=NAME` reads, and the
//! default the engine plays with.

use std::time::Duration;

/// Switches of the search, for A/B matches of a change against the search before it
/// (`bot?search=base` in the arena).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SearchConfig {
    /// Pruning that understands drops: a quiet drop far from both kings (more than two squares
    /// from each) that gives no check is reduced one ply more by late-move reductions (from the
    /// second move on), and near the leaves of non-PV nodes it is pruned by futility and after
    /// the first few such drops. Drops multiply the branching factor; most of them, far from
    /// the kings, change little.
    pub drop_pruning: bool,
    /// Pruning of quiet moves and drops that put the piece where it is lost: the square is
    /// attacked by the opponent and either not defended or attacked by a cheaper piece. Pruned
    /// near the leaves of non-PV nodes (depth 4 or less), reduced one ply more elsewhere. In
    /// bughouse most drops are of this kind (a piece dropped into an attack).
    pub lost_quiet_pruning: bool,
    /// Stronger late-move reductions and pruning: quiet moves with a bad history are reduced
    /// one ply more (good history one less), non-PV quiet moves are reduced from the second
    /// move on, and late-move pruning near the leaves keeps `3 + 2·depth²` quiet moves instead
    /// of `4 + 3·depth²`.
    pub strong_reductions: bool,
    /// Time use read from the team's clocks (`TeamBot::budget`), not only this board's: when
    /// behind the faster of *both* opponents on the clock (the one across can sit against us,
    /// and whoever has less time loses a race of sitting), catch up harder (the thinking time
    /// shrinks with the fourth power of the clocks' ratio instead of the square); and a bot
    /// mated whatever it does sits until one second left instead of two (Fairy-Stockfish's
    /// floor), which leaves its partner a second more to win the other board. `CLOCK` also
    /// reads the thresholds relative to the base time (`relative_clock`).
    pub team_clock: bool,
    /// Time use and sitting for the races of sitting that Fairy-Stockfish's team wins through
    /// XBoard (on top of `team_clock`): a fiftieth of the time left per move instead of a
    /// thirtieth, and 0.7 of that in the first eight moves of the board (at 1+0 the bot thought
    /// 0.98 s a move against Fairy-Stockfish's 0.55 s and was 7 to 9 s behind by mid-match);
    /// sit (on a partner's `Sit` or for itself) only when ahead on the clock of *both*
    /// opponents (the one across may be sitting against us), with the floors read relative to
    /// the base time; a bot mated whatever it does sits until half a second is left, and a bot
    /// that mates by force tells its partner to sit (`Talk::Sit`, as Fairy-Stockfish says
    /// `sit`): the mated opponent sits on its own `dead` until its last second, and a partner
    /// with more time than him wins that race by sitting too.
    pub race: bool,
    /// Only the time use of `race`, without its sitting: a fiftieth of the time left per move
    /// instead of a thirtieth, and 0.7 of that in the first eight moves of the board. At 1+0
    /// the `guard` bot thought 0.95 s a move over the first 20 moves against Fairy-Stockfish's
    /// 0.26 s, and was 13 s behind on the clock a third into the match.
    pub lean_time: bool,
    /// The other way: a twentieth of the time left per move instead of a thirtieth. At 1+0
    /// against Fairy-Stockfish through UCI `guardlean` scored 18 points below `guard` (36
    /// seeds): there the board play gains more from time than the clock loses.
    pub long_time: bool,
    /// Quiescence that follows a checking attack (board play against drop attacks): the side
    /// that just gave check may give check once more (below the third quiescence ply), with a
    /// knight's or a contact check whose piece is not simply lost there (the shapes of a mate
    /// when a drop could block any other check, F3.7). In bughouse the mates come as a chain
    /// of checks by drops (a check, the king steps away, a drop mates); the quiescence search
    /// saw only the first check and stood pat after the evasion, so a search walked into mates
    /// two checks past its horizon.
    pub check_chains: bool,
    /// Moves that guard our king are never pruned near the leaves (only reduced): a quiet move
    /// or drop onto a square next to our king, and every king move, escape late-move pruning,
    /// futility pruning and lost-quiet pruning. Those are the drops that plug a hole a drop
    /// would check through, and the king's steps out of a mating net; with a reserve there
    /// are so many quiet moves that late-move pruning cut them.
    pub guard_king: bool,
    /// Quiet moves and drops that give check (directly) are ordered right after the killers,
    /// before the other quiet moves (by history): checks are bughouse's main tactic, and with
    /// a reserve there are many of them.
    pub order_checks: bool,
    /// A continuation history: quiet moves and drops are ordered by their own history plus
    /// the history of following the move just played (piece and square of each, 4.7 MB per
    /// searcher). The answer to a drop is most often about that square.
    pub cont_history: bool,
    /// Internal iterative reduction: a node of depth 4 or more with no move in the
    /// transposition table is searched one ply shallower (its ordering is poor, and the next
    /// iteration finds it with a move to try first).
    pub iir: bool,
    /// Deeper pruning of nodes that stand well: reverse futility pruning up to depth 6 (not 3),
    /// and a null move reduced more the further the static evaluation stands above beta (up to
    /// three plies more, one for each 200 centipawns), as Stockfish does.
    pub deep_prune: bool,
    /// Only checks that do not lose the checking piece are extended (not a piece dropped or
    /// moved where it is simply lost, `lost_there`), as Fairy-Stockfish extends only checks
    /// with a non-negative exchange. Most checks in bughouse are drops that give the piece
    /// away; extending each of them deepens the lines that matter least.
    pub safe_check_ext: bool,
    /// The clock thresholds read relative to the base time (part of `CLOCK`, alone in
    /// `guardsir`): ahead on the
    /// clock by a sixth of it, the partner short of time below a quarter, behind his opponent
    /// by a third. At one minute these are the fixed 10, 15 and 20 s of the default; at
    /// 10s+0 the fixed 15 s made the partner always "short of time", and the bot thought 0.6
    /// of its budget all match long (0.13 s a move against Fairy-Stockfish's 0.22 s, with 6.5 s
    /// left half-way against its 4.0 s, and lost by mate).
    pub relative_clock: bool,
    /// Quiescence that answers a check with few quiet evasions, as Stockfish does: once an
    /// evasion has kept the king out of mate, no quiet evasion (king step, block, blocking
    /// drop) past the second of the node is searched, and no capture that loses material. With a reserve
    /// every check can be blocked by a drop on every square in between, and the quiescence
    /// searched them all: at depth 9 it took 60 to 95% of the nodes, and a third of those
    /// were in check.
    pub qs_evasions: bool,
    /// Quiescence checks that keep the checking piece: at the first quiescence ply, a quiet
    /// check or checking drop by that piece alone (not a discovered or double check) whose
    /// piece is simply lost where it lands (`lost_there`) is not searched, as Stockfish's quiescence searches no move that loses material. The main
    /// search still sees every check; with a full reserve the quiescence searched dozens of
    /// them at every leaf.
    pub qs_safe_checks: bool,
    /// Stockfish's pruning by move count and by exchange, at every depth (Fairy-Stockfish
    /// 11.1's `search.cpp`, which has no drop-specific form of it in bughouse): quiet moves
    /// past the first `(5 + d²)(1 + improving)/2 − 1` of a node are pruned at any depth
    /// ("improving": the static evaluation above the one two plies before), not only the
    /// `4 + 3d²` of depth 4 or less; and at depth 6 or less, away from the principal variation,
    /// a capture or a check that loses more than `90·d` centipawns in the exchange (a check
    /// by a piece simply lost where it lands counts its value) is pruned. With a reserve
    /// every node has dozens of checking drops that give the piece away, and none was pruned.
    pub count_pruning: bool,
    /// The quiescence search reads and writes the transposition table, as Stockfish's does: a
    /// stored bound at the node (from either search) ends a null-window node at once, and the
    /// stored move is tried first. With a reserve the same position comes back by many drop
    /// orders, and the quiescence took 60 to 95% of the nodes with no table at all.
    pub qs_tt: bool,
    /// A bot mated whatever it does sits until 0.3 s are left instead of 2 s: a loss on time
    /// is no worse than the mate, and every second it sits is one more for its partner to win
    /// the match on the other board. At 10s+0 against Fairy-Stockfish through UCI, 90 of the
    /// 98 losses of `guard` came after such a sit (median 4.2 s long, from 6.3 s on the clock,
    /// followed by at most three moves), with two seconds still on the mated bot's clock.
    pub low_floor: bool,
    /// Evasions pruned and reduced as Stockfish does (its move-count and exchange pruning and
    /// its late-move reductions do not stop at a node in check): at a node in check (not on
    /// the principal variation), once an evasion keeps the king out of mate, a quiet evasion
    /// other than a king move whose piece is simply lost where it lands (a blocking drop the
    /// checker takes) is pruned near the leaves, and the later quiet evasions are reduced
    /// like quiet moves. With a reserve every square between the king and a distant checker
    /// takes a drop of every piece in hand, and each of those evasions was searched to full
    /// depth while the check before it was extended: a chain of checks cost a ply of depth
    /// per two plies of moves with a hundred evasions between.
    pub evasion_pruning: bool,
    /// Checks that give their piece away are pruned and reduced like quiet moves, as
    /// Stockfish 11 (Fairy-Stockfish's base) reduces and prunes quiet checks by move count and
    /// never extends a check with a losing exchange: a quiet check or checking drop by the
    /// piece alone (not a discovered or double check) whose piece is simply lost where it lands
    /// (`lost_there`) is late-move reduced, late-move pruned and futility pruned as any quiet
    /// move. With a reserve, most moves of a node near the enemy king are such checks, and
    /// each was searched to full depth: 50,000 nodes took `guardsiqs` to depth 6.4 where
    /// Fairy-Stockfish reaches 12.
    pub check_pruning: bool,
    /// Time use as Stockfish's: the budget of `TeamBot::budget` is the main search's optimum,
    /// not its end. No new iteration starts past half of it while the best move and the score
    /// hold (as before), but a search whose score falls (against the bot's previous search and
    /// the previous iteration) or whose best move changed in the last iterations goes on, up to
    /// four times the budget (at most an eighth of the time left). The positions where a lost
    /// match is first lost (Fairy-Stockfish's score of our side falling from about level for
    /// good) are where more time pays most: there our 200 ms moves lose 132 of its units a
    /// move, 1 s moves 82.
    pub dynamic_time: bool,
    /// Time use that keeps pace with the faster of both opponents, as Fairy-Stockfish's team
    /// does through XBoard (`timeman.cpp`: it plans as if it had at most 5 s plus its lead on
    /// the opponent across): with `Some(base)`, the time a move's budget is read from is at
    /// most `base` plus our lead on the faster of our opponent and the one across (the one who
    /// can sit against us), and behind that faster one we catch up. At 1+0 against that team
    /// the default thought twice as long a move, was 8 s behind a third into the match, and
    /// lost 75 of 98 losses in races of sitting, each with less time than the sitter; with
    /// 8 s (`pace`) it scored 18.8 points more, but through UCI, where Fairy-Stockfish never
    /// sits, 28 points less (docs/arena.md). At 10 s+0 the clock is below the cap nearly all
    /// match long, and little changes.
    pub pace: Option<Duration>,
    /// `pace`, but only while the opponents can sit (`TeamBot::set_opponents_sit`, on unless
    /// the bot is told otherwise): every human team and Fairy-Stockfish's team through XBoard
    /// can, a pair of UCI engines that never talk cannot. `pace` won through XBoard and lost
    /// through UCI; this keeps the first and leaves the second as the default plays it. Above
    /// a one-minute base the cap grows with the base (8 s at 1+0, 40 s at 5+0): `pace` was
    /// only measured at one minute and below.
    pub pace_sitters: Option<Duration>,
    /// Below a one-minute base, a twentieth of the time left per move instead of a thirtieth
    /// (`long_time` there only). At 10s+0 against Fairy-Stockfish through UCI the default
    /// thought 0.13 s a move against its 0.24 s (the first 20 moves of each player, 156
    /// matches of 3 December), kept 6.5 s of its 10 against 4.0 half-way, and in the matches
    /// it lost still had a median 5.2 s at its second-to-last move: half its clock unspent
    /// when the match was lost on the board. At one minute and above nothing changes (there,
    /// through XBoard, the clock loses the races of sitting).
    pub short_long_time: bool,
    /// Racing the sitter across: when the opponent across (our partner's opponent) has held
    /// his move for a twentieth of the base time (at least 1 s), so that our partner waits on
    /// him, a move's budget is cut to a fifth, and with more time than he has (by a sixtieth of
    /// the base, at least 0.5 s) we sit too: his clock runs out before ours, or he must move.
    /// Against Fairy-Stockfish's team through XBoard at 1+0 the default lost 75 of 98 losses
    /// while its partner sat, 46 of its 47 mates there with our mated bot behind the sitter on
    /// the clock: it went on thinking as long as ever while the sitter's clock ran, and never
    /// sat him out. Through UCI Fairy-Stockfish never sits, and the switch does nothing.
    pub sit_out: bool,
    /// A quick opening: while our board is in its first eight moves and neither side there has
    /// a piece in hand, a move's budget is a quarter of the usual. At 1+0 through XBoard the
    /// default met the sits of Fairy-Stockfish's team 8.3 s behind the sitter (median, 4
    /// December), 28 s into the board, and 5 s of that came from its first eight moves (7.2 s
    /// spent against Fairy-Stockfish's 2.1 s). The seconds saved are spent later (the budget
    /// is a share of the time left), where drops make the positions sharp. Measured
    /// (docs/arena.md): it saves 3 of those 5 s (a capture fills a reserve and ends it early);
    /// paired against the default +6.2 points through XBoard (16 seeds, 95% −6.0 to +18.5)
    /// and −10.5 through UCI (19 seeds, −28.2 to +7.2): not shown either way.
    pub quick_open: bool,
    /// The opening book (`crate::Book::builtin`): a position of it is played at once, with
    /// the move searched deeply beforehand, while neither side of our board holds a piece and
    /// no piece is about to reach our opponent. Only at the levels without noise (6 to 8).
    /// Against Fairy-Stockfish (docs/arena.md, 6 December 2026) it kept 3.6 s more after the
    /// eighth move at 1+0, and scored +5.0 points through XBoard at 1+0 (10 seeds, 95% −12.6 to
    /// +22.6) and −13.8 through UCI at 10s+0 (40 seeds, −28.2 to +0.7): not the default.
    pub book: bool,
    /// Obey the partner's `Sit` only while his opponent is to move. Asked to sit while the
    /// partner is to move himself (he sits, mated whatever he does, or waits), the bot sat too
    /// and both our clocks ran with both of theirs stopped: in an arena match at 1+0 our two
    /// bots sat 41 s each at once, and lost the match with 2 s left on both boards. Measured:
    /// +2.1 points through XBoard at 1+0 (35 seeds, 95% −6.0 to +10.3), −1.2 through UCI at
    /// 10s+0 (41 seeds, −17.4 to +15.0): not shown, not the default.
    pub sit_only_racing: bool,
    /// What captures send to the other board (`crate::send`), with this weight in percent:
    /// the team bot's main search adds, for each piece taken since the root, the king danger
    /// that piece adds on the partner's board beyond its usual reserve value (for our partner
    /// when we take it, for his opponent when they do), read once per decision from the static
    /// evaluation of the partner's board. An even trade on our board then costs us when our
    /// partner's king is the more exposed one, and pays when his opponent's is. HiveMind wins
    /// by deciding for both boards; the single-board search saw only its own. Not shown: at
    /// full weight (`send`) +0.0 points against Fairy-Stockfish through UCI at 10s+0 (80
    /// seeds, 95% −10.3 to +10.3), at half (`sendhalf`) +11.7 (30 seeds, −8.1 to +31.4)
    /// (docs/arena.md).
    pub partner_send: Option<i32>,
    /// The team bot checks its move with a mate search by checks (`crate::find_mate`,
    /// [`MATE_CHECK_PLIES`] plies): a mate found for itself is played at once, and a move
    /// after which the opponent mates by checks gives way to a short search among the moves
    /// after which he does not. Only at the levels without noise (6 to 8). Over the default's
    /// 160 matches against Fairy-Stockfish through UCI at 10s+0 (7 December 2026), the bot let
    /// the opponent mate by checks within 7 plies 344 times, 64 of them with a move that
    /// avoided it, and did not keep a mate it had 19 times of 178. Not shown: against the
    /// default through UCI at 10s+0, −5.5 points (100 seeds, 95% −15.7 to +4.7; docs/arena.md).
    pub mate_check: bool,
    /// Waiting in check (F3.7: in check, no legal move, waiting for a piece that could block)
    /// scores as nearly lost, [`crate::search::WAITING_IN_CHECK_LOST`] (beyond any material,
    /// short of a mate), instead of a piece and a half. Fairy-Stockfish scores it as mate and
    /// all but never waited in our matches; our bot waited in check 43 times over 100 matches
    /// through XBoard at 1+0 (7 December 2026) and lost 25 of those matches during the wait,
    /// 17 of them on time while Fairy-Stockfish's partner sat and starved it of the piece;
    /// through UCI at 10s+0, 64 waits over 200 matches and 26 matches lost during the wait.
    /// Only against opponents who can sit (`TeamBot::set_opponents_sit`): a UCI team never
    /// starves a waiting player of his piece. Not shown: against the default through XBoard at
    /// 1+0, +3.1 points (96 seeds, 95% −7.1 to +13.3; docs/arena.md).
    pub waiting_lost: bool,
    /// The team bot sits while the opponent across waits for a piece (F3.7) and it has more
    /// time than he has ([`crate::TeamBot`]'s `starves`): his partner, our opponent, can
    /// capture a piece to pass him only after a move of ours, so his clock runs out first.
    /// Fairy-Stockfish's partner does this to a waiting bot of ours (17 of the 25 matches
    /// lost during a wait, above).
    pub starve: bool,
    /// A mate threat found by the null move (passing gets the side to move mated) extends the
    /// node by a ply and keeps its quiet moves from move-count, futility and drop pruning:
    /// with pieces in hand most losses are mates by drops, and the defence is often a quiet
    /// move or drop that the pruning near the leaves would skip. Not shown: against the
    /// default through UCI at 10s+0, −3.9 points (110 seeds, 95% −13.1 to +5.3;
    /// docs/arena.md).
    pub mate_threat: bool,
}

/// How deep the team bot's mate search by checks looks ([`SearchConfig::mate_check`]), in
/// plies: mates in up to four moves of the mating side.
pub const MATE_CHECK_PLIES: u32 = 7;

impl SearchConfig {
    /// The search before drop-aware pruning.
    pub const BASE: SearchConfig = SearchConfig {
        drop_pruning: false,
        lost_quiet_pruning: false,
        strong_reductions: false,
        team_clock: false,
        race: false,
        lean_time: false,
        long_time: false,
        check_chains: false,
        guard_king: false,
        order_checks: false,
        cont_history: false,
        iir: false,
        deep_prune: false,
        safe_check_ext: false,
        relative_clock: false,
        qs_evasions: false,
        qs_safe_checks: false,
        count_pruning: false,
        qs_tt: false,
        low_floor: false,
        evasion_pruning: false,
        check_pruning: false,
        dynamic_time: false,
        pace: None,
        pace_sitters: None,
        short_long_time: false,
        sit_out: false,
        quick_open: false,
        book: false,
        sit_only_racing: false,
        partner_send: None,
        mate_check: false,
        waiting_lost: false,
        starve: false,
        mate_threat: false,
    };
    /// Drop-aware pruning without the stronger reductions.
    pub const DROPS: SearchConfig = SearchConfig {
        drop_pruning: true,
        lost_quiet_pruning: true,
        ..SearchConfig::BASE
    };
    /// Drop-aware pruning and the team's clocks driving time use (their thresholds relative
    /// to the base time with them).
    pub const CLOCK: SearchConfig = SearchConfig {
        team_clock: true,
        relative_clock: true,
        ..SearchConfig::DROPS
    };
    /// The team's clocks, and time use and sitting for races of sitting.
    pub const RACE: SearchConfig = SearchConfig {
        race: true,
        ..SearchConfig::CLOCK
    };
    /// Drop-aware pruning and stronger reductions.
    pub const STRONG: SearchConfig = SearchConfig {
        strong_reductions: true,
        ..SearchConfig::DROPS
    };
    /// Drop-aware pruning and board play against drop attacks: quiescence along chains of
    /// checks, king moves and moves next to our king kept near the leaves, quiet checks first.
    pub const GUARD: SearchConfig = SearchConfig {
        check_chains: true,
        guard_king: true,
        order_checks: true,
        ..SearchConfig::DROPS
    };
    /// `guard` with the time use of `race` (`lean_time`), not its sitting.
    pub const GUARD_LEAN: SearchConfig = SearchConfig {
        lean_time: true,
        ..SearchConfig::GUARD
    };
    /// `guard` thinking longer (`long_time`).
    pub const GUARD_LONG: SearchConfig = SearchConfig {
        long_time: true,
        ..SearchConfig::GUARD
    };
    /// `guard` with a continuation history.
    pub const GUARD_CONT: SearchConfig = SearchConfig {
        cont_history: true,
        ..SearchConfig::GUARD
    };
    /// `guard` with internal iterative reduction.
    pub const GUARD_IIR: SearchConfig = SearchConfig {
        iir: true,
        ..SearchConfig::GUARD
    };
    /// `guard` with deeper pruning of nodes that stand well.
    pub const GUARD_PRUNE: SearchConfig = SearchConfig {
        deep_prune: true,
        ..SearchConfig::GUARD
    };
    /// `guard` extending only checks that keep the checking piece.
    pub const GUARD_SAFE: SearchConfig = SearchConfig {
        safe_check_ext: true,
        ..SearchConfig::GUARD
    };
    /// `guard` with both of the switches that scored above it in self-play at 10s+0:
    /// only safe checks extended (`guardsafe`) and internal iterative reduction (`guardiir`).
    pub const GUARD_SAFE_IIR: SearchConfig = SearchConfig {
        safe_check_ext: true,
        iir: true,
        ..SearchConfig::GUARD
    };
    /// `guardsi` thinking longer (`long_time`): at 10s+0 the bot kept more of its clock than
    /// Fairy-Stockfish and lost by mate, at 1+0 thinking less (`guardlean`) scored worse.
    pub const GUARD_SI_LONG: SearchConfig = SearchConfig {
        long_time: true,
        ..SearchConfig::GUARD_SAFE_IIR
    };
    /// `guardsi` with the clock thresholds read relative to the base time (`relative_clock`).
    pub const GUARD_SI_REL: SearchConfig = SearchConfig {
        relative_clock: true,
        ..SearchConfig::GUARD_SAFE_IIR
    };
    /// `guardsir` thinking longer (`long_time`): with the thresholds relative to the base, the
    /// bot still thought 0.18 s a move at 10s+0 against Fairy-Stockfish's 0.23 s.
    pub const GUARD_SI_REL_LONG: SearchConfig = SearchConfig {
        long_time: true,
        ..SearchConfig::GUARD_SI_REL
    };
    /// `guard` with few quiet evasions in the quiescence (`qs_evasions`).
    pub const GUARD_QS: SearchConfig = SearchConfig {
        qs_evasions: true,
        ..SearchConfig::GUARD
    };
    /// `guardsi` with few quiet evasions in the quiescence (`qs_evasions`).
    pub const GUARD_SI_QS: SearchConfig = SearchConfig {
        qs_evasions: true,
        ..SearchConfig::GUARD_SAFE_IIR
    };
    /// `guardsiq` searching only the quiescence checks that keep their piece
    /// (`qs_safe_checks`).
    pub const GUARD_SI_QS_SAFE: SearchConfig = SearchConfig {
        qs_safe_checks: true,
        ..SearchConfig::GUARD_SI_QS
    };
    /// `guardsiqs` thinking a twentieth of the time left (`long_time`): with a quarter of
    /// `guard`'s nodes to the same depth, `guardsiqs` thought 0.12 s a move at 10s+0 against
    /// Fairy-Stockfish's 0.22 s.
    pub const GUARD_SI_QS_SAFE_LONG: SearchConfig = SearchConfig {
        long_time: true,
        ..SearchConfig::GUARD_SI_QS_SAFE
    };
    /// `guard` with Stockfish's pruning by move count and exchange (`count_pruning`).
    pub const GUARD_COUNT: SearchConfig = SearchConfig {
        count_pruning: true,
        ..SearchConfig::GUARD
    };
    /// `guard` with the transposition table in the quiescence (`qs_tt`).
    pub const GUARD_QS_TT: SearchConfig = SearchConfig {
        qs_tt: true,
        ..SearchConfig::GUARD
    };
    /// `guardcp` with the transposition table in the quiescence (`qs_tt`).
    pub const GUARD_COUNT_QS_TT: SearchConfig = SearchConfig {
        qs_tt: true,
        ..SearchConfig::GUARD_COUNT
    };
    /// `guard` sitting down to 0.3 s when mated whatever it does (`low_floor`).
    pub const GUARD_FLOOR: SearchConfig = SearchConfig {
        low_floor: true,
        ..SearchConfig::GUARD
    };
    /// `guard` pruning and reducing evasions (`evasion_pruning`).
    pub const GUARD_EVASIONS: SearchConfig = SearchConfig {
        evasion_pruning: true,
        ..SearchConfig::GUARD
    };
    /// `guardsiqs` pruning and reducing the checks that give their piece away
    /// (`check_pruning`).
    pub const GUARD_SI_QS_CHECKS: SearchConfig = SearchConfig {
        check_pruning: true,
        ..SearchConfig::GUARD_SI_QS_SAFE
    };
    /// `guardx` with every pruning switch of Stockfish's kind: move-count and exchange pruning
    /// (`count_pruning`), the table in the quiescence (`qs_tt`), deeper reverse futility and
    /// null-move pruning (`deep_prune`), stronger reductions (`strong_reductions`) and pruned
    /// evasions (`evasion_pruning`).
    pub const GUARD_ALL: SearchConfig = SearchConfig {
        count_pruning: true,
        qs_tt: true,
        deep_prune: true,
        strong_reductions: true,
        evasion_pruning: true,
        ..SearchConfig::GUARD_SI_QS_CHECKS
    };
    /// `guard` with Stockfish's time use (`dynamic_time`).
    pub const GUARD_TIME: SearchConfig = SearchConfig {
        dynamic_time: true,
        ..SearchConfig::GUARD
    };
    /// `guard` keeping pace with the faster opponent's clock (`pace`): read from at most 8 s
    /// plus the lead.
    pub const GUARD_PACE: SearchConfig = SearchConfig {
        pace: Some(Duration::from_secs(8)),
        ..SearchConfig::GUARD
    };
    /// `pace` with 20 s instead of 8 (`pacewide`): between the default's time use and `pace`'s.
    /// At 1+0 against the default it scored 22.2 points less through UCI and 7.1 more (not
    /// shown) through XBoard (docs/arena.md, session 53), so it is not the default either.
    pub const GUARD_PACE_WIDE: SearchConfig = SearchConfig {
        pace: Some(Duration::from_secs(20)),
        ..SearchConfig::GUARD
    };
    /// `guard` thinking a twentieth of its time below a one-minute base (`short_long_time`),
    /// with the clock thresholds read relative to the base (`relative_clock`: at 10s+0 the
    /// fixed 15 s made the partner always "short of time" and cut every budget to 0.6 of
    /// itself; at one minute the thresholds are the same as the fixed ones). At 10s+0 against
    /// Fairy-Stockfish through UCI it scored 6.6 points below the default (95% −14.5 to +1.3,
    /// 151 seeds, docs/arena.md, session 55), so it is not the default.
    pub const GUARD_SHORT: SearchConfig = SearchConfig {
        relative_clock: true,
        short_long_time: true,
        ..SearchConfig::GUARD
    };
    /// `guard` racing the sitter across (`sit_out`): a fifth of the time a move while the
    /// opponent across sits, and sitting him out with more time than he has.
    pub const GUARD_SIT_OUT: SearchConfig = SearchConfig {
        sit_out: true,
        ..SearchConfig::GUARD
    };
    /// `guard` with a quick opening (`quick_open`): a quarter of the time a move in the first
    /// eight moves while neither side of our board has a piece in hand.
    pub const GUARD_QUICK_OPEN: SearchConfig = SearchConfig {
        quick_open: true,
        ..SearchConfig::GUARD
    };
    /// `guard` with the opening book (`book`).
    pub const GUARD_BOOK: SearchConfig = SearchConfig {
        book: true,
        ..SearchConfig::GUARD
    };
    /// `guard` obeying the partner's `Sit` only while his opponent is to move
    /// (`sit_only_racing`).
    pub const GUARD_SIT_RACING: SearchConfig = SearchConfig {
        sit_only_racing: true,
        ..SearchConfig::GUARD
    };
    /// `guard` keeping pace as `pace` does while the opponents can sit (`pace_sitters`).
    pub const GUARD_SIT_PACE: SearchConfig = SearchConfig {
        pace_sitters: Some(Duration::from_secs(8)),
        ..SearchConfig::GUARD
    };
    /// The default checking its moves with a mate search by checks (`mate_check`).
    pub const GUARD_MATE_CHECK: SearchConfig = SearchConfig {
        mate_check: true,
        ..SearchConfig::GUARD_SIT_PACE
    };
    /// The default scoring waiting in check as nearly lost (`waiting_lost`).
    pub const GUARD_WAITING_LOST: SearchConfig = SearchConfig {
        waiting_lost: true,
        ..SearchConfig::GUARD_SIT_PACE
    };
    /// `waitlost` starving a waiting opponent across of his piece (`starve`).
    pub const GUARD_WAIT_STARVE: SearchConfig = SearchConfig {
        starve: true,
        ..SearchConfig::GUARD_WAITING_LOST
    };
    /// The default extending mate threats (`mate_threat`).
    pub const GUARD_MATE_THREAT: SearchConfig = SearchConfig {
        mate_threat: true,
        ..SearchConfig::GUARD_SIT_PACE
    };
    /// `guard` valuing what captures send to the other board (`partner_send`), at half weight.
    pub const GUARD_SEND_HALF: SearchConfig = SearchConfig {
        partner_send: Some(50),
        ..SearchConfig::GUARD
    };
    /// `guard` valuing what captures send to the other board (`partner_send`), at full weight.
    pub const GUARD_SEND: SearchConfig = SearchConfig {
        partner_send: Some(100),
        ..SearchConfig::GUARD
    };
    /// `guardall` with Stockfish's time use: the two changes that each leaned better against
    /// Fairy-Stockfish without being shown (docs/arena.md, `guardall` and `guardtm`), together.
    pub const GUARD_ALL_TIME: SearchConfig = SearchConfig {
        dynamic_time: true,
        ..SearchConfig::GUARD_ALL
    };
    /// `race` with the board play of `guard`.
    pub const RACE_GUARD: SearchConfig = SearchConfig {
        check_chains: true,
        guard_king: true,
        order_checks: true,
        ..SearchConfig::RACE
    };
    /// The search the engine plays with: `guard` (drop-aware pruning and board play against
    /// drop attacks), which scored above `drops` against Fairy-Stockfish at 10s+0 (docs/arena.md,
    /// "The `guard` A/B"). `guardall` goes 2.5 plies deeper in the same nodes but was not shown
    /// better (docs/arena.md, "Pruning as Stockfish does: `guardall`"). It keeps pace with the
    /// opponents' clocks while they can sit (`sitpace`): `pace` scored 18.8 points more
    /// against Fairy-Stockfish's team through XBoard at 1+0 (56 seeds, 95% +8.0 to +29.5),
    /// and against opponents who never sit (UCI engines) `sitpace` plays as `guard`
    /// (docs/arena.md, "Keeping pace only with opponents who sit").
    pub const DEFAULT: SearchConfig = SearchConfig::GUARD_SIT_PACE;

    /// Every configuration with a name, as the arena's `bot?search=NAME` reads it.
    pub const NAMED: [(&'static str, SearchConfig); 45] = [
        ("base", SearchConfig::BASE),
        ("drops", SearchConfig::DROPS),
        ("clock", SearchConfig::CLOCK),
        ("race", SearchConfig::RACE),
        ("strong", SearchConfig::STRONG),
        ("guard", SearchConfig::GUARD),
        ("guardlean", SearchConfig::GUARD_LEAN),
        ("guardlong", SearchConfig::GUARD_LONG),
        ("guardcont", SearchConfig::GUARD_CONT),
        ("guardiir", SearchConfig::GUARD_IIR),
        ("guardprune", SearchConfig::GUARD_PRUNE),
        ("guardsafe", SearchConfig::GUARD_SAFE),
        ("guardsi", SearchConfig::GUARD_SAFE_IIR),
        ("guardsil", SearchConfig::GUARD_SI_LONG),
        ("guardsir", SearchConfig::GUARD_SI_REL),
        ("guardsirl", SearchConfig::GUARD_SI_REL_LONG),
        ("guardq", SearchConfig::GUARD_QS),
        ("guardsiq", SearchConfig::GUARD_SI_QS),
        ("guardsiqs", SearchConfig::GUARD_SI_QS_SAFE),
        ("guardsiqsl", SearchConfig::GUARD_SI_QS_SAFE_LONG),
        ("guardcp", SearchConfig::GUARD_COUNT),
        ("guardqt", SearchConfig::GUARD_QS_TT),
        ("guardcpqt", SearchConfig::GUARD_COUNT_QS_TT),
        ("guardfloor", SearchConfig::GUARD_FLOOR),
        ("guardev", SearchConfig::GUARD_EVASIONS),
        ("guardx", SearchConfig::GUARD_SI_QS_CHECKS),
        ("guardall", SearchConfig::GUARD_ALL),
        ("raceguard", SearchConfig::RACE_GUARD),
        ("guardtm", SearchConfig::GUARD_TIME),
        ("guardalltm", SearchConfig::GUARD_ALL_TIME),
        ("pace", SearchConfig::GUARD_PACE),
        ("pacewide", SearchConfig::GUARD_PACE_WIDE),
        ("guardshort", SearchConfig::GUARD_SHORT),
        ("sitout", SearchConfig::GUARD_SIT_OUT),
        ("quickopen", SearchConfig::GUARD_QUICK_OPEN),
        ("book", SearchConfig::GUARD_BOOK),
        ("sitracing", SearchConfig::GUARD_SIT_RACING),
        ("sitpace", SearchConfig::GUARD_SIT_PACE),
        ("sendhalf", SearchConfig::GUARD_SEND_HALF),
        ("send", SearchConfig::GUARD_SEND),
        ("matecheck", SearchConfig::GUARD_MATE_CHECK),
        ("waitlost", SearchConfig::GUARD_WAITING_LOST),
        ("waitstarve", SearchConfig::GUARD_WAIT_STARVE),
        ("threat", SearchConfig::GUARD_MATE_THREAT),
        ("default", SearchConfig::DEFAULT),
    ];

    /// The names of [`SearchConfig::NAMED`], `base|drops|...`, for the error of a bad name.
    pub fn names() -> String {
        SearchConfig::NAMED.map(|(name, _)| name).join("|")
    }

    /// The configuration of a name in [`SearchConfig::NAMED`].
    pub fn named(name: &str) -> Option<SearchConfig> {
        SearchConfig::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, config)| config)
    }
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig::DEFAULT
    }
}
