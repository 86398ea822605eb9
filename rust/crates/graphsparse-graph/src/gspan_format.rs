//! The gSpan text format.
//!
//! ```text
//! t # 0            <- starts graph 0 (anything after the id is kept as its name)
//! v 1 C            <- vertex with id 1 and label C (ids: any integers, unique in a graph)
//! v 2 O
//! e 1 2 2          <- edge between vertices 1 and 2 with label 2
//! t # -1           <- optional terminator
//! ```
//! Blank lines and lines starting with `#` are ignored. Vertex ids may be 1-based or
//! non-contiguous; vertices get local indices in order of appearance.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use crate::error::{GraphError, Result};
use crate::labeled::{Builder, LabeledDatabase};
use crate::labels::LabelInterner;
use crate::text::{decode, read_bytes};

/// Parses gSpan text.
///
/// ```text
/// t # 0            <- starts graph 0 (anything after the id is kept as its name)
/// v 1 C            <- vertex with id 1 and label C
/// v 2 O
/// e 1 2 2          <- edge between vertices 1 and 2 with label 2
/// t # -1           <- optional terminator
/// ```
///
/// Each `t # <id> [words…]` line starts a graph named `<id> [words…]` (words joined by single
/// spaces); `t # -1` alone ends the input's last graph. Vertex ids are any `i64`, unique within
/// their graph; vertices get local indices `0, 1, …` in order of appearance. Blank lines and
/// lines starting with `#` are skipped; a leading byte-order mark is skipped.
///
/// # Arguments
/// * `text` – the gSpan text.
/// * `source` – the name error messages give for the input (a path, or `"<string>"`).
///
/// # Returns
/// The graphs with vertex and edge labels numbered in canonical order (see [`LabelKind`](crate::LabelKind)),
/// the label tokens and kinds, and the graph names; `graph_labels` is `None`.
///
/// # Errors
/// [`GraphError::Parse`] with `source` and the 1-based line number for malformed lines, vertex
/// ids that are not `i64`, unknown or duplicate vertex ids, self-loops, parallel edges,
/// records outside a graph and unknown record types.
///
/// # Complexity
/// O(bytes) expected time (one hash-map look-up per id) plus O(k log k) to order k distinct
/// labels; O(V + E) memory.
///
/// # Example
/// ```
/// let text = "t # 0\nv 1 C\nv 2 O\ne 1 2 double\n";
/// let parsed = graphsparse_graph::parse_gspan(text, "<string>").unwrap();
/// assert_eq!(parsed.db.len(), 1);
/// assert_eq!(parsed.vertex_labels, ["C", "O"]);
/// assert!(graphsparse_graph::parse_gspan("v 1 C\n", "x.gsp").unwrap_err().to_string().starts_with("x.gsp:1:"));
/// ```
pub fn parse_gspan(text: &str, source: &str) -> Result<LabeledDatabase> {
    let mut b = Builder::new();
    let mut in_graph = false;
    let mut ids: HashMap<i64, u32> = HashMap::new();
    let mut pairs: HashSet<(u32, u32)> = HashSet::new();
    let err = |line: usize, message: String| GraphError::Parse {
        file: source.to_owned(),
        line,
        message,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let mut tok = raw.split_whitespace();
        let Some(kind) = tok.next() else { continue };
        match kind {
            "t" => {
                if in_graph {
                    b.end_graph();
                }
                if tok.next() != Some("#") {
                    return Err(err(line, "expected `t # <id>`".into()));
                }
                let id = tok
                    .next()
                    .ok_or_else(|| err(line, "missing graph id after `t #`".into()))?;
                let rest: Vec<&str> = tok.collect();
                if id == "-1" && rest.is_empty() {
                    in_graph = false;
                    continue;
                }
                let mut name = id.to_owned();
                for r in rest {
                    name.push(' ');
                    name.push_str(r);
                }
                b.graph_names.push(name);
                ids.clear();
                pairs.clear();
                in_graph = true;
            }
            "v" => {
                if !in_graph {
                    return Err(err(line, "vertex record before any `t # <id>` line".into()));
                }
                let (Some(id), Some(label), None) = (tok.next(), tok.next(), tok.next()) else {
                    return Err(err(line, "expected `v <id> <label>`".into()));
                };
                let id: i64 = id
                    .parse()
                    .map_err(|_| err(line, format!("vertex id `{id}` is not an integer")))?;
                let local = u32::try_from(ids.len()).expect("invariant: < 2^32 vertices");
                if ids.insert(id, local).is_some() {
                    return Err(err(line, format!("duplicate vertex id {id}")));
                }
                let l = b.vertex_interner.intern(label);
                b.node_labels.push(l);
            }
            "e" => {
                if !in_graph {
                    return Err(err(line, "edge record before any `t # <id>` line".into()));
                }
                let (Some(u), Some(v), Some(label), None) =
                    (tok.next(), tok.next(), tok.next(), tok.next())
                else {
                    return Err(err(line, "expected `e <u> <v> <label>`".into()));
                };
                let mut ends = [0u32; 2];
                for (slot, s) in ends.iter_mut().zip([u, v]) {
                    let id: i64 = s
                        .parse()
                        .map_err(|_| err(line, format!("vertex id `{s}` is not an integer")))?;
                    *slot = *ids
                        .get(&id)
                        .ok_or_else(|| err(line, format!("edge uses undeclared vertex {id}")))?;
                }
                if ends[0] == ends[1] {
                    return Err(err(line, format!("self-loop on vertex {u}")));
                }
                if !pairs.insert((ends[0].min(ends[1]), ends[0].max(ends[1]))) {
                    return Err(err(
                        line,
                        format!("parallel edge between vertices {u} and {v}"),
                    ));
                }
                let l = b.edge_interner.intern(label);
                b.edges.push(ends);
                b.edge_labels.push(l);
            }
            s if s.starts_with('#') => {}
            other => {
                return Err(err(
                    line,
                    format!("unknown record type `{other}` (expected t, v or e)"),
                ));
            }
        }
    }
    if in_graph {
        b.end_graph();
    }
    b.finish(None)
}

