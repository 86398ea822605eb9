//! Thread-pool policy: one cached rayon pool per requested size; never the global pool.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::prelude::*;
use rayon::ThreadPool;

static FORKED: AtomicBool = AtomicBool::new(false);
static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();

/// Marks the process as a fork child: later calls run serially (rayon pools do not survive fork).
#[pyfunction]
pub fn _after_fork_in_child() {
    FORKED.store(true, Ordering::SeqCst);
}

/// The pool for `n_threads` workers (1 after a fork), created on first use.
pub fn pool(n_threads: usize) -> PyResult<Arc<ThreadPool>> {
    let n = if FORKED.load(Ordering::SeqCst) {
        1
    } else {
        n_threads.max(1)
    };
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut pools = pools.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = pools.get(&n) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("graphsparse-{i}"))
        .build()
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    let p = Arc::new(p);
    pools.insert(n, Arc::clone(&p));
    Ok(p)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_after_fork_in_child, m)?)
}

/// Runs `work` on a pool of `n_threads` workers with the GIL released, polling for Ctrl-C.
///
/// `work` receives a cancellation flag that it must check now and then (every few
/// milliseconds of work). When Python reports a pending signal the flag is set, the work is
/// awaited (it returns early) and the signal's exception is raised, so Ctrl-C stops a long run
/// within a fraction of a second.
pub fn run_interruptible<T, F>(py: Python<'_>, n_threads: usize, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&AtomicBool) -> T + Send,
{
    let pool = pool(n_threads)?;
    let cancel = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::sync_channel::<T>(1);
    // Mutex: `detach` needs Sync captures, and a Receiver is only Send.
    let rx = Mutex::new(rx);
    let recv = |timeout: Option<std::time::Duration>| {
        let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
        match timeout {
            Some(t) => rx.recv_timeout(t),
            None => rx
                .recv()
                .map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
        }
    };
    std::thread::scope(|scope| {
        let cancel_ref = &cancel;
        let pool_ref = &pool;
        scope.spawn(move || {
            let out = pool_ref.install(|| work(cancel_ref));
            let _ = tx.send(out);
        });
        loop {
            let got = py.detach(|| recv(Some(std::time::Duration::from_millis(100))));
            match got {
                Ok(out) => return Ok(out),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "internal error: worker thread ended without a result",
                    ));
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(err) = py.check_signals() {
                        cancel.store(true, Ordering::SeqCst);
                        // wait for the worker to notice, without holding the GIL
                        let _ = py.detach(|| recv(None));
                        return Err(err);
                    }
                }
            }
        }
    })
}
