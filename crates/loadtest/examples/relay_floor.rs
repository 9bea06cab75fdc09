//! The floor under `bughouse loadtest`: the same traffic with nothing of bughouse in it. A relay
//! over plain TCP (length-prefixed frames) takes a player's move (150 bytes) and writes it to
//! the four players of its match (1,000 bytes each, about a `moved`), at once, from the task
//! that read it: no game, no JSON, no websocket, no store. Its players, as the load tool's, move
//! half a second after their turn comes, on two boards a match, and time each move from its
//! sending to the opponent reading it. What this costs on a machine, and the latency it gets,
//! is what the kernel's loopback TCP and tokio cost at that rate: no server of this traffic on
//! the same cores does better.
//!
//! ```sh
//! cargo build --release -p bughouse-loadtest --example relay_floor
//! R=target/release/examples/relay_floor
//! $R serve 127.0.0.1:8199 & SP=$!
//! $R play 127.0.0.1:8199 2450 0 75 & $R play 127.0.0.1:8199 2450 2450 75; wait %2
//! kill $SP   # the relay prints its CPU when it stops
//! ```
//!
//! `serve ADDR [WORKERS] [FILE]` runs the relay on a runtime of WORKERS threads (default 2, as
//! the server's); with FILE, durably: each move is appended to FILE and relayed only once a
//! thread of its own has synced the file (`fdatasync`), every move that queued meanwhile with
//! one sync, as the server stores before it sends (group commit; with `RELAY_SPLIT=1` the
//! task that read a move writes it, once told it is synced, rather than the syncing thread).
//! `play ADDR MATCHES FIRST DURATION` plays MATCHES matches (ids from FIRST, four connections
//! each, 1,000 new connections a second) on one thread for DURATION seconds and prints the
//! moves a second, the latency's percentiles after the ramp and its own CPU.

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bughouse_histogram::Histogram;
use bughouse_loadtest::procfs;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};

/// A move's frame from a player, and as relayed to the four players.
const MOVE_BYTES: usize = 150;
const RELAYED_BYTES: usize = 1_000;
/// A player moves this long after his turn comes.
const THINK: Duration = Duration::from_millis(500);
/// New connections a second, all players of one process.
const RAMP: f64 = 1_000.0;

/// The four write halves of a match's players (by seat).
type Match = Arc<Mutex<[Option<OwnedWriteHalf>; 4]>>;

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let bad = || io::Error::new(io::ErrorKind::InvalidInput, "usage: see the file's head");
    match args.get(1).map(String::as_str) {
        Some("serve") => {
            let addr = args.get(2).ok_or_else(bad)?.clone();
            let durable = match args.get(4) {
                Some(file) => Some(Durable {
                    queue: committer(file)?,
                    split: std::env::var("RELAY_SPLIT").is_ok_and(|v| v == "1"),
                }),
                None => None,
            };
            let workers = args
                .get(3)
                .map_or(Ok(2), |w| w.parse())
                .map_err(|_| bad())?;
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(workers)
                .enable_all()
                .build()?
                .block_on(serve(addr, durable))
        }
        Some("play") => {
            let addr = args.get(2).ok_or_else(bad)?.clone();
            let num = |i: usize| -> io::Result<u64> {
                args.get(i).ok_or_else(bad)?.parse().map_err(|_| bad())
            };
            let (matches, first, duration) = (num(3)?, num(4)?, num(5)?);
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?
                .block_on(play(addr, matches, first, Duration::from_secs(duration)))
        }
        _ => Err(bad()),
    }
}

/// This process's CPU time so far (user and system), in seconds.
fn cpu_seconds() -> f64 {
    procfs::cpu_ticks("self", false).map_or(0.0, |t| t as f64 / procfs::USER_HZ)
}

/// Frames read from a stream into a buffer of their own: [`Frames::fill`] may be cancelled (in
/// a `select!`) without losing a byte, as a read of a frame's parts with `read_exact` would.
#[derive(Default)]
struct Frames {
    buf: Vec<u8>,
}

impl Frames {
    /// Reads what the stream has (at least one byte; the end of the stream is an error).
    async fn fill(&mut self, r: &mut OwnedReadHalf) -> io::Result<()> {
        self.buf.reserve(4096);
        if r.read_buf(&mut self.buf).await? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(())
    }

    /// The next whole frame's payload into `out`, if one has been read.
    fn take(&mut self, out: &mut Vec<u8>) -> bool {
        let Some(head) = self.buf.get(..4) else {
            return false;
        };
        let n = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let Some(payload) = self.buf.get(4..4 + n) else {
            return false;
        };
        out.clear();
        out.extend_from_slice(payload);
        self.buf.drain(..4 + n);
        true
    }

