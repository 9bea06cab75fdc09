//! `bughouse chaos`: a crash test of the server's promises about stored moves and results.
//!
//! The command starts `bughouse serve` itself (this same executable) on a free loopback port and
//! a fresh SQLite database, creates `--matches` matches and seats four simulated players in each.
//! The players play random legal moves, each action with an id of their own. Meanwhile the server
//! is killed with SIGKILL `--kills` times at random moments (a seeded RNG) and started again on
//! the same database and port; the players come back with `hello` and their seat tokens and send
//! again, with the same ids, every action the server has not acknowledged yet.
//!
//! Every player notes each move acknowledged to it (id, UCI, the ply when known) and each result
//! reported to it. At the end (every match finished, or `--duration-max` reached) the store is
//! opened directly and a last server is started for the BPGN records, and the run checks: every
//! acknowledged move is stored exactly once under its id with the same UCI; no action id is
//! stored twice; no reported result differs from the stored one and a match reported finished is
//! stored finished; every created match loads; every BPGN record replays and has as many moves
//! as the store. It exits 0 only when all of that holds.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bughouse_core::{Preset, TimeControl};
use bughouse_protocol::{BoardState, ClientFrame, ClientMessage, ServerMessage};
use bughouse_store::{MatchStatus, Store, StoredMatch};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use crate::client::{self, MoveList, Target, Ws, BOARDS, SEATS};

/// How long a started server may take to answer HTTP.
const START_PATIENCE: Duration = Duration::from_secs(60);
/// After its match ended, how long a player waits for the answers to actions still unanswered.
const END_PATIENCE: Duration = Duration::from_secs(3);
/// How long seating every player may take before the kills begin anyway.
const SEATING_PATIENCE: Duration = Duration::from_secs(60);
/// A player's thinking time before a move, in milliseconds.
const THINK_MS: std::ops::RangeInclusive<u64> = 50..=300;
/// At most this many failures are listed one by one.
const MAX_LISTED: usize = 40;

/// The options of `bughouse chaos`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Matches played at once (four simulated players each).
    #[arg(long, default_value_t = 20)]
    matches: usize,
    /// How many times the server is killed (SIGKILL) and started again.
    #[arg(long, default_value_t = 10)]
    kills: usize,
    /// Time control of the matches, BASE+INC (`1+0`, `0.5+0`, `20s+0`): short, so that they
    /// end by mate or flag during the run.
    #[arg(long = "time", default_value = "1+0")]
    time: String,
    /// Rules preset of the matches.
    #[arg(long, default_value = "fide")]
    rules: String,
    /// The database of the server (default: a fresh SQLite database in a temporary directory).
    #[arg(long)]
    database: Option<String>,
    /// Seed of the random choices (kill moments, moves, thinking times); default random.
    #[arg(long)]
    seed: Option<u64>,
    /// Stop after this many seconds even if matches are still playing, and check what exists.
    #[arg(long, default_value_t = 900.0)]
    duration_max: f64,
}

/// Runs `bughouse chaos`.
pub fn main(args: Args) -> ExitCode {
    let time: TimeControl = match args.time.parse() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: --time: {e}");
            return ExitCode::from(2);
        }
    };
    if args.rules.parse::<Preset>().is_err() {
        eprintln!(
            "error: --rules {:?}: not a preset (see `bughouse rules`)",
            args.rules
        );
        return ExitCode::from(2);
    }
    if args.duration_max.is_nan() || args.duration_max <= 0.0 || args.matches == 0 {
        eprintln!("error: --duration-max and --matches must be positive");
        return ExitCode::from(2);
    }
    // Four sockets per match, and reconnections besides.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(run(&args, time)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The server as a child process.

/// `bughouse serve` on a fixed address and database; its standard error goes to a log file of
/// the run's directory, appended to by every start.
struct Server {
    exe: PathBuf,
    addr: SocketAddr,
    database: String,
    log: PathBuf,
    target: Target,
    child: Option<Child>,
}

