//! The crash test (`bughouse chaos`) of the server's promises about stored moves and results.
//!
//! The test starts the server itself (this same program run as `PROGRAM serve`) on a free
//! loopback port and a fresh SQLite database, creates `--matches` matches and seats four
//! simulated players in each.
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
//! as the store. The run passes ([`Outcome::passed`]) only when all of that holds.
//!
//! - [`server`]: the server as a child process.
//! - [`player`]: one simulated player.
//! - [`check`]: the comparison with the store and the records, and the figures.

mod check;
mod player;
mod server;

use std::fs::File;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bughouse_core::{ParseTimeControlError, Preset, TimeControl};
use bughouse_store::{Store, StoreError, StoredMatch};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::watch;

use crate::client::{ClientError, Target, TargetError};
use check::{check, summary, Figures};
use player::{player, Shared};
use server::{free_port, Server};

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

/// What a crash test does (the options of `bughouse chaos`).
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Matches played at once (four simulated players each).
    pub matches: usize,
    /// How many times the server is killed (SIGKILL) and started again.
    pub kills: usize,
    /// Time control of the matches, BASE+INC, as the server is asked for it.
    pub time: String,
    /// Rules preset of the matches.
    pub rules: String,
    /// The database of the server (default: a fresh SQLite database in a temporary directory).
    pub database: Option<String>,
    /// Seed of the random choices (kill moments, moves, thinking times); default random.
    pub seed: Option<u64>,
    /// Stop after this many seconds even if matches are still playing.
    pub duration_max: f64,
}

/// Why a crash test could not run to its verdict.
#[derive(Debug, thiserror::Error)]
pub enum ChaosError {
    /// The time control does not read.
    #[error("--time: {0}")]
    Time(#[from] ParseTimeControlError),
    /// No such preset.
    #[error("--rules {0:?}: not a preset (see `bughouse rules`)")]
    Rules(String),
    /// A count or duration that is not positive.
    #[error("--duration-max and --matches must be positive")]
    NotPositive,
    /// The tokio runtime did not start.
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    /// This program cannot be found to start the server.
    #[error("cannot find this program: {0}")]
    Exe(std::io::Error),
    /// A file or directory of the run.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No free loopback port.
    #[error("a free port: {0}")]
    FreePort(std::io::Error),
    /// The server did not start.
    #[error("cannot start {}: {source}", exe.display())]
    Spawn {
        /// The program.
        exe: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The server's process could not be waited for.
    #[error("cannot wait for the server: {0}")]
    Wait(std::io::Error),
    /// The server exited at start, until the deadline.
    #[error("the server exited with {status}; see {}", log.display())]
    Exited {
        /// How it exited.
        status: std::process::ExitStatus,
        /// Its log.
        log: PathBuf,
    },
    /// The server did not answer HTTP in time.
    #[error("the server does not answer on {addr}; see {}", log.display())]
    NoAnswer {
        /// Where it should listen.
        addr: std::net::SocketAddr,
        /// Its log.
        log: PathBuf,
    },
    /// The HTTP client.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// A match could not be created.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The store could not be opened.
    #[error("the store: {0}")]
    Store(StoreError),
}

/// The verdict of a crash test.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The figures, one per line, the failures listed, `result OK` or `result FAILED` last.
    pub text: String,
    /// Whether no acknowledged move or result was lost, doubled or changed.
    pub passed: bool,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Runs a crash test on a runtime of its own; progress goes to standard error.
///
/// # Errors
///
/// [`ChaosError`]: the config is refused, or the server, the store or the files of the run
/// failed (a run that finds lost moves is an [`Outcome`] that did not pass).
pub fn run(config: &Config) -> Result<Outcome, ChaosError> {
    let time: TimeControl = config.time.parse()?;
    if config.rules.parse::<Preset>().is_err() {
        return Err(ChaosError::Rules(config.rules.clone()));
    }
    if config.duration_max.is_nan() || config.duration_max <= 0.0 || config.matches == 0 {
        return Err(ChaosError::NotPositive);
    }
    // Four sockets per match, and reconnections besides.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ChaosError::Runtime)?;
    runtime.block_on(run_async(config, time))
}

async fn run_async(args: &Config, time: TimeControl) -> Result<Outcome, ChaosError> {
    let clock = Instant::now();
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut rng = StdRng::seed_from_u64(seed);
    let exe = std::env::current_exe().map_err(ChaosError::Exe)?;
    let dir = std::env::temp_dir().join(format!(
        "bughouse-chaos-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&dir).map_err(|source| ChaosError::File {
        path: dir.clone(),
        source,
    })?;
    let database = args
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite://{}", dir.join("chaos.db").display()));
    let addr = free_port()?;
    let target = Target::of_addr(addr, addr.to_string())?;
    let log_path = dir.join("server.log");
    File::create(&log_path).map_err(|source| ChaosError::File {
        path: log_path.clone(),
        source,
    })?;
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
        ids.push(target.create_match(&args.rules, &args.time).await?);
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
    let store = Store::connect(&database).await.map_err(ChaosError::Store)?;
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
        records.push(target.get(&format!("/api/matches/{id}/bpgn")).await);
    }
    server.kill();

    check(&ids, &stored, &records, &logs, &mut figures);
    figures.matches = ids.len();
    let mut text = String::new();
    let passed = summary(&figures, clock.elapsed(), &dir, &mut text);
    if passed {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(Outcome { text, passed })
}
