//! Thread policy and the one runner for long Rust work.
//!
//! * Pools: one cached rayon pool per size, never the global pool; the size is capped at the
//!   cores this process may use (a `ThreadCountWarning` says so), and a forked child runs
//!   everything serially (rayon pools do not survive `fork`).
//! * [`run`]: every long call goes through it. The work runs with the GIL released, on a pool
//!   or on a plain scoped thread, and receives a [`RunControl`]; the calling thread polls every
//!   100 ms for Ctrl-C (then cancels the work, waits for it and raises `KeyboardInterrupt`)
//!   and, when the caller gave one, calls a progress callback with the run's counters.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use graphsparse::base::RunControl;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::ThreadPool;

use crate::convert::{ThreadCountWarning, bad_param};

static FORKED: AtomicBool = AtomicBool::new(false);
static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();

/// How often the waiting thread looks at signals and progress.
const POLL: Duration = Duration::from_millis(100);

/// Marks the process as a fork child: later calls run serially (rayon pools do not survive fork).
#[pyfunction]
pub fn _after_fork_in_child() {
    FORKED.store(true, Ordering::SeqCst);
}

/// The cores this process may run on (affinity and cgroup quotas included), read once: the
/// standard library reads several `/proc` and cgroup files for it (about 25 µs, which was
/// most of a small projection's call), so a later change of affinity is not seen.
fn available_cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The number of worker threads a call gets for `requested`: at least 1 (0 is an error), at
/// most the available cores (with a `ThreadCountWarning` when capped), 1 after a fork.
pub fn threads(py: Python<'_>, requested: usize) -> PyResult<usize> {
    if requested == 0 {
        return Err(bad_param("n_threads must be >= 1, got 0"));
    }
    if FORKED.load(Ordering::SeqCst) {
        return Ok(1);
    }
    let cores = available_cores();
    if requested > cores {
        let msg = format!(
            "{requested} threads requested but only {cores} cores are available; using {cores}"
        );
        let category = py.get_type::<ThreadCountWarning>();
        PyErr::warn(py, &category, &std::ffi::CString::new(msg)?, 2)?;
        return Ok(cores);
    }
    Ok(requested)
}

/// The cached pool of `n` workers (`n` from [`threads`]).
pub fn pool(n: usize) -> PyResult<Arc<ThreadPool>> {
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut pools = pools.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = pools.get(&n) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("graphsparse-{i}"))
        .build()
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let p = Arc::new(p);
    pools.insert(n, Arc::clone(&p));
    Ok(p)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_after_fork_in_child, m)?)
}

/// Where a run's work executes.
#[derive(Debug, Clone, Copy)]
pub enum Exec {
    /// On the cached rayon pool of this many workers (from [`threads`]).
    Pool(usize),
    /// On one plain scoped thread: for sequential work that callers may run many of at once
    /// from their own threads (a grid search), which a shared pool would serialise.
    Thread,
}

/// Calls `progress(nodes, iterations, stage, stages, value, seconds)`.
fn report(progress: &Bound<'_, PyAny>, ctl: &RunControl, start: Instant) -> PyResult<()> {
    let s = ctl.progress().snapshot();
    progress.call1((
        s.nodes,
        s.iterations,
        s.stage,
        s.stages,
        s.value,
        start.elapsed().as_secs_f64(),
    ))?;
    Ok(())
}

/// Runs `work` with the GIL released where `exec` says, polling for Ctrl-C and reporting
/// progress (see the module documentation).
///
/// `work` must poll its [`RunControl`] every few milliseconds (the core crates do, through
/// their budget meters). On Ctrl-C, or when `progress` raises, the run is cancelled and awaited
/// and that exception is raised.
pub fn run<'py, T, F>(
    py: Python<'py>,
    exec: Exec,
    progress: Option<&Bound<'py, PyAny>>,
    work: F,
) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&RunControl) -> T + Send,
{
    let pool = match exec {
        Exec::Pool(n) => Some(pool(n)?),
        Exec::Thread => None,
    };
    let ctl = RunControl::new();
    let start = Instant::now();
    let (tx, rx) = sync_channel::<T>(1);
    // Mutex: `detach` needs Sync captures, and a Receiver is only Send.
    let rx = Mutex::new(rx);
    let recv = |timeout: Option<Duration>| {
        let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
        match timeout {
            Some(t) => rx.recv_timeout(t),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    };
    std::thread::scope(|scope| {
        let (ctl_ref, pool_ref) = (&ctl, &pool);
        scope.spawn(move || {
            let out = match pool_ref {
                Some(p) => p.install(|| work(ctl_ref)),
                None => work(ctl_ref),
            };
            let _ = tx.send(out);
        });
        loop {
            match py.detach(|| recv(Some(POLL))) {
                Ok(out) => {
                    if let Some(cb) = progress {
                        report(cb, &ctl, start)?;
                    }
                    return Ok(out);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "internal error: the worker thread ended without a result",
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let checked = py
                        .check_signals()
                        .and_then(|()| progress.map_or(Ok(()), |cb| report(cb, &ctl, start)));
                    if let Err(err) = checked {
                        ctl.cancel();
                        // wait for the worker to notice, without holding the GIL
                        let _ = py.detach(|| recv(None));
                        return Err(err);
                    }
                }
            }
        }
    })
}