/// Reads a gSpan file.
///
/// # Arguments
/// * `path` – the file; UTF-8 text, optionally starting with a byte-order mark.
///
/// # Returns
/// As [`parse_gspan`]; error messages name the file by `path`.
///
/// # Errors
/// [`GraphError::Io`] if the file cannot be read; [`GraphError::Parse`] with the line and byte
/// offset for invalid UTF-8; otherwise as [`parse_gspan`].
///
/// # Complexity
/// As [`parse_gspan`], plus reading the file.
///
/// # Example
/// ```
/// let path = std::env::temp_dir().join(format!("gs-read-gspan-doc-{}.gsp", std::process::id()));
/// std::fs::write(&path, "t # 0\nv 0 C\nv 1 O\ne 0 1 1\n").unwrap();
/// let data = graphsparse_graph::read_gspan(&path)?;
/// assert_eq!(data.db.graph(0).n_edges(), 1);
/// std::fs::write(&path, b"t # 0\nv 0 \xff\n").unwrap();
/// assert!(graphsparse_graph::read_gspan(&path).unwrap_err().to_string().contains(":2: invalid UTF-8"));
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), graphsparse_graph::GraphError>(())
/// ```
pub fn read_gspan(path: impl AsRef<Path>) -> Result<LabeledDatabase> {
    let path = path.as_ref();
    let bytes = read_bytes(path)?;
    let name = path.display().to_string();
    parse_gspan(decode(&name, &bytes)?, &name)
}

/// Checks that `tokens` can be written and read back as the same labels.
fn check_tokens(tokens: &[String], what: &str) -> Result<()> {
    if let Some((id, t)) = tokens
        .iter()
        .enumerate()
        .find(|(_, t)| t.is_empty() || t.contains(char::is_whitespace))
    {
        return Err(GraphError::Malformed(format!(
            "{what} label {id} (`{t}`) cannot be written in gSpan format: labels must be \
             non-empty and hold no whitespace"
        )));
    }
    let mut interner = LabelInterner::new();
    let provisional: Vec<u32> = tokens.iter().map(|t| interner.intern(t)).collect();
    let canonical = interner.finish();
    if canonical.tokens.len() == tokens.len() {
        return Ok(());
    }
    let mut first_of = vec![usize::MAX; canonical.tokens.len()];
    for (id, &p) in provisional.iter().enumerate() {
        let c = canonical.remap[p as usize] as usize;
        if first_of[c] != usize::MAX {
            return Err(GraphError::Malformed(format!(
                "{what} labels {} (`{}`) and {id} (`{}`) would be read back as one label \
                 ({} labels)",
                first_of[c],
                tokens[first_of[c]],
                tokens[id],
                canonical.kind.as_str()
            )));
        }
        first_of[c] = id;
    }
    unreachable!("invariant: fewer labels than tokens means two tokens share one")
}

/// Checks that `name` can follow `t # ` and be read back unchanged.
fn check_name(g: usize, name: &str) -> Result<()> {
    let normal = name.split_whitespace().eq(name.split(' ')) && !name.is_empty();
    if !normal || name == "-1" {
        return Err(GraphError::Malformed(format!(
            "graph {g}: name `{}` cannot be written in gSpan format: names must be non-empty \
             words separated by single spaces, and not `-1` (the terminator)",
            name.escape_debug()
        )));
    }
    Ok(())
}

