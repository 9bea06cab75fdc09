//! Tasks on threads of their own. On SQLite, the hub shards and the writer each run on a
//! thread with a single-threaded runtime, not among the thousands of socket tasks of the
//! server's runtime: there, every time a move's path handed over to them (a command in the
//! hub's inbox, a batch for the committer, a transaction stored), they waited behind every
//! socket task ready to run. The operating system's scheduler gives a thread that wakes the
//! core soon.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

/// How long a thread's runtime goes on, once its task has ended, for the tasks the task spawned
/// (a committer storing and sending what its hub handed over, ratings being applied).
const DRAIN: Duration = Duration::from_secs(30);

/// Runs `task` on a new thread named `name`, with a runtime of its own (timers and I/O), until
/// it ends (also by a panic), and then the tasks it spawned, for up to [`DRAIN`]; where the
/// system refuses a thread or a runtime, on the current runtime instead. Returns the thread's
/// runtime, on which other tasks may be spawned to run beside `task` (`None` when it runs on the
/// current runtime).
pub(crate) fn spawn_on_own_thread<F>(name: &str, task: F) -> Option<tokio::runtime::Handle>
where
    F: Future<Output = ()> + Send + 'static,
{
    let here = tokio::runtime::Handle::current();
    // The task goes to the thread once it runs: if it cannot start, the task is still here.
    let (hand, handed) = std::sync::mpsc::channel::<F>();
    // The thread's runtime comes back once it is built (`None` when it could not be).
    let (home_tx, home_rx) = std::sync::mpsc::channel::<Option<tokio::runtime::Handle>>();
    let thread_name = name.to_owned();
    let started = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let Ok(task) = handed.recv() else {
                return;
            };
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => {
                    tracing::warn!("{thread_name} runs on the server's runtime: {e}");
                    let _ = home_tx.send(None);
                    here.spawn(task);
                    return;
                }
            };
            let _ = home_tx.send(Some(runtime.handle().clone()));
            let ended = std::panic::catch_unwind(AssertUnwindSafe(|| runtime.block_on(task)));
            if ended.is_err() {
                tracing::error!("{thread_name} stopped by a panic");
            }
            let until = Instant::now() + DRAIN;
            while runtime.metrics().num_alive_tasks() > 0 && Instant::now() < until {
                // The sleep made inside the runtime: made outside, it panics (no timer there).
                runtime.block_on(async { tokio::time::sleep(Duration::from_millis(10)).await });
            }
        });
    match started {
        Ok(_) => {
            // The thread holds the receiver until it has the task; it answers at once.
            let _ = hand.send(task);
            home_rx.recv().ok().flatten()
        }
        Err(e) => {
            tracing::warn!("{name} runs on the server's runtime (no thread of its own: {e})");
            tokio::spawn(task);
            None
        }
    }
}