    /// Waits for the next whole frame.
    async fn next(&mut self, r: &mut OwnedReadHalf, out: &mut Vec<u8>) -> io::Result<()> {
        while !self.take(out) {
            self.fill(r).await?;
        }
        Ok(())
    }
}

/// The durable relay: the queue to the syncing thread, and whether the reading task writes its
/// move once told it is synced (`RELAY_SPLIT=1`) or the syncing thread writes it.
#[derive(Clone)]
struct Durable {
    queue: std::sync::mpsc::Sender<Queued>,
    split: bool,
}

/// A move to relay once it is on disk: its match, its relayed frame, and (with
/// `RELAY_SPLIT=1`) the task to tell that it is, which then writes it itself.
type Queued = (Match, Vec<u8>, Option<tokio::sync::oneshot::Sender<()>>);

/// Starts the thread that appends queued moves to `file`, syncs it, then relays them.
fn committer(file: &str) -> io::Result<std::sync::mpsc::Sender<Queued>> {
    use std::io::Write;
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)?;
    let (tx, rx) = std::sync::mpsc::channel::<Queued>();
    std::thread::Builder::new()
        .name("committer".into())
        .spawn(move || {
            let mut batch = Vec::new();
            let mut syncs = 0u64;
            let mut sync_times = Histogram::default();
            let mut moves = 0u64;
            while let Ok(first) = rx.recv() {
                batch.push(first);
                batch.extend(rx.try_iter());
                for (_, frame, _) in &batch {
                    if log.write_all(&frame[4..4 + 16]).is_err() {
                        eprintln!("relay: cannot append");
                    }
                }
                let sync_began = Instant::now();
                if log.sync_data().is_err() {
                    eprintln!("relay: cannot sync");
                }
                let us = u64::try_from(sync_began.elapsed().as_micros()).unwrap_or(u64::MAX);
                sync_times.record(us);
                syncs += 1;
                moves += batch.len() as u64;
                if syncs.is_multiple_of(5_000) {
                    eprintln!(
                        "relay: {moves} moves in {syncs} syncs; the last 5,000 syncs {}",
                        sync_times.quantiles_text()
                    );
                    sync_times = Histogram::default();
                }
                for (m, frame, told) in batch.drain(..) {
                    match told {
                        Some(told) => {
                            let _ = told.send(());
                        }
                        None => write_all_players(&m, &frame),
                    }
                }
            }
        })?;
    Ok(tx)
}

/// Writes a relayed frame to the players of a match.
fn write_all_players(m: &Match, frame: &[u8]) {
    let players = m.lock().unwrap_or_else(PoisonError::into_inner);
    for w in players.iter().flatten() {
        // A relayed frame is far smaller than a loopback socket's buffer: a short write would
        // mean a player that does not read, which these do.
        match w.try_write(frame) {
            Ok(n) if n == frame.len() => {}
            _ => eprintln!("relay: a short write"),
        }
    }
}

async fn serve(addr: String, durable: Option<Durable>) -> io::Result<()> {
    let listener = TcpListener::bind(&addr).await?;
    let matches: Arc<Mutex<HashMap<u32, Match>>> = Arc::default();
    let started = Instant::now();
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, _) = accepted?;
                stream.set_nodelay(true)?;
                let matches = matches.clone();
                let durable = durable.clone();
                tokio::spawn(async move {
                    let _ = relay(stream, matches, durable).await;
                });
            }
            _ = term.recv() => break,
        }
    }
    let wall = started.elapsed().as_secs_f64();
    println!(
        "relay CPU {:.2} cores on average over {wall:.1} s",
        cpu_seconds() / wall
    );
    Ok(())
}

/// One player's connection: a hello (match id, seat), then moves, each relayed to the match.
async fn relay(
    stream: TcpStream,
    matches: Arc<Mutex<HashMap<u32, Match>>>,
    durable: Option<Durable>,
) -> io::Result<()> {
    let (mut r, w) = stream.into_split();
    let mut frames = Frames::default();
    let mut buf = Vec::with_capacity(MOVE_BYTES);
    frames.next(&mut r, &mut buf).await?;
    let id = u32::from_le_bytes(buf[0..4].try_into().unwrap_or_default());
    let seat = usize::from(buf[4] & 3);
    let m = matches
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(id)
        .or_default()
        .clone();
    m.lock().unwrap_or_else(PoisonError::into_inner)[seat] = Some(w);
    let mut out = vec![0u8; 4 + RELAYED_BYTES];
    out[0..4].copy_from_slice(&(RELAYED_BYTES as u32).to_be_bytes());
    loop {
        frames.next(&mut r, &mut buf).await?;
        // The move's header (board, seat, send time) at the head of the relayed frame.
        out[4..4 + 16].copy_from_slice(&buf[0..16]);
        match &durable {
            Some(Durable { queue, split: true }) => {
                let (told, synced) = tokio::sync::oneshot::channel();
                let _ = queue.send((m.clone(), out.clone(), Some(told)));
                let _ = synced.await;
                write_all_players(&m, &out);
            }
            Some(Durable { queue, .. }) => {
                let _ = queue.send((m.clone(), out.clone(), None));
            }
            None => write_all_players(&m, &out),
        }
    }
}

