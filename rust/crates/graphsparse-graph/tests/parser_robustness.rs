//! The gSpan and TU parsers return `Ok` or `Err` on any input, never panic (a stable-Rust
//! companion of the `cargo fuzz` targets in `rust/fuzz`), and whatever they accept is a valid
//! database that survives a gSpan write/read round trip.

use graphsparse_graph::{
    GraphDatabase, LabelKind, LabeledDatabase, TuFile, TuFiles, format_gspan, parse_gspan, parse_tu,
};
use proptest::prelude::*;

/// Checks what a parser accepted: a valid database, one name per graph, every label token used,
/// kinds that match the tokens, and an exact gSpan round trip (graph labels aside).
fn check_accepted(parsed: &LabeledDatabase) -> Result<(), TestCaseError> {
    let db = &parsed.db;
    let again = GraphDatabase::new(
        db.node_ptr().to_vec(),
        db.node_labels().to_vec(),
        db.edge_ptr().to_vec(),
        db.edges().to_vec(),
        db.edge_labels().to_vec(),
    );
    prop_assert_eq!(again.as_ref(), Ok(db));
    prop_assert_eq!(parsed.graph_names.len(), db.len());
    prop_assert_eq!(db.n_node_labels(), parsed.vertex_labels.len());
    prop_assert_eq!(db.n_edge_labels(), parsed.edge_labels.len());
    prop_assert_eq!(
        parsed.vertex_label_kind,
        LabelKind::classify(&parsed.vertex_labels)
    );
    prop_assert_eq!(
        parsed.edge_label_kind,
        LabelKind::classify(&parsed.edge_labels)
    );
    if let Some(g) = &parsed.graph_labels {
        prop_assert_eq!(g.len(), db.len());
        prop_assert_eq!(parsed.graph_label_kind, Some(LabelKind::classify(g)));
    }
    let text = format_gspan(parsed).expect("whatever a reader returns can be written");
    let back = parse_gspan(&text, "round-trip").expect("own output parses");
    let want = LabeledDatabase {
        graph_labels: None,
        graph_label_kind: None,
        ..parsed.clone()
    };
    prop_assert_eq!(back, want);
    Ok(())
}

/// Label tokens: integers, floats, text, and several spellings of one number.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{1,2}",
        "[0-9]\\.[05]",
        "[A-Za-z]{1,2}",
        prop::sample::select(vec![
            "01", "1.0", "-0", "+1", "1e1", "10", "1e400", "nan", "é"
        ])
        .prop_map(str::to_owned),
    ]
}

/// gSpan labels: the tokens above, and short (possibly empty) ones.
fn gspan_label() -> impl Strategy<Value = String> {
    prop_oneof![token(), "[A-Z0-9]{0,2}"]
}

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        (0i64..4).prop_map(|i| format!("t # {i}")),
        Just("t # -1".to_owned()),
        (-1i64..5, gspan_label()).prop_map(|(i, l)| format!("v {i} {l}")),
        (-1i64..5, -1i64..5, gspan_label()).prop_map(|(u, v, l)| format!("e {u} {v} {l}")),
        "[ -~]{0,12}",
    ]
}

/// Numbers a hostile file may hold where an id is expected.
const HOSTILE: &[&str] = &[
    "0",
    "-1",
    "4294967296",
    "4294967297",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "1000000000000",
    "-9223372036854775808",
    "",
    "x",
    "1,,2",
    "1 2 3",
    "\u{feff}1",
];

/// A TU dataset as lines per file: `[A, indicator, node labels, edge labels, graph labels]`.
#[derive(Debug, Clone)]
struct TuLines {
    files: [Vec<String>; 5],
    present: [bool; 3],
    crlf: bool,
}

impl TuLines {
    fn bytes(&self) -> [Vec<u8>; 5] {
        let sep = if self.crlf { "\r\n" } else { "\n" };
        self.files.clone().map(|lines| lines.join(sep).into_bytes())
    }
}

