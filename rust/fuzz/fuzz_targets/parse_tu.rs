//! `cargo +nightly fuzz run parse_tu` (from `rust/fuzz`): the TU reader must never panic, and
//! whatever it accepts must survive a gSpan write/read round trip.
//!
//! The input is split at NUL bytes into the five files, in the order adjacency, graph
//! indicator, node labels, edge labels, graph labels; the label files are absent when the input
//! has fewer parts.
#![no_main]

use graphsparse_graph::{LabeledDatabase, TuFile, TuFiles, format_gspan, parse_gspan, parse_tu};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.split(|&b| b == 0);
    let adjacency = parts.next().unwrap_or_default();
    let indicator = parts.next().unwrap_or_default();
    let mut optional = |name| parts.next().map(|bytes| TuFile::new(name, bytes));
    let files = TuFiles {
        adjacency: TuFile::new("F_A.txt", adjacency),
        graph_indicator: TuFile::new("F_graph_indicator.txt", indicator),
        node_labels: optional("F_node_labels.txt"),
        edge_labels: optional("F_edge_labels.txt"),
        graph_labels: optional("F_graph_labels.txt"),
    };
    if let Ok(parsed) = parse_tu(&files) {
        let written = format_gspan(&parsed).expect("whatever a reader returns can be written");
        let again = parse_gspan(&written, "round-trip").expect("own output parses");
        let want = LabeledDatabase {
            graph_labels: None,
            graph_label_kind: None,
            ..parsed
        };
        assert_eq!(again, want);
    }
});
