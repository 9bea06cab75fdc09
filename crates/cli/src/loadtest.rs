//! `bughouse loadtest`: many simulated players against a running server, on this machine only.
//!
//! Each match is one task holding the four websocket connections of its seats (`hello`, `sit`).
//! A player whose turn it is (he received `legal` for his board in `state` or `moved`) waits
//! `--move-every` seconds and plays a random legal move. The latency of a move is the time from
//! the mover's send to the arrival of the corresponding `moved` (same ply, same move) at the
//! opponent on the same board; both ends are in the same task, timed by one process-wide
//! [`Instant`]. A match that ends is replaced at once: the same four connections say `hello` to
//! a newly created match and sit again, so the number of live matches stays at `--matches`.
//!
//! Connections are opened at `--ramp` per second. The open-file limit is raised to the hard
//! limit; when one process cannot hold all connections within it, the work is split over worker
//! processes (this same binary with the hidden `--worker`), which report JSON lines on standard
//! output that the parent adds up. Every wait is bounded; the run stops by itself after
//! `--duration` seconds.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command as Process, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc as std_mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use bughouse_protocol::ClientMessage;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use tokio_tungstenite::tungstenite::Message;

use crate::client::{connect, create_match, pick, MoveList, Target, Ws, BOARDS, IO_TIMEOUT, SEATS};

/// After `--duration`, how long workers get to report before they are stopped.
const GRACE: Duration = Duration::from_secs(15);
/// A replacement match is created only if at least this much of the run is left.
const REPLACE_MARGIN: Duration = Duration::from_secs(3);
/// The most connections a worker process is given, below its open-file limit.
const FD_RESERVE: u64 = 200;
/// Matches per worker process when `--workers` is not given (about a third of a core each at
/// one move per half second).
const MATCHES_PER_WORKER: u64 = 1500;

/// The options of `bughouse loadtest`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The server's base URL; loopback addresses only.
    #[arg(long, default_value = "http://127.0.0.1:8099")]
    server: String,
    /// Matches played at once (four websocket connections each).
    #[arg(long, default_value_t = 100)]
    matches: usize,
    /// Seconds a player waits, once it is his turn, before he moves.
    #[arg(long, default_value_t = 0.5)]
    move_every: f64,
    /// Seconds the whole run lasts, ramp included; the tool stops by itself then.
    #[arg(long, default_value_t = 60.0)]
    duration: f64,
    /// The server's process id: report its resident memory (VmRSS) before the matches are
    /// created, at the peak, and per live match.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Rules preset of the matches.
    #[arg(long, default_value = "fide")]
    rules: String,
    /// Time control of the matches (long enough that nobody flags during the run).
    #[arg(long, default_value = "60+0")]
    time_control: String,
    /// New websocket connections per second, all workers together.
    #[arg(long, default_value_t = 400.0)]
    ramp: f64,
    /// Worker processes; 0 picks one per 1500 matches, and at least as many as the open-file
    /// limit needs.
    #[arg(long, default_value_t = 0)]
    workers: usize,
    /// Threads per worker process; 1 runs a single-threaded runtime (the cheapest per message).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Internal: run as a worker process, reporting JSON lines on standard output.
    #[arg(long, hide = true)]
    worker: bool,
}

/// Runs `bughouse loadtest`.
pub fn main(args: Args) -> ExitCode {
    // Each connection is a file descriptor: as many as the hard limit allows.
    let nofile = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    let target = match Target::parse(&args.server) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !(args.move_every >= 0.0 && args.duration > 0.0 && args.ramp > 0.0) {
        eprintln!("error: --move-every, --duration and --ramp must be positive");
        return ExitCode::from(2);
    }
    if args.worker {
        return run_worker_process(&args, target);
    }
    let per_worker = nofile.saturating_sub(FD_RESERVE).max(4) / 4;
    let workers = if args.workers > 0 {
        args.workers
    } else {
        let matches = args.matches as u64;
        matches
            .div_ceil(per_worker)
            .max(matches.div_ceil(MATCHES_PER_WORKER))
            .max(1) as usize
    };
    run_parent(&args, target, workers, nofile)
}

// ---------------------------------------------------------------------------------------------
// Latency histogram.

