//! The load tester (`bughouse loadtest`): many simulated players against a running server, on
//! this machine only.
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
//! processes (this same program run as `PROGRAM loadtest --worker ...`, see
//! [`Config::worker_args`]), which report JSON lines on standard output that the parent adds up. Every wait is bounded; the run stops by itself after
//! `--duration` seconds.
//!
//! - [`scenario`]: one match's four players (create, seat, play, measure, replace).
//! - [`worker`]: the match tasks of one process on a tokio runtime, and its reports.
//! - [`parent`]: the worker processes, their reports added up, the server watched, the summary.

mod lite;
mod parent;
mod scenario;
mod worker;

use crate::client::{Target, TargetError};

pub use parent::Summary;

/// After `--duration`, how long workers get to report before they are stopped.
const GRACE: std::time::Duration = std::time::Duration::from_secs(15);
/// A replacement match is created only if at least this much of the run is left.
const REPLACE_MARGIN: std::time::Duration = std::time::Duration::from_secs(3);
/// The most connections a worker process is given, below its open-file limit.
const FD_RESERVE: u64 = 200;
/// Matches per worker process when `workers` is 0 (about a third of a core each at one move per
/// half second), up to one worker per core.
const MATCHES_PER_WORKER: u64 = 1500;

/// What a load test does (the options of `bughouse loadtest`).
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The server's base URL, `http://HOST:PORT`, or several separated by commas (the nodes of
    /// a cluster: each match is created on one, its players spread over all); loopback
    /// addresses only.
    pub server: String,
    /// Matches played at once (four websocket connections each).
    pub matches: usize,
    /// Seconds a player waits, once it is his turn, before he moves.
    pub move_every: f64,
    /// How far each wait strays from `move_every`, as a share of it: each is drawn uniformly
    /// from `move_every × (1 ± think_spread)`, the same mean. 0 (the default) waits exactly
    /// `move_every`; from 0 to 1.
    pub think_spread: f64,
    /// Seconds the whole run lasts, ramp included.
    pub duration: f64,
    /// The server's process id, to report its memory and CPU.
    pub server_pid: Option<u32>,
    /// Rules preset of the matches.
    pub rules: String,
    /// Time control of the matches.
    pub time_control: String,
    /// New websocket connections per second, all workers together.
    pub ramp: f64,
    /// Worker processes; 0 picks one per 1500 matches up to one per core, and at least as
    /// many as the open-file limit needs.
    pub workers: usize,
    /// Threads per worker process; 1 runs a single-threaded runtime.
    pub threads: usize,
}

/// Why a load test cannot run.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// `server` is not a loopback URL.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// A rate or duration that is not positive.
    #[error("--move-every, --duration and --ramp must be positive")]
    NotPositive,
    /// `--think-spread` is not a share from 0 to 1.
    #[error("--think-spread must be from 0 to 1")]
    ThinkSpread,
    /// This program cannot be found to start worker processes.
    #[error("cannot find this program to start workers: {0}")]
    Exe(std::io::Error),
    /// A worker process did not start.
    #[error("cannot start worker {index}: {source}")]
    Worker {
        /// The worker's number, from 0.
        index: usize,
        /// Why.
        source: std::io::Error,
    },
}

impl Config {
    /// The arguments after the program that run a worker process for `matches` of the matches
    /// at `ramp` connections per second: `loadtest --worker` and the options of `bughouse
    /// loadtest` that carry this config (the command line must read them back as such).
    pub fn worker_args(&self, matches: usize, ramp: f64) -> Vec<String> {
        let mut args = vec!["loadtest".to_owned(), "--worker".to_owned()];
        for (flag, value) in [
            ("--server", self.server.clone()),
            ("--matches", matches.to_string()),
            ("--move-every", self.move_every.to_string()),
            ("--think-spread", self.think_spread.to_string()),
            ("--duration", self.duration.to_string()),
            ("--rules", self.rules.clone()),
            ("--time-control", self.time_control.clone()),
            ("--ramp", ramp.to_string()),
            ("--threads", self.threads.to_string()),
        ] {
            args.push(flag.to_owned());
            args.push(value);
        }
        args
    }

