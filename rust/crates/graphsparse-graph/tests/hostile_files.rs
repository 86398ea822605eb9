//! Hostile and unusual TU / gSpan files: every format problem is a `GraphError::Parse` naming the
//! file and the 1-based line, nothing is sized by an unchecked number from a file, and `Io` is
//! kept for files that cannot be opened or read.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use graphsparse_graph::{GraphError, LabeledDatabase, read_gspan, read_tu};

/// A fresh, empty temporary folder (removed when dropped).
struct TmpDir(PathBuf);

impl TmpDir {
    fn new(tag: &str) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let k = COUNTER.fetch_add(1, Ordering::Relaxed);
        let d = std::env::temp_dir().join(format!("gs-hostile-{tag}-{}-{k}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Self(d)
    }

    /// Writes `NAME_<suffix>.txt` for each `(suffix, bytes)`.
    fn write(&self, name: &str, files: &[(&str, &[u8])]) -> &Path {
        for (suffix, bytes) in files {
            std::fs::write(self.0.join(format!("{name}_{suffix}.txt")), bytes).unwrap();
        }
        &self.0
    }
}

impl Drop for TmpDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Reads a TU dataset `T` made of `files` from a fresh folder.
fn tu(files: &[(&str, &[u8])]) -> Result<LabeledDatabase, GraphError> {
    let d = TmpDir::new("tu");
    d.write("T", files);
    read_tu(&d.0, None)
}

/// Asserts a `Parse` error on `file_suffix` (e.g. `T_A.txt`) at `line`, whose message contains
/// `needle`.
#[track_caller]
fn assert_parse(
    r: Result<LabeledDatabase, GraphError>,
    file_suffix: &str,
    line: usize,
    needle: &str,
) {
    match r {
        Err(GraphError::Parse {
            file,
            line: l,
            message,
        }) => {
            assert!(
                file.ends_with(file_suffix),
                "file {file}, want {file_suffix}"
            );
            assert_eq!(l, line, "line of `{message}` in {file}");
            assert!(message.contains(needle), "`{message}` lacks `{needle}`");
        }
        other => panic!("want Parse error on {file_suffix}:{line}, got {other:?}"),
    }
}

const A: &[u8] = b"1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n";
const IND: &[u8] = b"1\n1\n1\n2\n2\n";

fn clean() -> LabeledDatabase {
    tu(&[
        ("A", A),
        ("graph_indicator", IND),
        ("node_labels", b"0\n1\n0\n2\n2\n"),
        ("edge_labels", b"0\n0\n1\n1\n0\n0\n"),
        ("graph_labels", b"1\n-1\n"),
    ])
    .unwrap()
}

// --- graph indicator ------------------------------------------------------------------------------

#[test]
fn huge_graph_ids_are_parse_errors_not_allocations() {
    // 10^12 used to abort the process (a vector of 10^12 + 1 offsets), 2^64 - 1 to panic.
    for id in [
        "1000000000000",
        "18446744073709551615",
        "18446744073709551616",
        "4294967296",
        "4294967297",
        "9223372036854775808",
        "9223372036854775807",
    ] {
        let ind = format!("1\n1\n{id}\n");
        let r = tu(&[("A", b"1, 2\n"), ("graph_indicator", ind.as_bytes())]);
        assert_parse(r, "T_graph_indicator.txt", 3, id);
    }
}

#[test]
fn graph_ids_cannot_exceed_what_the_files_describe() {
    // without a graph-labels file, there cannot be more graphs than vertices
    let r = tu(&[("A", b""), ("graph_indicator", b"1\n3\n")]);
    assert_parse(r, "T_graph_indicator.txt", 2, "3");
    // with one, ids run up to its number of labels
    let r = tu(&[
        ("A", b""),
        ("graph_indicator", b"1\n4\n"),
        ("graph_labels", b"a\nb\nc\n"),
    ]);
    assert_parse(r, "T_graph_indicator.txt", 2, "4");
}

#[test]
fn zero_negative_and_non_integer_graph_ids() {
    for (text, line, bad) in [
        ("0\n", 1, "0"),
        ("1\n-1\n", 2, "-1"),
        ("1\n-18446744073709551616\n", 2, "-18446744073709551616"),
        ("1\n1.0\n", 2, "1.0"),
        ("1\nx\n", 2, "x"),
        ("1\n1 2\n", 2, "1 2"),
        ("2\n1\n", 2, "non-decreasing"),
    ] {
        let r = tu(&[("A", b""), ("graph_indicator", text.as_bytes())]);
        assert_parse(r, "T_graph_indicator.txt", line, bad);
    }
}

#[test]
fn a_graph_with_no_vertices() {
    // graph 2 has no vertex: a gap in the ids, declared by the graph-labels file
    let p = tu(&[
        ("A", b"1, 2\n2, 1\n"),
        ("graph_indicator", b"1\n1\n3\n"),
        ("graph_labels", b"a\nb\nc\n"),
    ])
    .unwrap();
    assert_eq!(p.db.len(), 3);
    assert_eq!(p.db.graph(1).n_vertices(), 0);
    assert_eq!(p.db.graph(2).n_vertices(), 1);
    assert_eq!(p.graph_names, ["1", "2", "3"]);
    assert_eq!(p.graph_labels.unwrap(), ["a", "b", "c"]);
    // and a gap that stays below the number of vertices needs no labels file
    let p = tu(&[("A", b""), ("graph_indicator", b"1\n1\n3\n")]).unwrap();
    assert_eq!(p.db.len(), 3);
    assert_eq!(p.db.graph(1).n_vertices(), 0);
}

#[test]
fn empty_files() {
    let p = tu(&[("A", b""), ("graph_indicator", b"")]).unwrap();
    assert_eq!(p.db.len(), 0);
    // no vertex, so no label token either: the database round-trips through gSpan
    assert!(p.vertex_labels.is_empty() && p.edge_labels.is_empty());
    let p = tu(&[
        ("A", b"\n\n"),
        ("graph_indicator", b"\n \n"),
        ("graph_labels", b""),
    ])
    .unwrap();
    assert_eq!(p.db.len(), 0);
    assert_eq!(p.graph_labels.unwrap(), Vec::<String>::new());
    // vertices without edges
    let p = tu(&[("A", b""), ("graph_indicator", b"1\n2\n")]).unwrap();
    assert_eq!((p.db.len(), p.db.edges().len()), (2, 0));
    let r = tu(&[("A", b"1, 2\n"), ("graph_indicator", b"")]);
    assert_parse(r, "T_A.txt", 1, "1");
}

// --- adjacency ----------------------------------------------------------------------------------

#[test]
fn vertex_ids_out_of_range() {
    for (a, bad) in [
        ("1, 2\n0, 1\n", "0"),
        ("1, 2\n-1, 1\n", "-1"),
        ("1, 2\n1, 6\n", "6"),
        ("1, 2\n1, 1000000000000\n", "1000000000000"),
        ("1, 2\n18446744073709551615, 1\n", "18446744073709551615"),
        ("1, 2\n18446744073709551616, 1\n", "18446744073709551616"),
        ("1, 2\n4294967297, 1\n", "4294967297"),
        ("1, 2\n1.5, 1\n", "1.5"),
    ] {
        let r = tu(&[("A", a.as_bytes()), ("graph_indicator", IND)]);
        assert_parse(r, "T_A.txt", 2, bad);
    }
}

#[test]
fn malformed_adjacency_lines() {
    for (a, needle) in [
        ("3, 2\n1\n", "expected `u, v`"),
        ("3, 2\n1, 2, 3\n", "expected `u, v`"),
        ("3, 2\n1,,2\n", "empty field"),
        ("3, 2\n,1,2\n", "empty field"),
        ("3, 2\n1, 2,,\n", "empty field"),
        ("3, 2\nx, y\n", "x"),
    ] {
        let r = tu(&[("A", a.as_bytes()), ("graph_indicator", IND)]);
        assert_parse(r, "T_A.txt", 2, needle);
    }
}

#[test]
fn edges_both_ways_merge_twice_the_same_way_and_self_loops_do_not() {
    let p = tu(&[
        ("A", b"1, 2\n2, 1\n1, 3\n"),
        ("graph_indicator", b"1\n1\n1\n"),
    ])
    .unwrap();
    assert_eq!(p.db.graph(0).edges, [[0, 1], [0, 2]]);
    let r = tu(&[("A", b"1, 2\n2, 1\n1, 2\n"), ("graph_indicator", b"1\n1\n")]);
    assert_parse(r, "T_A.txt", 3, "twice");
    let r = tu(&[("A", b"1, 2\n1, 2\n"), ("graph_indicator", b"1\n1\n")]);
    assert_parse(r, "T_A.txt", 2, "twice");
    let r = tu(&[("A", b"1, 2\n2, 2\n"), ("graph_indicator", b"1\n1\n")]);
    assert_parse(r, "T_A.txt", 2, "self-loop");
    let r = tu(&[("A", b"1, 2\n2, 3\n"), ("graph_indicator", b"1\n1\n2\n")]);
    assert_parse(r, "T_A.txt", 2, "graphs 1 and 2");
}

// --- label files --------------------------------------------------------------------------------

#[test]
fn label_files_with_the_wrong_number_of_lines() {
    let base: [(&str, &[u8]); 2] = [("A", A), ("graph_indicator", IND)];
    let with = |extra: (&str, &[u8])| {
        let mut files = base.to_vec();
        files.push(extra);
        tu(&files)
    };
    // too few: the error points just past the last line
    assert_parse(
        with(("node_labels", b"0\n1\n0\n2\n")),
        "T_node_labels.txt",
        5,
        "4 labels but",
    );
    // too many: the error points at the first extra line
    assert_parse(
        with(("node_labels", b"0\n1\n0\n2\n2\n7\n")),
        "T_node_labels.txt",
        6,
        "6 labels but",
    );
    assert_parse(
        with(("edge_labels", b"0\n0\n1\n1\n0\n")),
        "T_edge_labels.txt",
        6,
        "5 labels but",
    );
    assert_parse(
        with(("edge_labels", b"0\n0\n1\n1\n0\n0\n0\n")),
        "T_edge_labels.txt",
        7,
        "7 labels but",
    );
    assert_parse(
        with(("graph_labels", b"1\n")),
        "T_graph_labels.txt",
        2,
        "1 labels but",
    );
    assert_parse(
        with(("graph_labels", b"1\n1\n1\n")),
        "T_graph_labels.txt",
        3,
        "3 labels but",
    );
    assert_parse(
        with(("node_labels", b"0\n1\n0 1\n2\n2\n")),
        "T_node_labels.txt",
        3,
        "one value",
    );
}

// --- encodings and layout -----------------------------------------------------------------------

#[test]
fn non_utf8_is_a_parse_error_naming_line_and_byte() {
    let files: [(&str, &[u8]); 5] = [
        ("A", A),
        ("graph_indicator", IND),
        ("node_labels", b"0\n1\n0\n2\n2\n"),
        ("edge_labels", b"0\n0\n1\n1\n0\n0\n"),
        ("graph_labels", b"1\n-1\n"),
    ];
    for k in 0..files.len() {
        let mut bad = files.to_vec();
        let mut bytes = files[k].1.to_vec();
        // an invalid byte at the start of line 2
        let at = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        bytes.insert(at, 0xff);
        bad[k].1 = &bytes;
        let r = tu(&bad);
        let file = format!("T_{}.txt", files[k].0);
        assert_parse(r, &file, 2, &format!("byte {at}"));
    }
    let d = TmpDir::new("gsp");
    let path = d.0.join("bad.gsp");
    std::fs::write(&path, b"t # 0\nv 0 C\nv 1 \xc3\x28\n").unwrap();
    match read_gspan(&path) {
        Err(GraphError::Parse { line, message, .. }) => {
            assert_eq!(line, 3);
            assert!(
                message.contains("UTF-8") && message.contains("byte 16"),
                "{message}"
            );
        }
        other => panic!("want Parse, got {other:?}"),
    }
}

#[test]
fn crlf_blank_lines_trailing_whitespace_bom_and_separators() {
    let want = clean();
    let variants: [[&[u8]; 5]; 4] = [
        // CRLF, trailing blanks, blank lines
        [
            b"1, 2\r\n2, 1\r\n\r\n2, 3 \r\n3, 2\t\r\n4, 5\r\n5, 4\r\n",
            b"1\r\n1\r\n1\r\n2\r\n2\r\n\r\n",
            b"0 \n1\n0\n\n2\n2\n\n",
            b"0\n0\n\n1\n1\n0\n0",
            b"1\r\n-1\r\n",
        ],
        // byte-order marks
        [
            b"\xef\xbb\xbf1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n",
            b"\xef\xbb\xbf1\n1\n1\n2\n2\n",
            b"\xef\xbb\xbf0\n1\n0\n2\n2\n",
            b"\xef\xbb\xbf0\n0\n1\n1\n0\n0\n",
            b"\xef\xbb\xbf1\n-1\n",
        ],
        // commas without blanks, tabs, blanks only
        [
            b"1,2\n2\t1\n2 3\n3 ,2\n4\t,\t5\n  5,   4  \n",
            b"  1\n1\n1\n2\n2\n",
            b"0\n1\n0\n2\n2\n",
            b"0\n0\n1\n1\n0\n0\n",
            b"1\n-1\n",
        ],
        // one trailing comma is tolerated
        [
            b"1, 2,\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4,\n",
            b"1,\n1,\n1\n2\n2\n",
            b"0,\n1\n0\n2\n2\n",
            b"0\n0\n1\n1\n0\n0\n",
            b"1,\n-1\n",
        ],
    ];
    for (k, v) in variants.iter().enumerate() {
        let got = tu(&[
            ("A", v[0]),
            ("graph_indicator", v[1]),
            ("node_labels", v[2]),
            ("edge_labels", v[3]),
            ("graph_labels", v[4]),
        ])
        .unwrap_or_else(|e| panic!("variant {k}: {e}"));
        assert_eq!(got, want, "variant {k}");
    }
    // gSpan: BOM and CRLF
    let d = TmpDir::new("gsp");
    let path = d.0.join("x.gsp");
    std::fs::write(&path, b"\xef\xbb\xbft # 0\r\nv 0 C\r\nv 1 O\r\ne 0 1 1\r\n").unwrap();
    let p = read_gspan(&path).unwrap();
    assert_eq!(p.vertex_labels, ["C", "O"]);
    assert_eq!(p.db.graph(0).edges, [[0, 1]]);
}

// --- I/O ------------------------------------------------------------------------------------------

#[test]
fn io_errors_only_for_files_that_cannot_be_read() {
    let d = TmpDir::new("io");
    d.write("T", &[("graph_indicator", b"1\n")]);
    // the folder has no `*_A.txt`: not a TU folder
    assert!(matches!(
        read_tu(&d.0, None),
        Err(GraphError::Inconsistent(_))
    ));
    // the named dataset lacks its adjacency file
    match read_tu(&d.0, Some("T")) {
        Err(GraphError::Io { path, .. }) => assert!(path.ends_with("T_A.txt"), "{path}"),
        other => panic!("want Io, got {other:?}"),
    }
    assert!(matches!(
        read_tu(d.0.join("missing"), None),
        Err(GraphError::Io { .. })
    ));
    assert!(matches!(
        read_gspan(d.0.join("missing.gsp")),
        Err(GraphError::Io { .. })
    ));
    // a folder where a file should be
    std::fs::create_dir(d.0.join("T_A.txt")).unwrap();
    assert!(matches!(
        read_tu(&d.0, Some("T")),
        Err(GraphError::Io { .. })
    ));
}