/// Microseconds in log-linear buckets: exact below 256 µs, then 128 buckets per power of two
/// (under 1 % error).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Histogram {
    /// (bucket, count), sparse.
    buckets: BTreeMap<u32, u64>,
    count: u64,
    max_us: u64,
}

fn bucket_of(us: u64) -> u32 {
    if us < 256 {
        us as u32
    } else {
        let msb = 63 - us.leading_zeros();
        let shift = msb - 7;
        shift * 128 + (us >> shift) as u32
    }
}

/// The upper end of a bucket, in microseconds.
fn bucket_top(b: u32) -> u64 {
    if b < 256 {
        u64::from(b)
    } else {
        let shift = b / 128 - 1;
        let mant = u64::from(b % 128 + 128);
        ((mant + 1) << shift) - 1
    }
}

impl Histogram {
    fn record(&mut self, us: u64) {
        *self.buckets.entry(bucket_of(us)).or_insert(0) += 1;
        self.count += 1;
        self.max_us = self.max_us.max(us);
    }

    fn merge(&mut self, other: &Histogram) {
        for (b, n) in &other.buckets {
            *self.buckets.entry(*b).or_insert(0) += n;
        }
        self.count += other.count;
        self.max_us = self.max_us.max(other.max_us);
    }

    /// The `q` quantile (0..=1) in milliseconds.
    fn quantile_ms(&self, q: f64) -> f64 {
        if self.count == 0 {
            return f64::NAN;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (b, n) in &self.buckets {
            seen += n;
            if seen >= rank {
                return bucket_top(*b).min(self.max_us) as f64 / 1000.0;
            }
        }
        self.max_us as f64 / 1000.0
    }
}

// ---------------------------------------------------------------------------------------------
// What workers report.

/// Counters of one worker, as of a moment.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Counters {
    matches_created: u64,
    replacements: u64,
    create_errors: u64,
    connections: u64,
    connections_peak: u64,
    connect_errors: u64,
    live: u64,
    ended: u64,
    moves_sent: u64,
    moves_seen: u64,
    server_errors: u64,
    socket_errors: u64,
    /// Seconds from the worker's start until every connection was opened (or failed).
    ramp_secs: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
enum Report {
    Progress(Counters),
    Final {
        counters: Counters,
        all: Histogram,
        steady: Histogram,
        steady_secs: f64,
        steady_moves: u64,
        error_codes: BTreeMap<String, u64>,
    },
}

#[derive(Default)]
struct Stats {
    matches_created: AtomicU64,
    replacements: AtomicU64,
    create_errors: AtomicU64,
    connections: AtomicU64,
    connections_peak: AtomicU64,
    connect_errors: AtomicU64,
    live: AtomicU64,
    ended: AtomicU64,
    moves_sent: AtomicU64,
    moves_seen: AtomicU64,
    server_errors: AtomicU64,
    socket_errors: AtomicU64,
    /// Tasks still opening their connections.
    setting_up: AtomicU64,
    /// Microseconds after the worker's start when the ramp ended; `u64::MAX` before.
    ramp_end_us: AtomicU64,
    hist: Mutex<(Histogram, Histogram, u64)>,
    error_codes: Mutex<BTreeMap<String, u64>>,
}

fn bump(a: &AtomicU64) {
    a.fetch_add(1, Ordering::Relaxed);
}

impl Stats {
    fn snapshot(&self) -> Counters {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let ramp = get(&self.ramp_end_us);
        Counters {
            matches_created: get(&self.matches_created),
            replacements: get(&self.replacements),
            create_errors: get(&self.create_errors),
            connections: get(&self.connections),
            connections_peak: get(&self.connections_peak),
            connect_errors: get(&self.connect_errors),
            live: get(&self.live),
            ended: get(&self.ended),
            moves_sent: get(&self.moves_sent),
            moves_seen: get(&self.moves_seen),
            server_errors: get(&self.server_errors),
            socket_errors: get(&self.socket_errors),
            ramp_secs: (ramp != u64::MAX).then(|| ramp as f64 / 1e6),
        }
    }

    fn connected(&self) {
        let now = self.connections.fetch_add(1, Ordering::Relaxed) + 1;
        self.connections_peak.fetch_max(now, Ordering::Relaxed);
    }

    fn disconnected(&self) {
        self.connections.fetch_sub(1, Ordering::Relaxed);
    }