/// A consistent dataset (graphs of 0..4 vertices, edges listed once or both ways, label files of
/// the right length), then a few mutations: a line replaced by a hostile id, removed, or added.
fn tu_lines() -> impl Strategy<Value = TuLines> {
    let graphs = prop::collection::vec(0usize..4, 1..5);
    let edges = prop::collection::vec((0usize..5, 0usize..4, 0usize..4, any::<bool>()), 0..10);
    let mutations = prop::collection::vec(
        (0usize..5, 0usize..20, 0u8..3, prop::sample::select(HOSTILE)),
        0..3,
    );
    (
        graphs,
        edges,
        prop::collection::vec(token(), 20),
        prop::collection::vec(token(), 20),
        prop::collection::vec(token(), 5),
        any::<[bool; 3]>(),
        any::<bool>(),
        mutations,
    )
        .prop_map(
            |(sizes, edges, vtok, etok, gtok, present, crlf, mutations)| {
                let mut first = vec![0usize];
                for &s in &sizes {
                    first.push(first.last().unwrap() + s);
                }
                let mut files: [Vec<String>; 5] = Default::default();
                for (g, &s) in sizes.iter().enumerate() {
                    for _ in 0..s {
                        files[1].push((g + 1).to_string());
                    }
                }
                files[2] = (0..first[sizes.len()])
                    .map(|v| vtok[v % 20].clone())
                    .collect();
                let mut seen = std::collections::HashSet::new();
                for (k, &(g, a, b, both)) in edges.iter().enumerate() {
                    let g = g % sizes.len();
                    if a >= sizes[g]
                        || b >= sizes[g]
                        || a == b
                        || !seen.insert((g, a.min(b), a.max(b)))
                    {
                        continue;
                    }
                    let (u, v) = (first[g] + a + 1, first[g] + b + 1);
                    files[0].push(format!("{u}, {v}"));
                    files[3].push(etok[k % 20].clone());
                    if both {
                        files[0].push(format!("{v},{u}"));
                        files[3].push(etok[k % 20].clone());
                    }
                }
                files[4] = (0..sizes.len()).map(|g| gtok[g].clone()).collect();
                for (file, at, op, hostile) in mutations {
                    let lines = &mut files[file];
                    let at = at % (lines.len() + 1);
                    match op {
                        0 if at < lines.len() => lines[at] = hostile.to_owned(),
                        1 if at < lines.len() => {
                            lines.remove(at);
                        }
                        _ => lines.insert(at, hostile.to_owned()),
                    }
                }
                TuLines {
                    files,
                    present,
                    crlf,
                }
            },
        )
}

