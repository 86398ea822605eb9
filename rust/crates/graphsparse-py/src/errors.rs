//! The one place where core-crate errors become Python exceptions.

use pyo3::{PyErr, import_exception};

import_exception!(graphsparse.exceptions, InvalidGraphError);
import_exception!(graphsparse.exceptions, GraphFormatError);
import_exception!(graphsparse.exceptions, InvalidParameterError);

/// Converts core-crate errors into Python exceptions (orphan-rule newtype).
pub struct PyGsErr(PyErr);

impl From<graphsparse::graph::GraphError> for PyGsErr {
    fn from(err: graphsparse::graph::GraphError) -> Self {
        use graphsparse::graph::GraphError as E;
        let msg = err.to_string();
        Self(match err {
            E::Parse { .. } | E::Inconsistent(_) => GraphFormatError::new_err(msg),
            E::Io { .. } => pyo3::exceptions::PyFileNotFoundError::new_err(msg),
            _ => InvalidGraphError::new_err(msg),
        })
    }
}

impl From<graphsparse::gspan::GspanError> for PyGsErr {
    fn from(err: graphsparse::gspan::GspanError) -> Self {
        use graphsparse::gspan::GspanError as E;
        match err {
            E::Graph(g) => Self::from(g),
            E::InvalidMinSupport(_) | E::InvalidParameter { .. } | E::InvalidCode { .. } => {
                Self(InvalidParameterError::new_err(err.to_string()))
            }
            _ => Self(InvalidGraphError::new_err(err.to_string())),
        }
    }
}

impl From<graphsparse::pcst::PcstError> for PyGsErr {
    fn from(err: graphsparse::pcst::PcstError) -> Self {
        Self(InvalidParameterError::new_err(err.to_string()))
    }
}

impl From<graphsparse::proj::ProjError> for PyGsErr {
    fn from(err: graphsparse::proj::ProjError) -> Self {
        Self(InvalidParameterError::new_err(err.to_string()))
    }
}

impl From<graphsparse::online::OnlineError> for PyGsErr {
    fn from(err: graphsparse::online::OnlineError) -> Self {
        use graphsparse::online::OnlineError as E;
        let msg = err.to_string();
        Self(match err {
            E::EdgeOutOfRange { .. } | E::InvalidCost { .. } => InvalidGraphError::new_err(msg),
            _ => InvalidParameterError::new_err(msg),
        })
    }
}

impl From<graphsparse::subgraph::SubgraphError> for PyGsErr {
    fn from(err: graphsparse::subgraph::SubgraphError) -> Self {
        use graphsparse::subgraph::SubgraphError as E;
        match err {
            E::Gspan(g) => Self::from(g),
            _ => Self(InvalidParameterError::new_err(err.to_string())),
        }
    }
}

impl From<PyGsErr> for PyErr {
    fn from(err: PyGsErr) -> Self {
        err.0
    }
}
