//! gSpan frequent connected subgraph mining (work in progress).