fn now_ns() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// What the players of one process measured.
#[derive(Default)]
struct Tally {
    latency: Histogram,
    moves: u64,
}

async fn play(addr: String, matches: u64, first: u64, duration: Duration) -> io::Result<()> {
    let started = Instant::now();
    let cpu_at_start = cpu_seconds();
    let ramp = Duration::from_secs_f64((matches * 4) as f64 / RAMP);
    let after_ramp = started + ramp + Duration::from_secs(2);
    let end = started + duration;
    let tally: Arc<Mutex<Tally>> = Arc::default();
    let mut tasks = Vec::new();
    for i in 0..matches {
        let id = (first + i) as u32;
        for seat in 0..4u8 {
            let at = started + Duration::from_secs_f64((i * 4 + u64::from(seat)) as f64 / RAMP);
            tokio::time::sleep_until(at.into()).await;
            let stream = TcpStream::connect(&addr).await?;
            stream.set_nodelay(true)?;
            let tally = tally.clone();
            tasks.push(tokio::spawn(player(
                stream, id, seat, after_ramp, end, tally,
            )));
        }
    }
    for t in tasks {
        let _ = t.await;
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu_at_start;
    let tally = tally.lock().unwrap_or_else(PoisonError::into_inner);
    let measured = end.saturating_duration_since(after_ramp).as_secs_f64();
    println!(
        "players {first}..: {} moves/s after ramp, latency {} ({} moves); CPU {:.2} cores over {wall:.1} s",
        (tally.moves as f64 / measured).round(),
        tally.latency.quantiles_text(),
        tally.moves,
        cpu / wall,
    );
    Ok(())
}

/// One player: seat 0 and 1 on board 0 (white, black), 2 and 3 on board 1. White moves first on
/// each board; a move relayed on our board by our opponent is our turn: timed, and answered
/// half a second later.
async fn player(
    stream: TcpStream,
    id: u32,
    seat: u8,
    after_ramp: Instant,
    end: Instant,
    tally: Arc<Mutex<Tally>>,
) -> io::Result<()> {
    let (mut r, mut w) = stream.into_split();
    let mut hello = [0u8; 4 + 5];
    hello[0..4].copy_from_slice(&5u32.to_be_bytes());
    hello[4..8].copy_from_slice(&id.to_le_bytes());
    hello[8] = seat;
    w.write_all(&hello).await?;
    let board = seat / 2;
    let mut next = seat
        .is_multiple_of(2)
        .then(|| Instant::now() + THINK + Duration::from_secs(1));
    let mut frame = vec![0u8; 4 + MOVE_BYTES];
    frame[0..4].copy_from_slice(&(MOVE_BYTES as u32).to_be_bytes());
    let mut frames = Frames::default();
    let mut buf = Vec::with_capacity(RELAYED_BYTES);
    loop {
        while frames.take(&mut buf) {
            let (b, mover) = (buf[0], buf[1]);
            if b == board && mover != seat {
                let sent = u64::from_le_bytes(buf[8..16].try_into().unwrap_or_default());
                let now = Instant::now();
                if now >= after_ramp && now < end {
                    let mut t = tally.lock().unwrap_or_else(PoisonError::into_inner);
                    t.latency.record(now_ns().saturating_sub(sent) / 1_000);
                    t.moves += 1;
                }
                next = Some(now + THINK);
            }
        }
        let wake = next.unwrap_or(end).min(end);
        tokio::select! {
            read = frames.fill(&mut r) => read?,
            _ = tokio::time::sleep_until(wake.into()) => {
                if Instant::now() >= end {
                    return Ok(());
                }
                frame[4] = board;
                frame[5] = seat;
                frame[12..20].copy_from_slice(&now_ns().to_le_bytes());
                w.write_all(&frame).await?;
                next = None;
            }
        }
    }
}