    fn server_error(&self, code: &str) {
        bump(&self.server_errors);
        if let Ok(mut codes) = self.error_codes.lock() {
            *codes.entry(code.to_owned()).or_insert(0) += 1;
        }
    }

    fn setup_done(&self, clock: Instant) {
        if self.setting_up.fetch_sub(1, Ordering::AcqRel) == 1 {
            let us = u64::try_from(clock.elapsed().as_micros()).unwrap_or(u64::MAX - 1);
            self.ramp_end_us.store(us, Ordering::Release);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The parent: spawns workers, adds up their reports, watches the server's memory.

fn run_parent(args: &Args, target: Target, workers: usize, nofile: u64) -> ExitCode {
    let clock = Instant::now();
    let rss_before = args.server_pid.and_then(vm_rss_kb);
    let server_cpu_before = args
        .server_pid
        .and_then(|pid| cpu_ticks(&pid.to_string(), false));
    if args.server_pid.is_some() && rss_before.is_none() {
        eprintln!(
            "warning: cannot read /proc/{}/status",
            args.server_pid.unwrap_or(0)
        );
    }
    eprintln!(
        "loadtest: {} matches ({} connections) on {} via {} worker process(es) of {} thread(s), \
         open-file limit {}, ramp {}/s, move every {} s, {} s",
        args.matches,
        args.matches * 4,
        args.server,
        workers,
        args.threads,
        nofile,
        args.ramp,
        args.move_every,
        args.duration
    );
    let (tx, rx) = std_mpsc::channel::<(usize, Option<Report>)>();
    let mut children: Vec<Child> = Vec::new();
    let mut local: Option<std::thread::JoinHandle<()>> = None;
    let shares: Vec<usize> = (0..workers)
        .map(|w| args.matches / workers + usize::from(w < args.matches % workers))
        .collect();
    if workers == 1 {
        let plan = Plan::new(args, target, args.matches, args.ramp, clock);
        let tx = tx.clone();
        local = Some(std::thread::spawn(move || {
            let emit_tx = tx.clone();
            run_worker(plan, move |r| {
                let _ = emit_tx.send((0, Some(r)));
            });
            let _ = tx.send((0, None));
        }));
    } else {
        let exe = match std::env::current_exe() {
            Ok(exe) => exe,
            Err(e) => {
                eprintln!("error: cannot find this program to start workers: {e}");
                return ExitCode::from(2);
            }
        };
        for (w, share) in shares.iter().enumerate() {
            let child = Process::new(&exe)
                .arg("loadtest")
                .arg("--worker")
                .args(["--server", &args.server])
                .args(["--matches", &share.to_string()])
                .args(["--move-every", &args.move_every.to_string()])
                .args(["--duration", &args.duration.to_string()])
                .args(["--rules", &args.rules])
                .args(["--time-control", &args.time_control])
                .args(["--ramp", &(args.ramp / workers as f64).to_string()])
                .args(["--threads", &args.threads.to_string()])
                .stdout(Stdio::piped())
                .stdin(Stdio::null())
                .spawn();
            let mut child = match child {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("error: cannot start worker {w}: {e}");
                    for mut c in children {
                        let _ = c.kill();
                        let _ = c.wait();
                    }
                    return ExitCode::from(2);
                }
            };
            let stdout = child.stdout.take();
            let tx = tx.clone();
            std::thread::spawn(move || {
                if let Some(stdout) = stdout {
                    for line in BufReader::new(stdout).lines() {
                        let Ok(line) = line else { break };
                        match serde_json::from_str::<Report>(&line) {
                            Ok(r) => {
                                let _ = tx.send((w, Some(r)));
                            }
                            Err(e) => eprintln!("worker {w}: unreadable report: {e}"),
                        }
                    }
                }
                let _ = tx.send((w, None));
            });
            children.push(child);
        }
    }
    drop(tx);

    let hard_stop = clock + Duration::from_secs_f64(args.duration) + GRACE;
    let mut latest: Vec<Counters> = vec![Counters::default(); workers];
    let mut finals: Vec<Option<Report>> = vec![None; workers];
    let mut running = workers;
    let mut rss_peak = rss_before.unwrap_or(0);
    let mut live_peak = 0u64;
    let mut next_sample = Instant::now();
    let mut next_print = Instant::now() + Duration::from_secs(5);
    while running > 0 && Instant::now() < hard_stop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok((w, Some(Report::Progress(c)))) => latest[w] = c,
            Ok((w, Some(f @ Report::Final { .. }))) => {
                if let Report::Final { counters, .. } = &f {
                    latest[w] = counters.clone();
                }
                finals[w] = Some(f);
            }
            Ok((_, None)) => running -= 1,
            Err(std_mpsc::RecvTimeoutError::Timeout) => {}
            Err(std_mpsc::RecvTimeoutError::Disconnected) => break,
        }
        let now = Instant::now();
        if now >= next_sample {
            next_sample = now + Duration::from_millis(500);
            let live: u64 = latest.iter().map(|c| c.live).sum();
            live_peak = live_peak.max(live);
            if let Some(kb) = args.server_pid.and_then(vm_rss_kb) {
                rss_peak = rss_peak.max(kb);
            }
        }
        if now >= next_print {
            next_print = now + Duration::from_secs(5);
            let sum = add_up(&latest);
            eprintln!(
                "  t={:>5.1}s  connections {:>6}  live {:>5}  ended {:>5}  moves {:>8}  errors {}",
                clock.elapsed().as_secs_f64(),
                sum.connections,
                sum.live,
                sum.ended,
                sum.moves_seen,
                sum.server_errors + sum.socket_errors + sum.connect_errors + sum.create_errors
            );
        }
    }
    for mut child in children {
        // Our own workers, by handle: any still running past the hard stop is stopped.
        if !matches!(child.try_wait(), Ok(Some(_))) {
            let _ = child.kill();
        }
        let _ = child.wait();
    }
    if let Some(local) = local {
        let _ = local.join();
    }

