//! The crash test's verdict: what the players were told against what the store and the BPGN
//! records hold, and the figures of the run.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use bughouse_core::Preset;
use bughouse_protocol::SeatName;
use bughouse_store::{MatchStatus, StoredMatch};

use super::player::PlayerLog;
use super::MAX_LISTED;
use crate::client::{Answer, ClientError};

/// Figures of the run.
#[derive(Debug, Default)]
pub(super) struct Figures {
    pub(super) kills: usize,
    pub(super) kills_playing: usize,
    pub(super) restart_secs: Vec<f64>,
    pub(super) matches: usize,
    pub(super) finished: usize,
    pub(super) lost_matches: usize,
    pub(super) acked: usize,
    pub(super) stored: usize,
    pub(super) missing: usize,
    pub(super) duplicates: usize,
    pub(super) results_reported: usize,
    pub(super) results_changed: usize,
    pub(super) bpgn_ok: usize,
    pub(super) bpgn_failed: usize,
    pub(super) token_refused: u64,
    pub(super) resent: u64,
    pub(super) reconnects: u64,
    pub(super) stray_acks: u64,
    pub(super) refused: BTreeMap<String, u64>,
    pub(super) failures: Vec<String>,
}

/// Compares what the players were told with the store and the records.
pub(super) fn check(
    ids: &[String],
    stored: &[Option<StoredMatch>],
    records: &[Result<Answer, ClientError>],
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
                ids[log.match_index],
                SeatName::ALL[log.seat]
            ));
        }
        if log.token_refused > 0 {
            f.failures.push(format!(
                "match {}: {}'s token refused {} time(s) after a restart",
                ids[log.match_index],
                SeatName::ALL[log.seat],
                log.token_refused
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
                    SeatName::ALL[usize::from(*seat) % 4],
                    at.len()
                ));
            }
        }
        for log in logs.iter().filter(|l| l.match_index == i) {
            let who = SeatName::ALL[log.seat];
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

/// Writes the figures; whether the run passed.
pub(super) fn summary(f: &Figures, wall: Duration, dir: &Path, text: &mut String) -> bool {
    let restart = if f.restart_secs.is_empty() {
        String::new()
    } else {
        let mean = f.restart_secs.iter().sum::<f64>() / f.restart_secs.len() as f64;
        let max = f.restart_secs.iter().copied().fold(0.0, f64::max);
        format!(", down {mean:.2} s on average, {max:.2} s at most")
    };
    let _ = writeln!(
        text,
        "kills survived         {} ({} while matches were playing){restart}",
        f.kills, f.kills_playing
    );
    let _ = writeln!(
        text,
        "matches                {} finished / {} total, {} lost",
        f.finished, f.matches, f.lost_matches
    );
    let _ = writeln!(
        text,
        "moves                  {} acknowledged, {} stored, {} acknowledged but missing",
        f.acked, f.stored, f.missing
    );
    let _ = writeln!(text, "duplicate applications {}", f.duplicates);
    let _ = writeln!(
        text,
        "results                {} reported, {} changed",
        f.results_reported, f.results_changed
    );
    let _ = writeln!(
        text,
        "bpgn                   {} replayed with the stored move count, {} failed",
        f.bpgn_ok, f.bpgn_failed
    );
    let _ = writeln!(
        text,
        "reconnections          {} ({} actions resent, {} seats refused, {} stray acks), \
         refusals {:?}",
        f.reconnects, f.resent, f.token_refused, f.stray_acks, f.refused
    );
    let _ = writeln!(text, "wall time              {:.1} s", wall.as_secs_f64());
    let ok = f.failures.is_empty()
        && f.missing == 0
        && f.duplicates == 0
        && f.results_changed == 0
        && f.lost_matches == 0
        && f.bpgn_failed == 0;
    for line in f.failures.iter().take(MAX_LISTED) {
        let _ = writeln!(text, "FAILED: {line}");
    }
    if f.failures.len() > MAX_LISTED {
        let _ = writeln!(
            text,
            "FAILED: ... and {} more",
            f.failures.len() - MAX_LISTED
        );
    }
    if ok {
        let _ = writeln!(text, "result                 OK");
    } else {
        let _ = writeln!(
            text,
            "result                 FAILED (server log and database in {})",
            dir.display()
        );
    }
    ok
}
