//! The parent of a load test: starts the workers, adds up their reports, watches the server's
//! memory and CPU, and sums the run up.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command as Process, Stdio};
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use super::worker::{run_worker, Plan};
use super::{Config, LoadError, GRACE};
use crate::client::Target;
use crate::histogram::Histogram;
use crate::procfs::{cpu_ticks, vm_rss_kb, USER_HZ};
use crate::stats::{add_up, Counters, Report};

/// The figures of a finished load test.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The figures, one per line (`matches created ...`, `latency ...`, `errors ...`).
    pub text: String,
    /// Whether every worker reported and moves were seen.
    pub passed: bool,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

pub(super) fn run_parent(
    args: &Config,
    target: Vec<Target>,
    workers: usize,
    nofile: u64,
) -> Result<Summary, LoadError> {
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
        let exe = std::env::current_exe().map_err(LoadError::Exe)?;
        for (w, share) in shares.iter().enumerate() {
            let child = Process::new(&exe)
                .args(args.worker_args(*share, args.ramp / workers as f64))
                .stdout(Stdio::piped())
                .stdin(Stdio::null())
                .spawn();
            let mut child = match child {
                Ok(c) => c,
                Err(source) => {
                    for mut c in children {
                        let _ = c.kill();
                        let _ = c.wait();
                    }
                    return Err(LoadError::Worker { index: w, source });
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

    let live_until = clock + Duration::from_secs_f64(args.duration);
    let hard_stop = live_until + GRACE;
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
            // Memory is sampled while the matches are live: not while the workers close their
            // connections at the end (the server's work for thousands of leaving players is
            // not the memory a live match holds).
            if now < live_until {
                if let Some(kb) = args.server_pid.and_then(vm_rss_kb) {
                    rss_peak = rss_peak.max(kb);
                }
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
    let mut lag = Histogram::default();
    let mut missing = 0;
    for f in &finals {
        match f {
            Some(Report::Final {
                all: a,
                steady: s,
                steady_secs: secs,
                steady_moves: sm,
                error_codes,
                lag: l,
                ..
            }) => {
                all.merge(a);
                lag.merge(l);
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

    let mut text = String::new();
    let _ = writeln!(text, "matches requested      {}", args.matches);
    let _ = writeln!(
        text,
        "matches created        {} (of which {} replacements of ended matches)",
        counters.matches_created, counters.replacements
    );
    let _ = writeln!(
        text,
        "matches live           {} at the end, {} at most",
        counters.live,
        live_peak.max(counters.live)
    );
    let _ = writeln!(text, "matches ended          {}", counters.ended);
    let _ = writeln!(
        text,
        "connections            {} at the end, {} at most, {} failed",
        counters.connections, counters.connections_peak, counters.connect_errors
    );
    let _ = match ramp {
        Some(r) => writeln!(text, "ramp                   {r:.1} s"),
        None => writeln!(text, "ramp                   not finished"),
    };
    let run_secs = clock.elapsed().as_secs_f64().min(args.duration);
    let _ = writeln!(
        text,
        "moves                  {} sent, {} seen by the opponent ({:.0}/s over the run)",
        counters.moves_sent,
        counters.moves_seen,
        counters.moves_seen as f64 / run_secs.max(1e-9)
    );
    if steady_secs > 0.0 {
        let _ = writeln!(
            text,
            "moves/s after ramp     {:.0} over {:.1} s",
            steady_moves as f64 / steady_secs,
            steady_secs
        );
    }
    let line = |text: &mut String, name: &str, h: &Histogram| {
        let _ = writeln!(
            text,
            "latency {name:<14} {}  ({} moves)",
            h.quantiles_text(),
            h.count
        );
    };
    line(&mut text, "after ramp", &steady);
    line(&mut text, "whole run", &all);
    if lag.count > 0 {
        let _ = writeln!(
            text,
            "load tool's own delay  {}  (a 10-ms timer of each worker, after ramp, {} samples)",
            lag.quantiles_text(),
            lag.count
        );
    }
    let _ = writeln!(
        text,
        "errors                 {} from the server {:?}, {} socket, {} connect, {} create",
        counters.server_errors,
        codes,
        counters.socket_errors,
        counters.connect_errors,
        counters.create_errors
    );
    if missing > 0 {
        let _ = writeln!(text, "workers without report {missing}");
    }
    if let (Some(pid), Some(before)) = (args.server_pid, rss_before) {
        let live = live_peak.max(counters.live).max(1);
        let _ = writeln!(
        text,

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
            let _ = writeln!(
                text,
                "server {pid} CPU         {:.2} cores on average over {secs:.1} s",
                cores(after.saturating_sub(before))
            );
        }
    }
    if let Some(own) = cpu_ticks("self", true) {
        let _ = writeln!(
            text,
            "load tool CPU          {:.2} cores on average over {secs:.1} s",
            cores(own)
        );
    }
    Ok(Summary {
        text,
        passed: missing == 0 && counters.moves_seen > 0,
    })
}
