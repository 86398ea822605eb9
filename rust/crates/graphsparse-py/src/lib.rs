//! Private PyO3 bindings for graphsparse; the public API is the `graphsparse` Python package.
//!
//! Each area lives in its own module with a `register` function, so adding an area touches one
//! line here.

mod convert;
mod graph;
mod gspan;
mod lattice;
mod online;
mod ot;
mod pcst;
mod proj;
mod recovery;
mod subgraph;
mod threads;

/// Rust kernels behind `graphsparse` (private module).
#[pyo3::pymodule]
mod _graphsparse {
    use pyo3::prelude::*;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        crate::threads::register(m)?;
        crate::graph::register(m)?;
        crate::gspan::register(m)?;
        crate::pcst::register(m)?;
        crate::proj::register(m)?;
        crate::recovery::register(m)?;
        crate::online::register(m)?;
        crate::subgraph::register(m)?;
        crate::ot::register(m)?;
        crate::lattice::register(m)?;
        Ok(())
    }
}