    let counters = add_up(&latest);
    let mut all = Histogram::default();
    let mut steady = Histogram::default();
    let mut steady_secs: f64 = 0.0;
    let mut steady_moves = 0;
    let mut codes: BTreeMap<String, u64> = BTreeMap::new();
    let mut missing = 0;
    for f in &finals {
        match f {
            Some(Report::Final {
                all: a,
                steady: s,
                steady_secs: secs,
                steady_moves: sm,
                error_codes,
                ..
            }) => {
                all.merge(a);
                steady.merge(s);
                // Workers run side by side: the steady window is their common one.
                steady_secs = if steady_secs == 0.0 {
                    *secs
                } else {
                    steady_secs.min(*secs)
                };
                steady_moves += sm;
                for (k, v) in error_codes {
                    *codes.entry(k.clone()).or_insert(0) += v;
                }
            }
            _ => missing += 1,
        }
    }
    let ramp = latest
        .iter()
        .map(|c| c.ramp_secs)
        .try_fold(0.0f64, |acc, r| r.map(|r| acc.max(r)));

    println!("matches requested      {}", args.matches);
    println!(
        "matches created        {} (of which {} replacements of ended matches)",
        counters.matches_created, counters.replacements
    );
    println!(
        "matches live           {} at the end, {} at most",
        counters.live,
        live_peak.max(counters.live)
    );
    println!("matches ended          {}", counters.ended);
    println!(
        "connections            {} at the end, {} at most, {} failed",
        counters.connections, counters.connections_peak, counters.connect_errors
    );
    match ramp {
        Some(r) => println!("ramp                   {r:.1} s"),
        None => println!("ramp                   not finished"),
    }
    let run_secs = clock.elapsed().as_secs_f64().min(args.duration);
    println!(
        "moves                  {} sent, {} seen by the opponent ({:.0}/s over the run)",
        counters.moves_sent,
        counters.moves_seen,
        counters.moves_seen as f64 / run_secs.max(1e-9)
    );
    if steady_secs > 0.0 {
        println!(
            "moves/s after ramp     {:.0} over {:.1} s",
            steady_moves as f64 / steady_secs,
            steady_secs
        );
    }
    let line = |name: &str, h: &Histogram| {
        println!(
            "latency {name:<14} p50 {:.2} ms  p90 {:.2} ms  p99 {:.2} ms  max {:.2} ms  ({} moves)",
            h.quantile_ms(0.5),
            h.quantile_ms(0.9),
            h.quantile_ms(0.99),
            h.max_us as f64 / 1000.0,
            h.count
        );
    };
    line("after ramp", &steady);
    line("whole run", &all);
    println!(
        "errors                 {} from the server {:?}, {} socket, {} connect, {} create",
        counters.server_errors,
        codes,
        counters.socket_errors,
        counters.connect_errors,
        counters.create_errors
    );
    if missing > 0 {
        println!("workers without report {missing}");
    }
    if let (Some(pid), Some(before)) = (args.server_pid, rss_before) {
        let live = live_peak.max(counters.live).max(1);
        println!(
            "server {pid} RSS         {before} KB before, {rss_peak} KB at peak, {:.1} KB per live match",
            rss_peak.saturating_sub(before) as f64 / live as f64
        );
    }
    // CPU over the run, in cores: the server's, and the load tool's own (this process and its
    // worker processes, which have all been waited for by now), so that a saturated run shows
    // which side ran out.
    let secs = clock.elapsed().as_secs_f64().max(0.001);
    let cores = |ticks: u64| ticks as f64 / USER_HZ / secs;
    if let (Some(pid), Some(before)) = (args.server_pid, server_cpu_before) {
        if let Some(after) = cpu_ticks(&pid.to_string(), false) {
            println!(
                "server {pid} CPU         {:.2} cores on average over {secs:.1} s",
                cores(after.saturating_sub(before))
            );
        }
    }
    if let Some(own) = cpu_ticks("self", true) {
        println!(
            "load tool CPU          {:.2} cores on average over {secs:.1} s",
            cores(own)
        );
    }
    if missing > 0 || counters.moves_seen == 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn add_up(list: &[Counters]) -> Counters {
    let mut s = Counters::default();
    for c in list {
        s.matches_created += c.matches_created;
        s.replacements += c.replacements;
        s.create_errors += c.create_errors;
        s.connections += c.connections;
        s.connections_peak += c.connections_peak;
        s.connect_errors += c.connect_errors;
        s.live += c.live;
        s.ended += c.ended;
        s.moves_sent += c.moves_sent;
        s.moves_seen += c.moves_seen;
        s.server_errors += c.server_errors;
        s.socket_errors += c.socket_errors;
    }
    s
}

/// The unit of the CPU times in `/proc/PID/stat` (`USER_HZ`, 100 on Linux whatever the kernel's
/// own tick rate).
const USER_HZ: f64 = 100.0;

/// The CPU time a process has used (user and system), in `USER_HZ` ticks, from
/// `/proc/PID/stat`; with `children`, also that of its children it has waited for.
fn cpu_ticks(pid: &str, children: bool) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces), from field 3 on.
    let fields: Vec<u64> = stat
        .rsplit_once(')')?
        .1
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let own = fields.first()? + fields.get(1)?;
    Some(if children {
        own + fields.get(2)? + fields.get(3)?
    } else {
        own
    })
}