/// Writes a database as gSpan text: `t # <name>` per graph, vertex ids `0..n_vertices`,
/// `vertex_labels[id]` / `edge_labels[id]` as the label tokens.
///
/// Everything a reader returns can be written, and reading the text back gives the same
/// database: `parse_gspan(&format_gspan(&x)?, _)` equals `x` except for `graph_labels` and
/// `graph_label_kind`, which gSpan text does not hold (they come back as `None`). For a
/// database built by hand, the same holds when its tokens are in canonical order and each is
/// used (see [`LabelInterner`]); otherwise the text still describes the same labelled graphs,
/// and reading it back renumbers the labels canonically.
///
/// # Arguments
/// * `data` – the graphs, their label tokens and one name per graph.
///
/// # Returns
/// The text, one record per line, each line ending in `\n`.
///
/// # Errors
/// [`GraphError::Malformed`] when a label token is empty or holds whitespace, when two tokens of
/// one set would be read back as one label (`"1"` and `"01"`, or `"C"` twice), when a label id
/// has no token, when `graph_names` does not hold one name per graph, or when a name cannot be
/// read back unchanged (empty, whitespace other than single spaces between words, or `-1`).
///
/// # Complexity
/// O(size of the output + k log k) for k label tokens.
///
/// # Example
/// ```
/// use graphsparse_graph::{format_gspan, parse_gspan};
/// let data = parse_gspan("t # mol 1\nv 1 C\nv 2 O\ne 1 2 2\n", "<doc>").unwrap();
/// let text = format_gspan(&data).unwrap();
/// assert_eq!(text, "t # mol 1\nv 0 C\nv 1 O\ne 0 1 2\n");
/// assert_eq!(parse_gspan(&text, "<again>").unwrap(), data);
///
/// let mut bad = data.clone();
/// bad.vertex_labels[0] = "carbon atom".into();
/// assert!(format_gspan(&bad).is_err());
/// ```
///
/// Reference: X. Yan and J. Han, "gSpan: graph-based substructure pattern mining", ICDM 2002,
/// <https://doi.org/10.1109/ICDM.2002.1184038>.
pub fn format_gspan(data: &LabeledDatabase) -> Result<String> {
    check_tokens(&data.vertex_labels, "vertex")?;
    check_tokens(&data.edge_labels, "edge")?;
    if data.graph_names.len() != data.db.len() {
        return Err(GraphError::Malformed(format!(
            "{} graph names for {} graphs",
            data.graph_names.len(),
            data.db.len()
        )));
    }
    for (g, name) in data.graph_names.iter().enumerate() {
        check_name(g, name)?;
    }
    fn token<'t>(tokens: &'t [String], id: u32, what: &str) -> Result<&'t str> {
        tokens.get(id as usize).map(String::as_str).ok_or_else(|| {
            GraphError::Malformed(format!(
                "{what} label id {id} has no token ({} tokens)",
                tokens.len()
            ))
        })
    }
    let mut out = String::new();
    for (graph, name) in data.db.iter().zip(&data.graph_names) {
        let _ = writeln!(out, "t # {name}");
        for (v, &l) in graph.node_labels.iter().enumerate() {
            let _ = writeln!(out, "v {v} {}", token(&data.vertex_labels, l, "vertex")?);
        }
        for (&[u, v], &l) in graph.edges.iter().zip(graph.edge_labels) {
            let _ = writeln!(out, "e {u} {v} {}", token(&data.edge_labels, l, "edge")?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LabelKind;

    #[test]
    fn one_based_and_sparse_ids() {
        let text = "t # 0 1.0 a.mol\nv 1 8\nv 5 6\nv 3 6\ne 1 5 1\ne 5 3 2\nt # 1\nv 0 6\nt # -1\n";
        let p = parse_gspan(text, "s").unwrap();
        assert_eq!(p.db.len(), 2);
        assert_eq!(p.graph_names, ["0 1.0 a.mol", "1"]);
        assert_eq!(p.vertex_labels, ["6", "8"]);
        assert_eq!(p.db.graph(0).node_labels, [1, 0, 0]);
        assert_eq!(p.db.graph(0).edges, [[0, 1], [1, 2]]);
        assert_eq!(p.db.graph(1).n_vertices(), 1);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("t # 0\nv 1 C\ne 1 2 1\n", 3, "undeclared"),
            ("t # 0\nv 1 C\nv 1 C\n", 3, "duplicate"),
            ("t # 0\nv 1 C\ne 1 1 1\n", 3, "self-loop"),
            ("t # 0\nv 1 C\nv 2 C\ne 1 2 1\ne 2 1 1\n", 5, "parallel"),
            ("t # 0\nv 1\n", 2, "expected"),
            ("t # 0\nx 1\n", 2, "unknown record"),
            ("t 0\n", 1, "expected"),
            ("t # 0\nv a C\n", 2, "not an integer"),
        ];
        for (text, line, what) in cases {
            let e = parse_gspan(text, "f").unwrap_err();
            match &e {
                GraphError::Parse {
                    line: l, message, ..
                } => {
                    assert_eq!(*l, line, "{text:?}");
                    assert!(message.contains(what), "{message}");
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    #[test]
    fn round_trip() {
        let text = "t # 0\nv 0 C\nv 1 N\nv 2 C\ne 0 1 a\ne 1 2 b\nt # 1\nv 0 N\n";
        let p = parse_gspan(text, "s").unwrap();
        let again = parse_gspan(&format_gspan(&p).unwrap(), "s").unwrap();
        assert_eq!(again.db, p.db);
        assert_eq!(again.vertex_labels, p.vertex_labels);
        assert_eq!(again, p);
    }

    #[test]
    fn round_trip_keeps_names_kinds_and_merged_spellings() {
        let text =
            "t # 7 a.mol  x\nv 1 1.0\nv 2 1\nv 3 2.5\ne 1 3 -0\ne 3 2 +0\nt # -1 x\nv 0 -3e2\n";
        let p = parse_gspan(text, "s").unwrap();
        assert_eq!(p.graph_names, ["7 a.mol x", "-1 x"]);
        assert_eq!(p.vertex_labels, ["-3e2", "1.0", "2.5"]);
        assert_eq!(p.vertex_label_kind, LabelKind::Float);
        assert_eq!(p.edge_labels, ["+0"]); // "-0" and "+0" are one integer label
        assert_eq!(p.edge_label_kind, LabelKind::Integer);
        let written = format_gspan(&p).unwrap();
        assert_eq!(parse_gspan(&written, "again").unwrap(), p);
    }

    #[test]
    fn format_rejects_what_cannot_be_read_back() {
        let p = parse_gspan("t # 0\nv 0 C\nv 1 O\ne 0 1 1\n", "s").unwrap();
        let fails = |edit: &dyn Fn(&mut LabeledDatabase), needle: &str| {
            let mut bad = p.clone();
            edit(&mut bad);
            match format_gspan(&bad) {
                Err(GraphError::Malformed(m)) => assert!(m.contains(needle), "{m}"),
                other => panic!("want Malformed with {needle}, got {other:?}"),
            }
        };
        fails(
            &|d| d.vertex_labels[1] = String::new(),
            "vertex label 1 (``)",
        );
        fails(&|d| d.vertex_labels[0] = "a b".into(), "no whitespace");
        fails(&|d| d.edge_labels[0] = "x\ny".into(), "edge label 0");
        fails(&|d| d.edge_labels[0] = "\u{a0}".into(), "no whitespace");
        fails(
            &|d| d.vertex_labels = vec!["C".into(), "C".into()],
            "one label",
        );
        fails(
            &|d| d.vertex_labels = vec!["1".into(), "01".into()],
            "labels 0 (`1`) and 1 (`01`)",
        );
        fails(&|d| d.vertex_labels.truncate(1), "label id 1 has no token");
        fails(&|d| d.graph_names.clear(), "0 graph names for 1 graphs");
        for name in ["", "-1", "a  b", " a", "a ", "a\tb", "a\nb"] {
            fails(&|d| d.graph_names[0] = name.into(), "cannot be written");
        }
        // names that can be written
        for name in ["-1 x", "a b c", "#", "-2"] {
            let mut ok = p.clone();
            ok.graph_names[0] = name.into();
            assert_eq!(parse_gspan(&format_gspan(&ok).unwrap(), "s").unwrap(), ok);
        }
    }

    #[test]
    fn hostile_vertex_ids_and_bom() {
        let p = parse_gspan(
            "\u{feff}t # 0\nv 9223372036854775807 C\nv -9223372036854775808 O\ne 9223372036854775807 -9223372036854775808 1\n",
            "s",
        )
        .unwrap();
        assert_eq!(p.db.graph(0).edges, [[0, 1]]);
        let e = parse_gspan("t # 0\nv 9223372036854775808 C\n", "s").unwrap_err();
        assert!(matches!(e, GraphError::Parse { line: 2, .. }), "{e:?}");
    }
}
