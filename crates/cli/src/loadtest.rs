//! `bughouse loadtest`: the options; the load test is bughouse-loadtest's.

use std::process::ExitCode;

use bughouse_loadtest::load::{self, Config};

/// The options of `bughouse loadtest`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The server's base URL; loopback addresses only. Several, separated by commas, spread the
    /// load over the nodes of a cluster (each match created on one, its four players on
    /// consecutive ones).
    #[arg(long, default_value = "http://127.0.0.1:8099")]
    server: String,
    /// Matches played at once (four websocket connections each).
    #[arg(long, default_value_t = 100)]
    matches: usize,
    /// Seconds a player waits, once it is his turn, before he moves.
    #[arg(long, default_value_t = 0.5)]
    move_every: f64,
    /// How far each wait strays from --move-every, as a share of it: each is drawn uniformly
    /// from move-every × (1 ± spread), the same mean (0.5: from 0.25 to 0.75 s). With 0, every
    /// player waits exactly --move-every, and a hold-up of the server comes back as a wave of
    /// moves that long later.
    #[arg(long, default_value_t = 0.0)]
    think_spread: f64,
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
    /// Worker processes; 0 picks one per 1500 matches up to one per core, and at least as
    /// many as the open-file limit needs.
    #[arg(long, default_value_t = 0)]
    workers: usize,
    /// Threads per worker process; 1 runs a single-threaded runtime (the cheapest per message).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Internal: run as a worker process, reporting JSON lines on standard output.
    #[arg(long, hide = true)]
    worker: bool,
}

impl Args {
    fn config(&self) -> Config {
        Config {
            server: self.server.clone(),
            matches: self.matches,
            move_every: self.move_every,
            think_spread: self.think_spread,
            duration: self.duration,
            server_pid: self.server_pid,
            rules: self.rules.clone(),
            time_control: self.time_control.clone(),
            ramp: self.ramp,
            workers: self.workers,
            threads: self.threads,
        }
    }
}

/// Runs `bughouse loadtest` (or, with `--worker`, one worker process of it).
pub fn main(args: Args) -> ExitCode {
    let config = args.config();
    let result = if args.worker {
        load::run_worker_process(&config).map(|()| true)
    } else {
        load::run(&config).map(|summary| {
            print!("{summary}");
            summary.passed
        })
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Command {
        #[command(subcommand)]
        sub: Sub,
    }

    #[derive(clap::Subcommand)]
    enum Sub {
        Loadtest(Args),
    }

    #[test]
    fn a_worker_reads_back_the_config_it_is_given() {
        let config = Config {
            server: "http://127.0.0.1:9000".into(),
            matches: 3000,
            move_every: 0.25,
            think_spread: 0.4,
            duration: 12.5,
            server_pid: None,
            rules: "knsb-1988".into(),
            time_control: "3+2".into(),
            ramp: 400.0,
            workers: 0,
            threads: 2,
        };
        let mut argv = vec!["bughouse".to_owned()];
        argv.extend(config.worker_args(1500, 200.0));
        let Sub::Loadtest(args) = Command::try_parse_from(argv).expect("the options read").sub;
        assert!(args.worker);
        assert_eq!(
            args.config(),
            Config {
                matches: 1500,
                ramp: 200.0,
                ..config
            }
        );
    }
}
