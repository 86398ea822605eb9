//! The gSpan and TU parsers return `Ok` or `Err` on any input, never panic (a stable-Rust
//! companion of the `cargo fuzz` target in `rust/fuzz`).

use graphsparse_graph::{GraphDatabase, format_gspan, parse_gspan};
use proptest::prelude::*;

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..4).prop_map(|i| format!("t # {i}")),
        Just("t # -1".to_owned()),
        (-1i64..5, "[A-Z0-9]{0,2}").prop_map(|(i, l)| format!("v {i} {l}")),
        (-1i64..5, -1i64..5, "[a-z0-9]{0,2}").prop_map(|(u, v, l)| format!("e {u} {v} {l}")),
        "[ -~]{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn prop_parse_gspan_never_panics(lines in prop::collection::vec(line(), 0..30)) {
        let text = lines.join("\n");
        if let Ok(parsed) = parse_gspan(&text, "fuzz") {
            // whatever parses is a valid database and survives a round trip
            let db = &parsed.db;
            let again = GraphDatabase::new(
                db.node_ptr().to_vec(),
                db.node_labels().to_vec(),
                db.edge_ptr().to_vec(),
                db.edges().to_vec(),
                db.edge_labels().to_vec(),
            );
            prop_assert_eq!(again.as_ref(), Ok(db));
            let text2 = format_gspan(&parsed).unwrap();
            prop_assert_eq!(parse_gspan(&text2, "again").unwrap().db, parsed.db);
        }
    }

    #[test]
    fn prop_parse_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_gspan(&text, "fuzz");
    }

    #[test]
    fn prop_from_i64_never_panics(
        node_ptr in prop::collection::vec(-2i64..8, 0..5),
        node_labels in prop::collection::vec(-2i64..4, 0..8),
        edge_ptr in prop::collection::vec(-2i64..8, 0..5),
        edges in prop::collection::vec(-2i64..8, 0..12),
        edge_labels in prop::collection::vec(-2i64..4, 0..6),
    ) {
        let _ = GraphDatabase::from_i64(&node_ptr, &node_labels, &edge_ptr, &edges, &edge_labels);
    }
}