impl Server {
    /// Starts the server and waits until it answers HTTP.
    async fn start(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + START_PATIENCE;
        loop {
            let log = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.log)
                .map_err(|e| format!("{}: {e}", self.log.display()))?;
            let child = Process::new(&self.exe)
                .args(["serve", "--addr", &self.addr.to_string()])
                .args(["--database", &self.database])
                .env("RUST_LOG", "warn")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .map_err(|e| format!("cannot start {}: {e}", self.exe.display()))?;
            self.child = Some(child);
            loop {
                let exited = match self.child.as_mut().map(Child::try_wait) {
                    Some(Ok(Some(status))) => Some(status.to_string()),
                    Some(Err(e)) => return Err(format!("cannot wait for the server: {e}")),
                    _ => None,
                };
                if let Some(status) = exited {
                    self.child = None;
                    // The port may still be held for a moment; try again until the deadline.
                    if Instant::now() >= deadline {
                        return Err(format!(
                            "the server exited with {status}; see {}",
                            self.log.display()
                        ));
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    break;
                }
                if let Ok(a) = client::http(&self.target, "GET", "/api/archive?limit=1", None).await
                {
                    if a.status == 200 {
                        return Ok(());
                    }
                }
                if Instant::now() >= deadline {
                    return Err(format!(
                        "the server does not answer on {}; see {}",
                        self.addr,
                        self.log.display()
                    ));
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }

    /// SIGKILL, as a crash: nothing is flushed beyond what the server had stored.
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

fn free_port() -> Result<SocketAddr, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("a free port: {e}"))?;
    listener.local_addr().map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------------
// The players.

/// A move acknowledged to a player.
#[derive(Debug, Clone)]
struct AckedMove {
    id: u64,
    uci: String,
    /// Its ply, when the player saw it played on the connection that got the `ack`.
    ply: Option<usize>,
}

/// What one player saw over the whole run.
#[derive(Debug, Default)]
struct PlayerLog {
    match_index: usize,
    seat: usize,
    acked: Vec<AckedMove>,
    /// Results reported to it (`ended`, or the state of a finished match), `*` left out.
    results: Vec<String>,
    /// Whether it saw its match end.
    finished: bool,
    /// Whether it got its seat.
    seated: bool,
    /// Refusals of its actions, by error code.
    refused: BTreeMap<String, u64>,
    /// Connections opened after the first.
    reconnects: u64,
    /// Actions sent again after a reconnection.
    resent: u64,
    /// `hello` with its token that did not give it its seat back.
    token_refused: u64,
    /// An `ack` for an id it had no action waiting for.
    stray_acks: u64,
}

/// An action sent and not answered yet.
struct Pending {
    id: u64,
    msg: ClientMessage,
    /// For a move: its ply as seen in `moved` on connection `generation`.
    seen: Option<(u64, usize)>,
}

/// What the players share.
struct Shared {
    target: Target,
    /// Players that saw their match end.
    finished: AtomicUsize,
    /// Players seated.
    seated: AtomicUsize,
}

async fn send(ws: &mut Ws, frame: &ClientFrame) -> Result<(), ()> {
    let text = serde_json::to_string(frame).map_err(|_| ())?;
    tokio::time::timeout(client::IO_TIMEOUT, ws.send(Message::Text(text.into())))
        .await
        .map_err(|_| ())?
        .map_err(|_| ())
}

/// One simulated player: sits, plays random legal moves when it is his turn, reconnects and
/// resends after every loss of the connection, until his match ends or `stop`.
async fn player(
    shared: Arc<Shared>,
    match_id: String,
    match_index: usize,
    seat: usize,
    seed: u64,
    mut stop: watch::Receiver<bool>,
) -> PlayerLog {
    let mut log = PlayerLog {
        match_index,
        seat,
        ..PlayerLog::default()
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let me = SEATS[seat];
    let my_board = BOARDS[seat / 2];
    let mut token: Option<String> = None;
    let mut next_id: u64 = 1;
    let mut pending: Vec<Pending> = Vec::new();
    let mut generation: u64 = 0;
    let mut done = false;
    'connection: loop {
        if *stop.borrow() {
            break;
        }
        let mut ws = match client::connect(&shared.target).await {
            Ok(ws) => ws,
            Err(_) => {
                let pause = Duration::from_millis(rng.gen_range(50..=200));
                tokio::select! {
                    _ = stop.changed() => break,
                    () = tokio::time::sleep(pause) => continue,
                }
            }
        };
        generation += 1;
        if generation > 1 {
            log.reconnects += 1;
        }
        let hello = ClientMessage::Hello {
            match_id: match_id.clone(),
            token: token.clone(),
        };
        if send(&mut ws, &hello.into()).await.is_err() {
            continue;
        }
        if token.is_none()
            && !pending
                .iter()
                .any(|p| matches!(p.msg, ClientMessage::Sit { .. }))
        {
            pending.push(Pending {
                id: next_id,
                msg: ClientMessage::Sit {
                    seat: me.parse().unwrap_or(bughouse_protocol::SeatName::WhiteA),
                    name: format!("chaos{match_index}-{seat}"),
                },
                seen: None,
            });
            next_id += 1;
        } else if generation > 1 {
            log.resent += pending.len() as u64;
        }
        for p in &pending {
            let frame = ClientFrame {
                id: Some(p.id),
                msg: p.msg.clone(),
            };
            if send(&mut ws, &frame).await.is_err() {
                continue 'connection;
            }
        }
        let mut legal: Option<Vec<String>> = None;
        let mut due: Option<tokio::time::Instant> = None;
        let mut give_up: Option<tokio::time::Instant> = None;
        loop {
            if done && pending.is_empty() {
                break 'connection;
            }
            if done && give_up.is_none() {
                give_up = Some(tokio::time::Instant::now() + END_PATIENCE);
            }
            let moving = pending
                .iter()
                .any(|p| matches!(p.msg, ClientMessage::Move { .. }));
            if !done
                && token.is_some()
                && !moving
                && due.is_none()
                && legal.as_ref().is_some_and(|l| !l.is_empty())
            {
                due = Some(
                    tokio::time::Instant::now() + Duration::from_millis(rng.gen_range(THINK_MS)),
                );
            }
            let far = tokio::time::Instant::now() + Duration::from_secs(3600);
            let wake = due.unwrap_or(far).min(give_up.unwrap_or(far));
            let frame = tokio::select! {
                _ = stop.changed() => break 'connection,
                () = tokio::time::sleep_until(wake) => None,
                f = ws.next() => Some(f),
            };
            let Some(frame) = frame else {
                // A timer: the end of the patience, or a move that is due.
                if give_up.is_some_and(|g| g <= tokio::time::Instant::now()) {
                    break 'connection;
                }
                due = None;
                if done || moving || token.is_none() {
                    continue;
                }
                let Some(moves) = legal.as_ref().filter(|l| !l.is_empty()) else {
                    continue;
                };
                let uci = client::pick(&MoveList(moves.join(" ")), &mut rng);
                let msg = ClientMessage::Move { uci };
                let id = next_id;
                next_id += 1;
                pending.push(Pending {
                    id,
                    msg: msg.clone(),
                    seen: None,
                });
                if send(&mut ws, &ClientFrame { id: Some(id), msg })
                    .await
                    .is_err()
                {
                    continue 'connection;
                }
                continue;
            };
            let text = match frame {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => continue 'connection,
                Some(Ok(_)) => continue,
            };
            let Ok(msg) = serde_json::from_str::<ServerMessage>(text.as_str()) else {
                continue;
            };
            match msg {
                ServerMessage::State { state, you } => {
                    if token.is_some()
                        && you.map(|y| y.as_str()) != Some(me)
                        && state.status != "finished"
                    {
                        log.token_refused += 1;
                    }
                    if state.status == "finished" {
                        if let Some(r) = state.result.filter(|r| r.result != "*") {
                            log.results.push(r.result);
                        }
                        done = true;
                    }
                    legal = board_legal(&state.boards, my_board).unwrap_or(None);
                }
                ServerMessage::Seated { seat: s, token: t } if s == me => {
                    token = Some(t);
                    if !log.seated {
                        log.seated = true;
                        shared.seated.fetch_add(1, Ordering::Relaxed);
                    }
                }
                ServerMessage::Moved {
                    mv, board, other, ..
                } => {
                    if mv.seat == me {
                        if let Some(p) = pending.iter_mut().rev().find(
                            |p| matches!(&p.msg, ClientMessage::Move { uci } if *uci == mv.uci),
                        ) {
                            p.seen = Some((generation, mv.ply));
                        }
                    }
                    if let Some(l) = board_legal(&[board, other], my_board) {
                        legal = l;
                    }
                }
                ServerMessage::Ended { result, .. } if result.result != "*" => {
                    log.results.push(result.result);
                    done = true;
                }
                ServerMessage::Ack { id, .. } => match pending.iter().position(|p| p.id == id) {
                    Some(i) => {
                        let p = pending.remove(i);
                        if let ClientMessage::Move { uci } = p.msg {
                            let ply = p.seen.filter(|s| s.0 == generation).map(|s| s.1);
                            log.acked.push(AckedMove { id, uci, ply });
                        }
                    }
                    None => log.stray_acks += 1,
                },
                ServerMessage::Error { code, id, .. } => {
                    *log.refused.entry(code.to_string()).or_insert(0) += 1;
                    if let Some(id) = id {
                        pending.retain(|p| p.id != id);
                    }
                    if code == bughouse_protocol::ErrorCode::NoSuchMatch {
                        // The match is gone: nothing to play; the check reports it.
                        break 'connection;
                    }
                }
                _ => {}
            }
        }
    }
    if done {
        log.finished = true;
        shared.finished.fetch_add(1, Ordering::Relaxed);
    }
    log
}

/// The legal moves for us among these boards, if one of them is ours: `Some(None)` when it is
/// not our turn there.
fn board_legal(boards: &[BoardState], mine: &str) -> Option<Option<Vec<String>>> {
    boards.iter().find(|b| b.board == mine).map(|b| {
        b.legal
            .as_ref()
            .map(|l| l.iter().map(str::to_owned).collect())
    })
}

// ---------------------------------------------------------------------------------------------
// The run.

/// Figures of the run.
#[derive(Debug, Default)]
struct Figures {
    kills: usize,
    kills_playing: usize,
    restart_secs: Vec<f64>,
    matches: usize,
    finished: usize,
    lost_matches: usize,
    acked: usize,
    stored: usize,
    missing: usize,
    duplicates: usize,
    results_reported: usize,
    results_changed: usize,
    bpgn_ok: usize,
    bpgn_failed: usize,
    token_refused: u64,
    resent: u64,
    reconnects: u64,
    stray_acks: u64,
    refused: BTreeMap<String, u64>,
    failures: Vec<String>,
}

async fn run(args: &Args, time: TimeControl) -> Result<bool, String> {
    let clock = Instant::now();
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut rng = StdRng::seed_from_u64(seed);
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let dir = std::env::temp_dir().join(format!(
        "bughouse-chaos-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let database = args
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("chaos.db").display()));
    let addr = free_port()?;
    let target = Target::of_addr(addr, addr.to_string());
    let log_path = dir.join("server.log");
    File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    eprintln!(
        "chaos: {} matches ({}, {}), {} kills, seed {seed}, server on {addr}, database {database}, \
         logs in {}",
        args.matches,
        args.rules,
        args.time,
        args.kills,
        dir.display()
    );
    let mut server = Server {
        exe,
        addr,
        database: database.clone(),
        log: log_path.clone(),
        target: target.clone(),
        child: None,
    };
    server.start().await?;
    let deadline = clock + Duration::from_secs_f64(args.duration_max);

    let mut ids = Vec::with_capacity(args.matches);
    for _ in 0..args.matches {
        ids.push(client::create_match(&target, &args.rules, &args.time).await?);
    }
    let shared = Arc::new(Shared {
        target: target.clone(),
        finished: AtomicUsize::new(0),
        seated: AtomicUsize::new(0),
    });
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut tasks = Vec::with_capacity(args.matches * 4);
    for (m, id) in ids.iter().enumerate() {
        for seat in 0..4 {
            tasks.push(tokio::spawn(player(
                shared.clone(),
                id.clone(),
                m,
                seat,
                rng.gen(),
                stop_rx.clone(),
            )));
        }
    }
    let players = tasks.len();
    let seating_end = Instant::now() + SEATING_PATIENCE;
    while shared.seated.load(Ordering::Relaxed) < players
        && Instant::now() < seating_end.min(deadline)
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "chaos: {} of {players} players seated after {:.1} s",
        shared.seated.load(Ordering::Relaxed),
        clock.elapsed().as_secs_f64()
    );

    // The kills: the server lives a random while (on average the base time spread over the
    // kills), dies, stays down a moment and comes back. Once every match is over the remaining
    // kills follow each other quickly: finished matches must stay finished.
    let mut figures = Figures::default();
    let mean_gap = (time.base.as_secs_f64() / (args.kills as f64 + 1.0)).clamp(0.3, 30.0);
    while figures.kills < args.kills && Instant::now() < deadline {
        let all_over = shared.finished.load(Ordering::Relaxed) >= players;
        let uptime = if all_over {
            Duration::from_millis(200)
        } else {
            Duration::from_secs_f64(mean_gap * rng.gen_range(0.5..1.5))
        };
        let until = (Instant::now() + uptime).min(deadline);
        tokio::time::sleep_until(tokio::time::Instant::from_std(until)).await;
        let playing = shared.finished.load(Ordering::Relaxed) < players;
        let down_at = Instant::now();
        server.kill();
        figures.kills += 1;
        if playing {
            figures.kills_playing += 1;
        }
        tokio::time::sleep(Duration::from_millis(rng.gen_range(0..=300))).await;
        server.start().await?;
        figures.restart_secs.push(down_at.elapsed().as_secs_f64());
        eprintln!(
            "chaos: t={:.1}s kill {} of {} survived ({} of {players} players done)",
            clock.elapsed().as_secs_f64(),
            figures.kills,
            args.kills,
            shared.finished.load(Ordering::Relaxed)
        );
    }
    while shared.finished.load(Ordering::Relaxed) < players && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if Instant::now() >= deadline {
        eprintln!(
            "chaos: --duration-max reached with {} of {players} players done",
            shared.finished.load(Ordering::Relaxed)
        );
    }
    let _ = stop_tx.send(true);
    let mut logs = Vec::with_capacity(players);
    for t in tasks {
        match t.await {
            Ok(log) => logs.push(log),
            Err(e) => figures.failures.push(format!("a player task failed: {e}")),
        }
    }
    // The store, as the last server left it.
    server.kill();
    let store = Store::connect(&database)
        .await
        .map_err(|e| format!("the store: {e}"))?;
    let mut stored: Vec<Option<StoredMatch>> = Vec::with_capacity(ids.len());
    for id in &ids {
        match store.load_match(id).await {
            Ok(m) => stored.push(m),
            Err(e) => {
                figures
                    .failures
                    .push(format!("match {id}: cannot load: {e}"));
                stored.push(None);
            }
        }
    }
    store.close().await;
    // The records, from a last server.
    server.start().await?;
    let mut records = Vec::with_capacity(ids.len());
    for id in &ids {
        records.push(client::http(&target, "GET", &format!("/api/matches/{id}/bpgn"), None).await);
    }
    server.kill();

    check(&ids, &stored, &records, &logs, &mut figures);
    figures.matches = ids.len();
    let ok = print_summary(&figures, clock.elapsed(), &dir);
    if ok {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(ok)
}

/// Compares what the players were told with the store and the records.
fn check(
    ids: &[String],
    stored: &[Option<StoredMatch>],
    records: &[Result<client::Answer, String>],
    logs: &[PlayerLog],
    f: &mut Figures,
) {
    for log in logs {
        f.token_refused += log.token_refused;
        f.resent += log.resent;
        f.reconnects += log.reconnects;
        f.stray_acks += log.stray_acks;
        for (code, n) in &log.refused {
            *f.refused.entry(code.clone()).or_insert(0) += n;
        }
        if !log.seated {
            f.failures.push(format!(
                "match {}: {} never got the seat",
                ids[log.match_index], SEATS[log.seat]
            ));
        }
        if log.token_refused > 0 {
            f.failures.push(format!(
                "match {}: {}'s token refused {} time(s) after a restart",
                ids[log.match_index], SEATS[log.seat], log.token_refused
            ));
        }
    }
    for (i, id) in ids.iter().enumerate() {
        let Some(m) = &stored[i] else {
            f.lost_matches += 1;
            f.failures.push(format!("match {id}: not in the store"));
            continue;
        };
        f.stored += m.moves.len();
        if m.status == MatchStatus::Finished {
            f.finished += 1;
        }
        // (seat, action id) -> the stored moves with it.
        let mut by_id: BTreeMap<(u8, i64), Vec<usize>> = BTreeMap::new();
        for (k, mv) in m.moves.iter().enumerate() {
            if let Some(aid) = mv.action_id {
                by_id.entry((mv.seat, aid)).or_default().push(k);
            }
        }
        for ((seat, aid), at) in &by_id {
            if at.len() > 1 {
                f.duplicates += at.len() - 1;
                let plies: Vec<i64> = at.iter().map(|&k| m.moves[k].ply).collect();
                f.failures.push(format!(
                    "match {id}: {}'s action id {aid} stored {} times (plies {plies:?})",
                    SEATS[usize::from(*seat) % 4],
                    at.len()
                ));
            }
        }
        for log in logs.iter().filter(|l| l.match_index == i) {
            let who = SEATS[log.seat];
            for a in &log.acked {
                f.acked += 1;
                let found = i64::try_from(a.id)
                    .ok()
                    .and_then(|aid| by_id.get(&(log.seat as u8, aid)));
                let Some(at) = found else {
                    f.missing += 1;
                    f.failures.push(format!(
                        "match {id}: {who}'s move {} (id {}, ply {}) acknowledged but not stored",
                        a.uci,
                        a.id,
                        a.ply.map_or("?".to_owned(), |p| p.to_string())
                    ));
                    continue;
                };
                let mv = &m.moves[at[0]];
                if mv.uci != a.uci {
                    f.failures.push(format!(
                        "match {id}: {who}'s move id {} acknowledged as {} but stored as {} (ply {})",
                        a.id, a.uci, mv.uci, mv.ply
                    ));
                }
                if let Some(ply) = a.ply {
                    if i64::try_from(ply).ok() != Some(mv.ply) {
                        f.failures.push(format!(
                            "match {id}: {who}'s move {} (id {}) played at ply {ply} but stored at \
                             ply {}",
                            a.uci, a.id, mv.ply
                        ));
                    }
                }
            }
            for r in &log.results {
                f.results_reported += 1;
                if m.status != MatchStatus::Finished {
                    f.results_changed += 1;
                    f.failures.push(format!(
                        "match {id}: {who} was told {r} but the match is stored {}",
                        m.status
                    ));
                } else if m.result.as_deref() != Some(r.as_str()) {
                    f.results_changed += 1;
                    f.failures.push(format!(
                        "match {id}: {who} was told {r} but the stored result is {}",
                        m.result.as_deref().unwrap_or("none")
                    ));
                }
            }
        }
        // The record replays, with as many moves as the store holds.
        let rules = m
            .rules_preset
            .parse::<Preset>()
            .map(|p| p.rules())
            .unwrap_or_else(|_| bughouse_core::Rules::fide());
        let verdict = match &records[i] {
            Err(e) => Err(format!("GET bpgn: {e}")),
            Ok(a) if a.status != 200 => Err(format!("GET bpgn: HTTP {}: {}", a.status, a.body)),
            Ok(a) => match bughouse_bpgn::read_games(a.body.as_bytes()).next() {
                None => Err("the BPGN holds no game".to_owned()),
                Some(Err(e)) => Err(format!("the BPGN does not read: {e}")),
                Some(Ok(record)) => match bughouse_bpgn::replay(&record, Some(rules)) {
                    Err(e) => Err(format!("the BPGN does not replay: {e}")),
                    Ok(_) if record.moves.len() != m.moves.len() => Err(format!(
                        "the BPGN has {} moves, the store {}",
                        record.moves.len(),
                        m.moves.len()
                    )),
                    Ok(_) => Ok(()),
                },
            },
        };
        match verdict {
            Ok(()) => f.bpgn_ok += 1,
            Err(e) => {
                f.bpgn_failed += 1;
                f.failures.push(format!("match {id}: {e}"));
            }
        }
    }
}

/// Prints the figures; whether the run passed.
fn print_summary(f: &Figures, wall: Duration, dir: &Path) -> bool {
    let restart = if f.restart_secs.is_empty() {
        String::new()
    } else {
        let mean = f.restart_secs.iter().sum::<f64>() / f.restart_secs.len() as f64;
        let max = f.restart_secs.iter().copied().fold(0.0, f64::max);
        format!(", down {mean:.2} s on average, {max:.2} s at most")
    };
    println!(
        "kills survived         {} ({} while matches were playing){restart}",
        f.kills, f.kills_playing
    );
    println!(
        "matches                {} finished / {} total, {} lost",
        f.finished, f.matches, f.lost_matches
    );
    println!(
        "moves                  {} acknowledged, {} stored, {} acknowledged but missing",
        f.acked, f.stored, f.missing
    );
    println!("duplicate applications {}", f.duplicates);
    println!(
        "results                {} reported, {} changed",
        f.results_reported, f.results_changed
    );
    println!(
        "bpgn                   {} replayed with the stored move count, {} failed",
        f.bpgn_ok, f.bpgn_failed
    );
    println!(
        "reconnections          {} ({} actions resent, {} seats refused, {} stray acks), \
         refusals {:?}",
        f.reconnects, f.resent, f.token_refused, f.stray_acks, f.refused
    );
    println!("wall time              {:.1} s", wall.as_secs_f64());
    let ok = f.failures.is_empty()
        && f.missing == 0
        && f.duplicates == 0
        && f.results_changed == 0
        && f.lost_matches == 0
        && f.bpgn_failed == 0;
    for line in f.failures.iter().take(MAX_LISTED) {
        println!("FAILED: {line}");
    }
    if f.failures.len() > MAX_LISTED {
        println!("FAILED: ... and {} more", f.failures.len() - MAX_LISTED);
    }
    if ok {
        println!("result                 OK");
    } else {
        println!(
            "result                 FAILED (server log and database in {})",
            dir.display()
        );
    }
    ok
}
