//! `cargo +nightly fuzz run parse_gspan` (from `rust/fuzz`): the gSpan parser must never panic,
//! and whatever it accepts must survive a write/read round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(parsed) = graphsparse_graph::parse_gspan(&text, "fuzz") {
        let written =
            graphsparse_graph::format_gspan(&parsed).expect("tokens from a file are writable");
        let again =
            graphsparse_graph::parse_gspan(&written, "round-trip").expect("own output parses");
        assert_eq!(again.db, parsed.db);
        assert_eq!(again, parsed);
    }
});