/// The resident set of a process, from `/proc/PID/status`, in KB.
fn vm_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn run_worker_process(args: &Args, target: Target) -> ExitCode {
    let plan = Plan::new(args, target, args.matches, args.ramp, Instant::now());
    run_worker(plan, |r| {
        if let Ok(line) = serde_json::to_string(&r) {
            println!("{line}");
        }
    });
    ExitCode::SUCCESS
}

// ---------------------------------------------------------------------------------------------
// A worker: match tasks on a tokio runtime.

/// What one worker does.
#[derive(Clone)]
struct Plan {
    target: Target,
    matches: usize,
    move_every: Duration,
    /// The process-wide clock every time is read from.
    clock: Instant,
    end: Instant,
    rules: String,
    time_control: String,
    /// Seconds between two matches' connection bursts (four connections each).
    match_gap: Duration,
    /// Runtime threads.
    threads: usize,
}

impl Plan {
    fn new(args: &Args, target: Target, matches: usize, ramp: f64, clock: Instant) -> Plan {
        Plan {
            target,
            matches,
            move_every: Duration::from_secs_f64(args.move_every),
            clock,
            end: clock + Duration::from_secs_f64(args.duration),
            rules: args.rules.clone(),
            time_control: args.time_control.clone(),
            match_gap: Duration::from_secs_f64(4.0 / ramp),
            threads: args.threads.max(1),
        }
    }
}