    fn check(&self) -> Result<Vec<Target>, LoadError> {
        let target = self
            .server
            .split(',')
            .map(|url| Target::parse(url.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        if !(self.move_every >= 0.0 && self.duration > 0.0 && self.ramp > 0.0) {
            return Err(LoadError::NotPositive);
        }
        if !(0.0..=1.0).contains(&self.think_spread) {
            return Err(LoadError::ThinkSpread);
        }
        Ok(target)
    }
}

/// Runs a load test: its worker processes (or one worker in this process), the figures added
/// up. Progress goes to standard error every five seconds; the summary is returned.
///
/// # Errors
///
/// [`LoadError`]: the config is refused, or workers cannot be started.
pub fn run(config: &Config) -> Result<Summary, LoadError> {
    // Each connection is a file descriptor: as many as the hard limit allows.
    let nofile = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    let target = config.check()?;
    let per_worker = nofile.saturating_sub(FD_RESERVE).max(4) / 4;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let workers = if config.workers > 0 {
        config.workers
    } else {
        default_workers(config.matches as u64, per_worker, cores)
    };
    parent::run_parent(config, target, workers, nofile)
}

/// Runs one worker process's share (`config.matches`, `config.ramp`) and writes its reports as
/// JSON lines on standard output, for the parent that started it.
///
/// # Errors
///
/// [`LoadError`]: the config is refused.
pub fn run_worker_process(config: &Config) -> Result<(), LoadError> {
    // Each connection is a file descriptor: as many as the hard limit allows.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let target = config.check()?;
    let plan = worker::Plan::new(
        config,
        target,
        config.matches,
        config.ramp,
        std::time::Instant::now(),
    );
    worker::run_worker(plan, |r| {
        if let Ok(line) = serde_json::to_string(&r) {
            println!("{line}");
        }
    });
    Ok(())
}

/// Worker processes when `--workers` is 0: one per [`MATCHES_PER_WORKER`] matches but no more
/// than the cores (more processes than cores, on a machine the server shares, only take turns
/// on them: at 4,900 matches on two cores, four workers measured p50 51–55 ms over two runs,
/// two workers 24–39 ms over four; p99 within the runs' spread, 108–163 ms), and at least as
/// many as the open-file limit needs (`per_worker` matches each).
fn default_workers(matches: u64, per_worker: u64, cores: u64) -> usize {
    let by_load = matches.div_ceil(MATCHES_PER_WORKER).min(cores.max(1));
    matches.div_ceil(per_worker.max(1)).max(by_load).max(1) as usize
}

#[cfg(test)]
mod tests {
    use super::{default_workers, Config, LoadError};

    #[test]
    fn a_think_spread_outside_zero_to_one_is_refused() {
        let config = |think_spread| Config {
            server: "http://127.0.0.1:9000".into(),
            matches: 1,
            move_every: 0.5,
            think_spread,
            duration: 1.0,
            server_pid: None,
            rules: "fide".into(),
            time_control: "60+0".into(),
            ramp: 100.0,
            workers: 1,
            threads: 1,
        };
        for bad in [-0.1, 1.5, f64::NAN] {
            assert!(
                matches!(config(bad).check(), Err(LoadError::ThinkSpread)),
                "{bad}"
            );
        }
        for good in [0.0, 0.5, 1.0] {
            assert!(config(good).check().is_ok(), "{good}");
        }
    }

    #[test]
    fn workers_follow_the_load_up_to_the_cores_and_the_open_files_beyond() {
        // 4,950 matches' connections fit in one process under a limit of 20,000 files.
        assert_eq!(default_workers(100, 4950, 2), 1);
        assert_eq!(default_workers(2000, 4950, 2), 2);
        assert_eq!(default_workers(4900, 4950, 2), 2);
        assert_eq!(default_workers(4900, 4950, 8), 4);
        // Past the cores when the open files require it.
        assert_eq!(default_workers(5000, 1000, 2), 5);
        assert_eq!(default_workers(0, 0, 0), 1);
    }
}