fn tu_files<'a>(bytes: &'a [Vec<u8>; 5], present: [bool; 3]) -> TuFiles<'a> {
    let file = |k: usize, name: &'a str| TuFile::new(name, &bytes[k]);
    TuFiles {
        adjacency: file(0, "X_A.txt"),
        graph_indicator: file(1, "X_graph_indicator.txt"),
        node_labels: present[0].then(|| file(2, "X_node_labels.txt")),
        edge_labels: present[1].then(|| file(3, "X_edge_labels.txt")),
        graph_labels: present[2].then(|| file(4, "X_graph_labels.txt")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn prop_parse_gspan_never_panics(lines in prop::collection::vec(line(), 0..30)) {
        let text = lines.join("\n");
        if let Ok(parsed) = parse_gspan(&text, "fuzz") {
            check_accepted(&parsed)?;
        }
    }

    #[test]
    fn prop_parse_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_gspan(&text, "fuzz");
    }

    #[test]
    fn prop_parse_tu_never_panics(tu in tu_lines()) {
        let bytes = tu.bytes();
        if let Ok(parsed) = parse_tu(&tu_files(&bytes, tu.present)) {
            check_accepted(&parsed)?;
            // one vertex per non-blank indicator line
            prop_assert_eq!(parsed.db.node_labels().len(), tu.files[1].iter().filter(|l| !l.trim().is_empty()).count());
        }
    }

    #[test]
    fn prop_parse_tu_arbitrary_bytes_never_panics(
        files in prop::array::uniform5(prop::collection::vec(any::<u8>(), 0..40)),
        present in any::<[bool; 3]>(),
    ) {
        if let Ok(parsed) = parse_tu(&tu_files(&files, present)) {
            check_accepted(&parsed)?;
        }
    }

    #[test]
    fn prop_parse_tu_small_alphabet_never_panics(
        files in prop::array::uniform5("[0-9, \\n\\r\\t\u{feff}-]{0,30}"),
        present in any::<[bool; 3]>(),
    ) {
        let bytes = files.map(String::into_bytes);
        if let Ok(parsed) = parse_tu(&tu_files(&bytes, present)) {
            check_accepted(&parsed)?;
        }
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

    /// `LabeledDatabase::new` and `format_gspan` never panic on caller-made tokens and names, and
    /// whatever `format_gspan` writes reads back as the same graphs with the same label tokens
    /// and names (ids may be renumbered when the tokens were not in canonical order).
    #[test]
    fn prop_new_and_format_never_panic_and_keep_tokens(
        graphs in prop::collection::vec(
            (1usize..5, prop::collection::vec((0u32..4, 0u32..4), 0..5), prop_oneof![
                4 => "[a-z0-9]{1,3}",
                1 => "[a -]{0,3}",
            ]),
            0..4,
        ),
        labels in prop::collection::vec(0u32..3, 16),
        vertex_tokens in prop::collection::vec(prop_oneof![4 => token(), 1 => "[ a\t]{0,2}"], 3),
        edge_tokens in prop::collection::vec(token(), 3),
        drop_name in any::<bool>(),
    ) {
        let (mut node_ptr, mut edge_ptr, mut edges, mut names) = (vec![0], vec![0], Vec::new(), Vec::new());
        for (n, es, name) in &graphs {
            node_ptr.push(node_ptr.last().unwrap() + n);
            let mut seen = std::collections::HashSet::new();
            // mostly valid simple edges, so that most cases reach the writer
            edges.extend(
                es.iter()
                    .map(|&(u, v)| [u % *n as u32, v % *n as u32])
                    .filter(|&[u, v]| u != v && seen.insert((u.min(v), u.max(v)))),
            );
            edge_ptr.push(edges.len());
            names.push(name.clone());
        }
        if drop_name {
            names.pop();
        }
        let n_vertices = *node_ptr.last().unwrap();
        let vertex_labels = labels.iter().cycle().take(n_vertices).copied().collect();
        let edge_labels = labels.iter().rev().cycle().take(edges.len()).copied().collect();
        let Ok(db) = GraphDatabase::new(node_ptr, vertex_labels, edge_ptr, edges, edge_labels) else {
            return Ok(());
        };
        let Ok(data) = LabeledDatabase::new(db, vertex_tokens, edge_tokens, None, names) else {
            return Ok(());
        };
        prop_assert_eq!(data.vertex_label_kind, LabelKind::classify(&data.vertex_labels));
        let Ok(text) = format_gspan(&data) else { return Ok(()) };
        let back = parse_gspan(&text, "round-trip").expect("own output parses");
        prop_assert_eq!(&back.graph_names, &data.graph_names);
        prop_assert_eq!(back.db.len(), data.db.len());
        for (a, b) in data.db.iter().zip(back.db.iter()) {
            prop_assert_eq!(a.edges, b.edges);
            let tokens = |ids: &[u32], t: &[String]| -> Vec<String> {
                ids.iter().map(|&i| t[i as usize].clone()).collect()
            };
            prop_assert_eq!(
                tokens(a.node_labels, &data.vertex_labels),
                tokens(b.node_labels, &back.vertex_labels)
            );
            prop_assert_eq!(
                tokens(a.edge_labels, &data.edge_labels),
                tokens(b.edge_labels, &back.edge_labels)
            );
        }
    }
}

/// Many generated datasets parse, so the property above exercises the accepting path (and the
/// round trip), not only errors.
#[test]
fn generated_datasets_often_parse() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut accepted, mut total) = (0, 0);
    for _ in 0..300 {
        let tu = tu_lines().new_tree(&mut runner).unwrap().current();
        let bytes = tu.bytes();
        total += 1;
        if parse_tu(&tu_files(&bytes, tu.present)).is_ok() {
            accepted += 1;
        }
    }
    assert!(
        accepted * 4 >= total,
        "only {accepted} of {total} generated datasets parse"
    );
}