fn run_worker(plan: Plan, emit: impl Fn(Report) + Send + 'static) {
    let runtime = if plan.threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(plan.threads)
            .enable_all()
            .build()
    };
    let runtime = match runtime {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return;
        }
    };
    runtime.block_on(async move {
        let plan = Arc::new(plan);
        let stats = Arc::new(Stats {
            ramp_end_us: AtomicU64::new(u64::MAX),
            setting_up: AtomicU64::new(plan.matches as u64),
            ..Stats::default()
        });
        if plan.matches == 0 {
            stats.ramp_end_us.store(0, Ordering::Release);
        }
        let mut tasks = Vec::with_capacity(plan.matches);
        for i in 0..plan.matches {
            let start = plan.clock + plan.match_gap.mul_f64(i as f64);
            tasks.push(tokio::spawn(run_match(
                plan.clone(),
                stats.clone(),
                i,
                start,
            )));
        }
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let end = tokio::time::Instant::from_std(plan.end);
        loop {
            tokio::select! {
                _ = tick.tick() => emit(Report::Progress(stats.snapshot())),
                () = tokio::time::sleep_until(end) => break,
            }
        }
        let counters = stats.snapshot();
        // Tasks stop at the end by themselves; any that does not is dropped a little later.
        let wait = tokio::time::Instant::from_std(plan.end + Duration::from_secs(5));
        for t in &mut tasks {
            if tokio::time::timeout_at(wait, &mut *t).await.is_err() {
                t.abort();
            }
        }
        let ramp_end = stats.ramp_end_us.load(Ordering::Acquire);
        let (all, steady, steady_moves) = stats.hist.lock().map(|h| h.clone()).unwrap_or_default();
        let run_us = u64::try_from((plan.end - plan.clock).as_micros()).unwrap_or(u64::MAX);
        let steady_secs = if ramp_end == u64::MAX {
            0.0
        } else {
            run_us.saturating_sub(ramp_end) as f64 / 1e6
        };
        let error_codes = stats
            .error_codes
            .lock()
            .map(|c| c.clone())
            .unwrap_or_default();
        emit(Report::Final {
            counters,
            all,
            steady,
            steady_secs,
            steady_moves,
            error_codes,
        });
    });
    runtime.shutdown_timeout(Duration::from_secs(2));
}

/// What the server sends, as far as the players read it.
#[derive(Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    state: Option<StateLite>,
    #[serde(default)]
    you: Option<String>,
    #[serde(default)]
    mv: Option<MoveLite>,
    #[serde(default)]
    board: Option<BoardLite>,
    #[serde(default)]
    other: Option<BoardLite>,
    #[serde(default)]
    result: Option<ResultLite>,
    #[serde(default)]
    code: Option<String>,
}

#[derive(Deserialize)]
struct StateLite {
    match_id: String,
    status: String,
    boards: Vec<BoardLite>,
}

#[derive(Deserialize)]
struct BoardLite {
    board: String,
    #[serde(default)]
    legal: Option<MoveList>,
}

#[derive(Deserialize)]
struct MoveLite {
    seat: String,
    uci: String,
}

#[derive(Deserialize)]
struct ResultLite {
    result: String,
}

struct Player {
    ws: Ws,
    /// Whether the connection has seen the current match's `state` (messages before it are of
    /// the previous match).
    joined: bool,
    /// The legal moves while it is this player's turn.
    legal: Option<MoveList>,
    /// When he moves.
    due: Option<Instant>,
    /// He sent a move and waits to see it played.
    awaiting: bool,
}

