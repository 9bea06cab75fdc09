//! Tasks on threads of their own. The hub shards and the SQLite writer each run on a thread
//! with a single-threaded runtime, not among the thousands of socket tasks of the server's
//! runtime: there, every time a move's path handed over to them (a command in the hub's inbox,
//! a batch for the committer, a transaction stored), they waited behind every socket task ready
//! to run. The operating system's scheduler gives a thread that wakes the core soon.

use std::future::Future;

/// Runs `task` on a new thread named `name`, with a runtime of its own (timers and I/O), until
/// it ends; where the system refuses a thread or a runtime, on the current runtime instead.
pub(crate) fn spawn_on_own_thread<F>(name: &str, task: F)
where
    F: Future<Output = ()> + Send + 'static,
{
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::warn!("{name} runs on the server's runtime (no runtime of its own: {e})");
            tokio::spawn(task);
            return;
        }
    };
    // The task goes back if the thread cannot start, to run on the current runtime.
    let (give_back, given_back) = std::sync::mpsc::channel::<F>();
    let started = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            if let Ok(task) = given_back.recv() {
                runtime.block_on(task);
            }
        });
    match started {
        Ok(_) => {
            let _ = give_back.send(task);
        }
        Err(e) => {
            tracing::warn!("{name} runs on the server's runtime (no thread of its own: {e})");
            tokio::spawn(task);
        }
    }
}
