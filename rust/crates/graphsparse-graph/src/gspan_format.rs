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
use crate::text::{decode, read_bytes};

/// Parses gSpan text. `source` names the input in error messages.
///
/// # Errors
/// [`GraphError::Parse`] with the 1-based line number for malformed lines, unknown or duplicate
/// vertex ids, self-loops, parallel edges, and records outside a graph.
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
/// # Errors
/// [`GraphError::Io`] if the file cannot be read, otherwise as [`parse_gspan`].
pub fn read_gspan(path: impl AsRef<Path>) -> Result<LabeledDatabase> {
    let path = path.as_ref();
    let bytes = read_bytes(path)?;
    let name = path.display().to_string();
    parse_gspan(decode(&name, &bytes)?, &name)
}

/// Writes a database as gSpan text (graph ids `0..n`, vertex ids `0..n_vertices`), with
/// `vertex_labels[id]` / `edge_labels[id]` as the label tokens.
///
/// # Errors
/// [`GraphError::Malformed`] if a label id has no token or a token contains whitespace.
pub fn format_gspan(data: &LabeledDatabase) -> Result<String> {
    for t in data.vertex_labels.iter().chain(&data.edge_labels) {
        if t.is_empty() || t.contains(char::is_whitespace) {
            return Err(GraphError::Malformed(format!(
                "label `{t}` cannot be written in gSpan format (empty or contains whitespace)"
            )));
        }
    }
    let token = |tokens: &[String], id: u32| -> Result<String> {
        tokens
            .get(id as usize)
            .cloned()
            .ok_or_else(|| GraphError::Malformed(format!("label id {id} has no token")))
    };
    let mut out = String::new();
    for (g, graph) in data.db.iter().enumerate() {
        let _ = writeln!(out, "t # {g}");
        for (v, &l) in graph.node_labels.iter().enumerate() {
            let _ = writeln!(out, "v {v} {}", token(&data.vertex_labels, l)?);
        }
        for (&[u, v], &l) in graph.edges.iter().zip(graph.edge_labels) {
            let _ = writeln!(out, "e {u} {v} {}", token(&data.edge_labels, l)?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