/// One match: create it, open its four connections, play until the end of the run, replacing
/// it whenever it ends.
async fn run_match(plan: Arc<Plan>, stats: Arc<Stats>, index: usize, start: Instant) {
    if start >= plan.end {
        stats.setup_done(plan.clock);
        return;
    }
    tokio::time::sleep_until(tokio::time::Instant::from_std(start)).await;
    let mut match_id = match create_match(&plan.target, &plan.rules, &plan.time_control).await {
        Ok(id) => {
            bump(&stats.matches_created);
            id
        }
        Err(e) => {
            if stats.create_errors.fetch_add(1, Ordering::Relaxed) < 5 {
                eprintln!("create match: {e}");
            }
            stats.setup_done(plan.clock);
            return;
        }
    };
    let mut players: Vec<Player> = Vec::with_capacity(4);
    for seat in 0..4 {
        let ws = match connect(&plan.target).await {
            Ok(ws) => ws,
            Err(e) => {
                if stats.connect_errors.fetch_add(1, Ordering::Relaxed) < 5 {
                    eprintln!("connect: {e}");
                }
                for _ in &players {
                    stats.disconnected();
                }
                stats.setup_done(plan.clock);
                return;
            }
        };
        stats.connected();
        let mut p = Player {
            ws,
            joined: false,
            legal: None,
            due: None,
            awaiting: false,
        };
        if join(&mut p, &match_id, seat, index).await.is_err() {
            bump(&stats.socket_errors);
            for _ in 0..=players.len() {
                stats.disconnected();
            }
            stats.setup_done(plan.clock);
            return;
        }
        players.push(p);
    }
    stats.setup_done(plan.clock);
    let Ok(mut players) = <[Player; 4]>::try_from(players) else {
        return;
    };
    let mut rng = StdRng::from_entropy();
    let end = tokio::time::Instant::from_std(plan.end);
    // Per board: when the last move was sent, and which.
    let mut pending: [Option<(Instant, String)>; 2] = [None, None];
    let mut started = false;
    let mut over = false;
    let mut open = 4;
    loop {
        let wake = players
            .iter()
            .filter_map(|p| p.due)
            .min()
            .map_or(end, |t| tokio::time::Instant::from_std(t).min(end));
        let (i, frame) = {
            let [p0, p1, p2, p3] = &mut players;
            tokio::select! {
                f = p0.ws.next() => (0, f),
                f = p1.ws.next() => (1, f),
                f = p2.ws.next() => (2, f),
                f = p3.ws.next() => (3, f),
                () = tokio::time::sleep_until(wake) => (usize::MAX, None),
            }
        };
        let now = Instant::now();
        if now >= plan.end {
            // The end of the run: the connections count as open until the end.
            return;
        }
        if i == usize::MAX {
            // Moves that are due.
            for (seat, p) in players.iter_mut().enumerate() {
                if p.due.is_some_and(|d| d <= now) {
                    p.due = None;
                    let Some(legal) = p.legal.take() else {
                        continue;
                    };
                    let uci = pick(&legal, &mut rng);
                    let text = serde_json::to_string(&ClientMessage::Move { uci: uci.clone() })
                        .unwrap_or_default();
                    let sent = Instant::now();
                    if p.ws.send(Message::Text(text.into())).await.is_err() {
                        bump(&stats.socket_errors);
                        stats.disconnected();
                        open -= 1;
                        continue;
                    }
                    pending[seat / 2] = Some((sent, uci));
                    p.awaiting = true;
                    bump(&stats.moves_sent);
                }
            }
            if open < 4 {
                break;
            }
            continue;
        }
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | None => {
                bump(&stats.socket_errors);
                break;
            }
            Some(Ok(_)) => continue,
            Some(Err(_)) => {
                bump(&stats.socket_errors);
                break;
            }
        };
        let received = Instant::now();
        let Ok(msg) = serde_json::from_str::<Incoming>(text.as_str()) else {
            stats.server_error("unreadable");
            continue;
        };
        let board = BOARDS[i / 2];
        let mut match_over = false;
        match msg.kind.as_str() {
            "state" => {
                let Some(state) = msg.state else { continue };
                if state.match_id != match_id {
                    continue;
                }
                players[i].joined = true;
                if state.status == "playing" && !started && !over {
                    started = true;
                    bump(&stats.live);
                }
                if state.status == "finished" {
                    match_over = true;
                } else if msg.you.as_deref() == Some(SEATS[i]) {
                    if let Some(b) = state.boards.into_iter().find(|b| b.board == board) {
                        offer(&mut players[i], b.legal, over, received, plan.move_every);
                    }
                }
            }
            "moved" => {
                if !players[i].joined {
                    continue;
                }
                let Some(mv) = msg.mv else { continue };
                let mover = SEATS.iter().position(|s| *s == mv.seat).unwrap_or(4);
                if mover == i {
                    players[i].awaiting = false;
                } else if mover == (i ^ 1) {
                    // The opponent on the same board sees the move: that is its latency.
                    if let Some((sent, uci)) = pending[i / 2].take() {
                        if uci == mv.uci {
                            let us = u64::try_from(received.duration_since(sent).as_micros())
                                .unwrap_or(u64::MAX);
                            let ramp_end = stats.ramp_end_us.load(Ordering::Relaxed);
                            let at = u64::try_from(received.duration_since(plan.clock).as_micros())
                                .unwrap_or(u64::MAX);
                            if let Ok(mut h) = stats.hist.lock() {
                                h.0.record(us);
                                if at >= ramp_end {
                                    h.1.record(us);
                                    h.2 += 1;
                                }
                            }
                            bump(&stats.moves_seen);
                        }
                    }
                }
                for b in [msg.board, msg.other].into_iter().flatten() {
                    if b.board == board {
                        offer(&mut players[i], b.legal, over, received, plan.move_every);
                    }
                }
            }
            "ended" if players[i].joined && msg.result.is_some_and(|r| r.result != "*") => {
                match_over = true;
            }
            "error" => {
                let code = msg.code.unwrap_or_default();
                stats.server_error(&code);
                let p = &mut players[i];
                if p.awaiting {
                    p.awaiting = false;
                    pending[i / 2] = None;
                }
            }
            _ => {}
        }
        if match_over && !over {
            over = true;
            if started {
                stats.live.fetch_sub(1, Ordering::Relaxed);
            }
            bump(&stats.ended);
            started = false;
            pending = [None, None];
            for p in players.iter_mut() {
                p.legal = None;
                p.due = None;
                p.awaiting = false;
            }
            if plan.end.saturating_duration_since(Instant::now()) > REPLACE_MARGIN {
                match create_match(&plan.target, &plan.rules, &plan.time_control).await {
                    Ok(id) => {
                        bump(&stats.matches_created);
                        bump(&stats.replacements);
                        match_id = id;
                        over = false;
                        let mut failed = false;
                        for (seat, p) in players.iter_mut().enumerate() {
                            p.joined = false;
                            if join(p, &match_id, seat, index).await.is_err() {
                                failed = true;
                            }
                        }
                        if failed {
                            bump(&stats.socket_errors);
                            break;
                        }
                    }
                    Err(e) => {
                        if stats.create_errors.fetch_add(1, Ordering::Relaxed) < 5 {
                            eprintln!("create match: {e}");
                        }
                    }
                }
            }
        }
    }
    for _ in 0..open {
        stats.disconnected();
    }
    // Dropping the sockets closes them.
}

