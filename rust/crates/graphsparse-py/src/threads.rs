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
    let n = if FORKED.load(Ordering::SeqCst) { 1 } else { n_threads.max(1) };
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
