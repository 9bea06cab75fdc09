//! The server under test: `PROGRAM serve` as a child process, started and waited for, killed
//! with SIGKILL.

use std::fs::OpenOptions;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use super::{ChaosError, START_PATIENCE};
use crate::client::Target;

/// `bughouse serve` on a fixed address and database; its standard error goes to a log file of
/// the run's directory, appended to by every start.
pub(super) struct Server {
    pub(super) exe: PathBuf,
    pub(super) addr: SocketAddr,
    pub(super) database: String,
    pub(super) log: PathBuf,
    pub(super) target: Target,
    pub(super) child: Option<Child>,
}

impl Server {
    /// Starts the server and waits until it answers HTTP.
    pub(super) async fn start(&mut self) -> Result<(), ChaosError> {
        let deadline = Instant::now() + START_PATIENCE;
        loop {
            let log = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.log)
                .map_err(|source| ChaosError::File {
                    path: self.log.clone(),
                    source,
                })?;
            let child = Process::new(&self.exe)
                .args(["serve", "--addr", &self.addr.to_string()])
                .args(["--database", &self.database])
                .env("RUST_LOG", "warn")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(log)
                .spawn()
                .map_err(|source| ChaosError::Spawn {
                    exe: self.exe.clone(),
                    source,
                })?;
            self.child = Some(child);
            loop {
                let exited = match self.child.as_mut().map(Child::try_wait) {
                    Some(Ok(Some(status))) => Some(status),
                    Some(Err(e)) => return Err(ChaosError::Wait(e)),
                    _ => None,
                };
                if let Some(status) = exited {
                    self.child = None;
                    // The port may still be held for a moment; try again until the deadline.
                    if Instant::now() >= deadline {
                        return Err(ChaosError::Exited {
                            status,
                            log: self.log.clone(),
                        });
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    break;
                }
                if let Ok(a) = self.target.get("/api/archive?limit=1").await {
                    if a.status == 200 {
                        return Ok(());
                    }
                }
                if Instant::now() >= deadline {
                    return Err(ChaosError::NoAnswer {
                        addr: self.addr,
                        log: self.log.clone(),
                    });
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }

    /// SIGKILL, as a crash: nothing is flushed beyond what the server had stored.
    pub(super) fn kill(&mut self) {
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

/// A loopback port that was free a moment ago.
pub(super) fn free_port() -> Result<SocketAddr, ChaosError> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(ChaosError::FreePort)?;
    listener.local_addr().map_err(ChaosError::FreePort)
}