/// Takes the legal moves of a player's turn; his move falls due `move_every` later.
fn offer(p: &mut Player, legal: Option<MoveList>, over: bool, now: Instant, every: Duration) {
    let Some(legal) = legal.filter(|l| !l.0.is_empty()) else {
        return;
    };
    if p.awaiting || over {
        return;
    }
    p.legal = Some(legal);
    if p.due.is_none() {
        p.due = Some(now + every);
    }
}

async fn join(p: &mut Player, match_id: &str, seat: usize, index: usize) -> Result<(), ()> {
    let hello = ClientMessage::Hello {
        match_id: match_id.to_owned(),
        token: None,
    };
    let sit = ClientMessage::Sit {
        seat: bughouse_protocol::SeatName::ALL[seat % 4],
        name: format!("lt{index}-{seat}"),
    };
    for msg in [hello, sit] {
        let text = serde_json::to_string(&msg).map_err(|_| ())?;
        tokio::time::timeout(IO_TIMEOUT, p.ws.send(Message::Text(text.into())))
            .await
            .map_err(|_| ())?
            .map_err(|_| ())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_continuous_and_tight() {
        let mut last = 0;
        for us in 0..100_000u64 {
            let b = bucket_of(us);
            assert!(b == last || b == last + 1, "{us}");
            assert!(bucket_top(b) >= us && (bucket_top(b) - us) as f64 <= us as f64 / 100.0);
            last = b;
        }
    }

    #[test]
    fn quantiles() {
        let mut h = Histogram::default();
        for us in 1..=1000 {
            h.record(us * 10);
        }
        assert!((h.quantile_ms(0.5) - 5.0).abs() < 0.05);
        assert!((h.quantile_ms(0.99) - 9.9).abs() < 0.1);
        assert_eq!(h.max_us, 10_000);
    }
}
