//! The TU Dortmund graph-kernel benchmark format (`NAME_A.txt` and friends).
//!
//! * `NAME_A.txt` – one edge per line, `u, v`, 1-based global vertex ids; undirected edges are
//!   usually listed in both directions (both copies are merged into one edge).
//! * `NAME_graph_indicator.txt` – line `i` gives the (1-based) graph of vertex `i`.
//! * `NAME_graph_labels.txt` – one class per graph (optional here).
//! * `NAME_node_labels.txt` – one label per vertex (optional; all `0` when absent).
//! * `NAME_edge_labels.txt` – one label per line of `NAME_A.txt` (optional; all `0` when absent).
//!
//! Every file is UTF-8 text (a leading byte-order mark is skipped) with `\n` or `\r\n` line
//! endings. Blank lines are skipped everywhere and do not count as values, but error messages
//! give physical line numbers. Fields are separated by a comma (with optional blanks around it)
//! or by blanks (spaces, tabs); a line may end with one comma. The format is described at
//! <https://chrsmrrs.github.io/datasets/docs/format/> (Morris et al., "TUDataset: a collection
//! of benchmark datasets for learning with graphs", 2020, <https://arxiv.org/abs/2007.08663>).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};

use crate::error::{GraphError, Result};
use crate::labeled::{Builder, LabeledDatabase};
use crate::labels::LabelInterner;
use crate::text::{decode, read_bytes};

/// One file of a TU dataset, held in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TuFile<'a> {
    /// The name error messages give for this file (usually its path).
    pub name: &'a str,
    /// The raw contents: UTF-8 text, optionally starting with a byte-order mark.
    pub bytes: &'a [u8],
}

impl<'a> TuFile<'a> {
    /// A file named `name` (for error messages) holding `bytes`.
    ///
    /// # Arguments
    /// * `name` – the name error messages give (a path, or any label such as `"MUTAG_A.txt"`).
    /// * `bytes` – the raw contents.
    ///
    /// # Returns
    /// The pair, borrowed.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::TuFile;
    /// let f = TuFile::new("X_A.txt", b"1, 2\n");
    /// assert_eq!((f.name, f.bytes.len()), ("X_A.txt", 5));
    /// ```
    pub const fn new(name: &'a str, bytes: &'a [u8]) -> Self {
        Self { name, bytes }
    }
}

/// The files of one TU dataset, held in memory: the input of [`parse_tu`].
///
/// [`read_tu`] fills it from a folder; tests, fuzzers and callers that hold the files already
/// (an archive, a download) build it directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TuFiles<'a> {
    /// `NAME_A.txt`: one edge per line, `u, v`, 1-based global vertex ids.
    pub adjacency: TuFile<'a>,
    /// `NAME_graph_indicator.txt`: line `i` holds the 1-based graph id of vertex `i`.
    pub graph_indicator: TuFile<'a>,
    /// `NAME_node_labels.txt`: one label per vertex; when absent every vertex is labelled `0`.
    pub node_labels: Option<TuFile<'a>>,
    /// `NAME_edge_labels.txt`: one label per line of `NAME_A.txt`; when absent every edge is
    /// labelled `0`.
    pub edge_labels: Option<TuFile<'a>>,
    /// `NAME_graph_labels.txt`: one class per graph.
    pub graph_labels: Option<TuFile<'a>>,
}

/// A decoded TU file: its name and its text.
struct TuText<'a> {
    file: &'a str,
    text: &'a str,
}

impl<'a> TuText<'a> {
    /// Decodes `f` (UTF-8, byte-order mark skipped).
    fn decode(f: TuFile<'a>) -> Result<Self> {
        Ok(Self {
            file: f.name,
            text: decode(f.name, f.bytes)?,
        })
    }

    /// The non-blank lines, trimmed, with their 1-based line numbers.
    fn lines(&self) -> impl Iterator<Item = (usize, &'a str)> + use<'a> {
        self.text
            .lines()
            .enumerate()
            .map(|(k, l)| (k + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
    }

    /// The line just past the last one: where a missing value would have been.
    fn end_line(&self) -> usize {
        self.text.lines().count() + 1
    }

    /// A [`GraphError::Parse`] at `line` of this file.
    fn err(&self, line: usize, message: String) -> GraphError {
        GraphError::Parse {
            file: self.file.to_owned(),
            line,
            message,
        }
    }

    /// The single value of each non-blank line, with its line number.
    fn values(&self) -> Result<Vec<(usize, &'a str)>> {
        let mut fields = Vec::with_capacity(2);
        let mut out = Vec::new();
        for (n, l) in self.lines() {
            split_fields(l, &mut fields).map_err(|m| self.err(n, m))?;
            match fields[..] {
                [v] => out.push((n, v)),
                _ => return Err(self.err(n, format!("expected one value per line, got `{l}`"))),
            }
        }
        Ok(out)
    }

    /// Checks that this labels file holds `want` values; otherwise the error points at the first
    /// extra value, or just past the last line when values are missing.
    fn check_count(&self, values: &[(usize, &str)], want: usize, what: String) -> Result<()> {
        if values.len() == want {
            return Ok(());
        }
        let line = values
            .get(want)
            .map_or_else(|| self.end_line(), |&(n, _)| n);
        Err(self.err(line, format!("{} labels but {what}", values.len())))
    }
}

/// Splits a trimmed, non-blank line into `out`: fields are separated by a comma (blanks around
/// it allowed) or by blanks, and one trailing comma is allowed. An empty field (`1,,2`) is an
/// error.
fn split_fields<'a>(line: &'a str, out: &mut Vec<&'a str>) -> std::result::Result<(), String> {
    out.clear();
    let body = line.strip_suffix(',').unwrap_or(line);
    for piece in body.split(',') {
        let before = out.len();
        out.extend(piece.split_whitespace());
        if out.len() == before {
            return Err(format!("empty field in `{line}`"));
        }
    }
    Ok(())
}

/// Finds the dataset folder and name from a folder or from any of the dataset's files.
///
/// `name` overrides the inferred name. A folder must hold exactly one `*_A.txt`.
fn locate(path: &Path, name: Option<&str>) -> Result<(PathBuf, String)> {
    let folder = if path.is_dir() {
        path.to_path_buf()
    } else if path.is_file() {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        return Err(GraphError::Io {
            path: path.display().to_string(),
            message: "no such file or directory".into(),
        });
    };
    if let Some(n) = name {
        return Ok((folder, n.to_owned()));
    }
    if path.is_file()
        && let Some(stem) = path.file_name().and_then(|f| f.to_str())
        && let Some(n) = [
            "_A.txt",
            "_graph_indicator.txt",
            "_graph_labels.txt",
            "_node_labels.txt",
            "_edge_labels.txt",
        ]
        .iter()
        .find_map(|suffix| stem.strip_suffix(suffix))
    {
        return Ok((folder, n.to_owned()));
    }
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .map_err(|e| GraphError::Io {
            path: folder.display().to_string(),
            message: e.to_string(),
        })?
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .strip_suffix("_A.txt")
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    match names.len() {
        1 => Ok((folder, names.pop().expect("invariant: one name"))),
        0 => Err(GraphError::Inconsistent(format!(
            "no `*_A.txt` file in {}: not a TU dataset folder",
            folder.display()
        ))),
        _ => Err(GraphError::Inconsistent(format!(
            "several TU datasets in {} ({}); pass the name explicitly",
            folder.display(),
            names.join(", ")
        ))),
    }
}

/// Which graph each vertex belongs to (`NAME_graph_indicator.txt`).
struct Indicator {
    /// The 0-based graph of each vertex.
    graph_of: Vec<usize>,
    /// Graph `g` owns the vertices `first_vertex[g]..first_vertex[g + 1]` (`n_graphs + 1`
    /// entries).
    first_vertex: Vec<usize>,
}

impl Indicator {
    fn n_vertices(&self) -> usize {
        self.graph_of.len()
    }

    fn n_graphs(&self) -> usize {
        self.first_vertex.len() - 1
    }
}

/// Reads the graph indicator: one positive graph id per vertex, non-decreasing.
///
/// The number of graphs is the largest id. A gap in the ids is a graph without vertices; the
/// ids may not exceed the number of vertices, or the number of graph labels when
/// `n_graph_labels` is larger, so nothing is ever sized beyond what the files hold.
fn parse_indicator(text: &TuText<'_>, n_graph_labels: Option<usize>) -> Result<Indicator> {
    let values = text.values()?;
    let limit = values.len().max(n_graph_labels.unwrap_or(0));
    let mut graph_of = Vec::with_capacity(values.len());
    let mut last = 0usize;
    for (n, t) in values {
        let id = t
            .parse::<usize>()
            .ok()
            .filter(|&g| g >= 1)
            .ok_or_else(|| text.err(n, format!("graph id `{t}` is not a positive integer")))?;
        if id > limit {
            return Err(text.err(
                n,
                format!(
                    "graph id {t} exceeds {limit}, the number of graphs these files can \
                     describe (one per vertex at most, or one per line of the graph-labels file)"
                ),
            ));
        }
        if id < last {
            return Err(text.err(
                n,
                format!("graph ids must be non-decreasing, got {id} after {last}"),
            ));
        }
        last = id;
        graph_of.push(id - 1);
    }
    let mut first_vertex = vec![0usize; last + 1];
    for &g in &graph_of {
        first_vertex[g + 1] += 1;
    }
    for g in 0..last {
        first_vertex[g + 1] += first_vertex[g];
    }
    Ok(Indicator {
        graph_of,
        first_vertex,
    })
}

/// Reads the vertex labels (one per vertex), or labels every vertex `0` when the file is
/// absent; returns provisional ids from `interner`.
fn parse_node_labels(
    text: Option<&TuText<'_>>,
    indicator: &TuText<'_>,
    n_vertices: usize,
    interner: &mut LabelInterner,
) -> Result<Vec<u32>> {
    let Some(text) = text else {
        if n_vertices == 0 {
            return Ok(Vec::new());
        }
        return Ok(vec![interner.intern("0"); n_vertices]);
    };
    let values = text.values()?;
    text.check_count(
        &values,
        n_vertices,
        format!("{} lists {n_vertices} vertices", indicator.file),
    )?;
    Ok(values.iter().map(|&(_, t)| interner.intern(t)).collect())
}

/// Reads the edge labels: one token per non-blank line of the adjacency file.
fn parse_edge_labels<'a>(
    text: &TuText<'a>,
    adjacency: &TuText<'_>,
) -> Result<Vec<(usize, &'a str)>> {
    let values = text.values()?;
    let n_edges = adjacency.lines().count();
    text.check_count(
        &values,
        n_edges,
        format!("{} lists {n_edges} edges", adjacency.file),
    )?;
    Ok(values)
}

/// The merged edges of all graphs, grouped by graph.
struct Edges {
    /// Local endpoints, graph after graph (file order within a graph).
    pairs: Vec<[u32; 2]>,
    /// Provisional label id of each edge.
    labels: Vec<u32>,
    /// Graph `g` owns the edges `ptr[g]..ptr[g + 1]`.
    ptr: Vec<usize>,
}

/// Reads the adjacency file: each line `u, v` joins two vertices of one graph.
///
/// The two copies `u, v` and `v, u` of an undirected edge are merged (they must carry the same
/// label token); the same copy twice, a self-loop, an edge across graphs or a vertex id outside
/// `1..=n_vertices` is an error at its line.
fn parse_adjacency(
    text: &TuText<'_>,
    ind: &Indicator,
    edge_labels: Option<&[(usize, &str)]>,
    interner: &mut LabelInterner,
) -> Result<Edges> {
    let n_vertices = ind.n_vertices();
    let mut fields = Vec::with_capacity(2);
    // (graph, local endpoints, provisional label) in file order
    let mut edges: Vec<(usize, [u32; 2], u32)> = Vec::new();
    // (lower, higher) global vertex -> (label token, directions seen: 1 = lower first, 2 = not)
    let mut seen: HashMap<(usize, usize), (&str, u8)> = HashMap::new();
    for (k, (n, l)) in text.lines().enumerate() {
        split_fields(l, &mut fields).map_err(|m| text.err(n, m))?;
        let [u, v] = fields[..] else {
            return Err(text.err(n, format!("expected `u, v` (two vertex ids), got `{l}`")));
        };
        let vertex = |s: &str| {
            s.parse::<usize>()
                .ok()
                .filter(|x| (1..=n_vertices).contains(x))
                .map(|x| x - 1)
                .ok_or_else(|| {
                    text.err(
                        n,
                        format!("vertex `{s}` is not in 1..={n_vertices} (the number of vertices)"),
                    )
                })
        };
        let (a, b) = (vertex(u)?, vertex(v)?);
        let g = ind.graph_of[a];
        if ind.graph_of[b] != g {
            return Err(text.err(
                n,
                format!(
                    "edge joins vertices of graphs {} and {}",
                    g + 1,
                    ind.graph_of[b] + 1
                ),
            ));
        }
        if a == b {
            return Err(text.err(n, format!("self-loop on vertex {u}")));
        }
        let label = edge_labels.map_or("0", |el| el[k].1);
        let dir = if a < b { 1u8 } else { 2u8 };
        match seen.entry((a.min(b), a.max(b))) {
            Entry::Occupied(mut e) => {
                let (prev_label, mask) = e.get_mut();
                if *mask & dir != 0 {
                    return Err(text.err(
                        n,
                        format!(
                            "edge {u}, {v} is listed twice in the same direction \
                             (parallel edges are not allowed)"
                        ),
                    ));
                }
                if *prev_label != label {
                    return Err(text.err(
                        n,
                        format!(
                            "edge {u}, {v} has label `{label}` but its reverse copy has \
                             `{prev_label}`"
                        ),
                    ));
                }
                *mask |= dir;
            }
            Entry::Vacant(e) => {
                e.insert((label, dir));
                let first = ind.first_vertex[g];
                let local = |x: usize| {
                    u32::try_from(x - first).map_err(|_| {
                        text.err(n, format!("graph {} has more than 2^32 vertices", g + 1))
                    })
                };
                edges.push((g, [local(a)?, local(b)?], interner.intern(label)));
            }
        }
    }
    edges.sort_by_key(|&(g, _, _)| g); // stable: file order within each graph
    let mut ptr = vec![0usize; ind.n_graphs() + 1];
    for &(g, _, _) in &edges {
        ptr[g + 1] += 1;
    }
    for g in 0..ind.n_graphs() {
        ptr[g + 1] += ptr[g];
    }
    Ok(Edges {
        pairs: edges.iter().map(|&(_, p, _)| p).collect(),
        labels: edges.iter().map(|&(_, _, l)| l).collect(),
        ptr,
    })
}

/// Checks the graph labels (one per graph) and returns their tokens.
fn check_graph_labels(
    text: &TuText<'_>,
    values: &[(usize, &str)],
    indicator: &TuText<'_>,
    n_graphs: usize,
) -> Result<Vec<String>> {
    text.check_count(
        values,
        n_graphs,
        format!("{} describes {n_graphs} graphs", indicator.file),
    )?;
    Ok(values.iter().map(|&(_, t)| t.to_owned()).collect())
}

/// Puts the parts together: vertices from the indicator, edges grouped by graph, graph names
/// `"1"`, `"2"`, … (the TU graph ids), labels renumbered canonically.
fn assemble(
    ind: Indicator,
    node_labels: Vec<u32>,
    edges: Edges,
    vertex_interner: LabelInterner,
    edge_interner: LabelInterner,
    graph_labels: Option<Vec<String>>,
) -> Result<LabeledDatabase> {
    let graph_names = (1..=ind.n_graphs()).map(|g| g.to_string()).collect();
    Builder {
        node_ptr: ind.first_vertex,
        node_labels,
        edge_ptr: edges.ptr,
        edges: edges.pairs,
        edge_labels: edges.labels,
        vertex_interner,
        edge_interner,
        graph_names,
    }
    .finish(graph_labels)
}

/// Parses a TU dataset held in memory.
///
/// The files are checked against each other before anything is sized by a number they hold:
/// graph ids are bounded by the number of indicator lines (or of graph labels), vertex ids by
/// the number of indicator lines, label files must hold one value per vertex, edge line or
/// graph. Edges listed in both directions are merged.
///
/// # Arguments
/// * `files` – the contents of the dataset's files; each file's `name` appears in errors.
///
/// # Returns
/// The graphs (graph `i` is TU graph `i + 1`, named `"i + 1"`), the vertex and edge label tokens
/// in canonical order (see [`LabelInterner`]) and, when present, the graph labels.
///
/// # Errors
/// [`GraphError::Parse`] naming the file and the 1-based line for every format problem:
/// invalid UTF-8 (with the byte offset), a malformed line or empty field, a graph id that is not
/// a positive integer, exceeds what the files describe or decreases, a vertex id outside
/// `1..=n_vertices`, an edge across two graphs, a self-loop, an edge listed twice in the same
/// direction, reverse copies with different labels, and a labels file with the wrong number of
/// values (pointing at the first extra value, or just past the last line).
///
/// # Complexity
/// O(total bytes) time and memory (expected, one hash-map entry per edge).
///
/// # Example
/// ```
/// use graphsparse_graph::{parse_tu, GraphError, TuFile, TuFiles};
/// let files = TuFiles {
///     adjacency: TuFile::new("X_A.txt", b"1, 2\n2, 1\n3, 4\n"),
///     graph_indicator: TuFile::new("X_graph_indicator.txt", b"1\n1\n2\n2\n"),
///     node_labels: Some(TuFile::new("X_node_labels.txt", b"C\nO\nC\nC\n")),
///     edge_labels: None,
///     graph_labels: Some(TuFile::new("X_graph_labels.txt", b"1\n-1\n")),
/// };
/// let data = parse_tu(&files).unwrap();
/// assert_eq!(data.db.len(), 2);
/// assert_eq!(data.db.graph(0).edges, [[0, 1]]);
/// assert_eq!(data.vertex_labels, ["C", "O"]);
///
/// // a hostile graph id is an error at its line, not an allocation
/// let bad = TuFiles { graph_indicator: TuFile::new("X_graph_indicator.txt", b"1\n1\n2\n1000000000000\n"), ..files };
/// assert!(matches!(parse_tu(&bad), Err(GraphError::Parse { line: 4, .. })));
/// ```
pub fn parse_tu(files: &TuFiles<'_>) -> Result<LabeledDatabase> {
    let adjacency = TuText::decode(files.adjacency)?;
    let indicator = TuText::decode(files.graph_indicator)?;
    let node_text = files.node_labels.map(TuText::decode).transpose()?;
    let edge_text = files.edge_labels.map(TuText::decode).transpose()?;
    let graph_text = files.graph_labels.map(TuText::decode).transpose()?;

    let graph_values = graph_text.as_ref().map(TuText::values).transpose()?;
    let ind = parse_indicator(&indicator, graph_values.as_ref().map(Vec::len))?;
    let mut vertex_interner = LabelInterner::new();
    let node_labels = parse_node_labels(
        node_text.as_ref(),
        &indicator,
        ind.n_vertices(),
        &mut vertex_interner,
    )?;
    let edge_values = edge_text
        .as_ref()
        .map(|t| parse_edge_labels(t, &adjacency))
        .transpose()?;
    let mut edge_interner = LabelInterner::new();
    let edges = parse_adjacency(&adjacency, &ind, edge_values.as_deref(), &mut edge_interner)?;
    let graph_labels = match (&graph_text, &graph_values) {
        (Some(text), Some(values)) => Some(check_graph_labels(
            text,
            values,
            &indicator,
            ind.n_graphs(),
        )?),
        _ => None,
    };
    assemble(
        ind,
        node_labels,
        edges,
        vertex_interner,
        edge_interner,
        graph_labels,
    )
}

/// Reads a TU dataset from its folder, or from any of its files.
///
/// Finds the dataset (the folder's single `*_A.txt`, or the name of the file given), reads its
/// files and parses them with [`parse_tu`].
///
/// # Arguments
/// * `path` – the dataset folder, or one of its files (`MUTAG/MUTAG_A.txt`).
/// * `name` – the dataset name (`"MUTAG"`); inferred from `path` when `None`.
///
/// # Returns
/// As [`parse_tu`]; error messages name each file by its path.
///
/// # Errors
/// [`GraphError::Io`] when `path` does not exist or a required file (`NAME_A.txt`,
/// `NAME_graph_indicator.txt`), or an optional file that exists, cannot be read;
/// [`GraphError::Inconsistent`] when a folder holds no or several `*_A.txt`; otherwise as
/// [`parse_tu`].
///
/// # Complexity
/// O(total bytes) time and memory.
///
/// # Example
/// ```
/// let dir = std::env::temp_dir().join(format!("gs-read-tu-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("X_A.txt"), "1, 2\n2, 1\n").unwrap();
/// std::fs::write(dir.join("X_graph_indicator.txt"), "1\n1\n").unwrap();
/// let data = graphsparse_graph::read_tu(&dir, None).unwrap();
/// assert_eq!((data.db.len(), data.db.graph(0).n_edges()), (1, 1));
/// assert_eq!(data.vertex_labels, ["0"]); // no node-labels file: every vertex is `0`
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
///
/// Reference: <https://chrsmrrs.github.io/datasets/docs/format/>.
pub fn read_tu(path: impl AsRef<Path>, name: Option<&str>) -> Result<LabeledDatabase> {
    let (folder, name) = locate(path.as_ref(), name)?;
    let read = |suffix: &str, required: bool| -> Result<Option<(String, Vec<u8>)>> {
        let p = folder.join(format!("{name}_{suffix}.txt"));
        if !required
            && matches!(std::fs::metadata(&p), Err(e) if e.kind() == std::io::ErrorKind::NotFound)
        {
            return Ok(None);
        }
        Ok(Some((p.display().to_string(), read_bytes(&p)?)))
    };
    let adjacency = read("A", true)?.expect("invariant: required files are read");
    let indicator = read("graph_indicator", true)?.expect("invariant: required files are read");
    let node_labels = read("node_labels", false)?;
    let edge_labels = read("edge_labels", false)?;
    let graph_labels = read("graph_labels", false)?;
    fn file(f: &(String, Vec<u8>)) -> TuFile<'_> {
        TuFile::new(&f.0, &f.1)
    }
    parse_tu(&TuFiles {
        adjacency: file(&adjacency),
        graph_indicator: file(&indicator),
        node_labels: node_labels.as_ref().map(file),
        edge_labels: edge_labels.as_ref().map(file),
        graph_labels: graph_labels.as_ref().map(file),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, files: &[(&str, &str)]) {
        std::fs::create_dir_all(dir).unwrap();
        for (suffix, text) in files {
            std::fs::write(dir.join(format!("{name}_{suffix}.txt")), text).unwrap();
        }
    }

    fn tmp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gs-tu-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn reads_two_graphs() {
        let d = tmp("ok");
        write(
            &d,
            "TOY",
            &[
                ("A", "1, 2\n2, 1\n2, 3\n3, 2\n4, 5\n5, 4\n"),
                ("graph_indicator", "1\n1\n1\n2\n2\n"),
                ("graph_labels", "1\n-1\n"),
                ("node_labels", "0\n1\n0\n2\n2\n"),
                ("edge_labels", "0\n0\n1\n1\n0\n0\n"),
            ],
        );
        let p = read_tu(&d, None).unwrap();
        assert_eq!(p.db.len(), 2);
        assert_eq!(p.db.graph(0).edges, [[0, 1], [1, 2]]);
        assert_eq!(p.db.graph(0).edge_labels, [0, 1]);
        assert_eq!(p.db.graph(1).edges, [[0, 1]]);
        assert_eq!(p.graph_labels.unwrap(), ["1", "-1"]);
        let again = read_tu(d.join("TOY_A.txt"), None).unwrap();
        assert_eq!(again.db, p.db);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn mismatches_are_reported() {
        let d = tmp("bad");
        write(
            &d,
            "T",
            &[
                ("A", "1, 2\n2, 3\n"),
                ("graph_indicator", "1\n1\n2\n"),
                ("node_labels", "0\n0\n0\n"),
            ],
        );
        let e = read_tu(&d, None).unwrap_err().to_string();
        assert!(
            e.contains("T_A.txt:2") && e.contains("graphs 1 and 2"),
            "{e}"
        );
        write(&d, "T", &[("A", "1, 2\n"), ("node_labels", "0\n0\n")]);
        let e = read_tu(&d, None).unwrap_err().to_string();
        assert!(
            e.contains("2 labels but") && e.contains("3 vertices"),
            "{e}"
        );
        write(
            &d,
            "T",
            &[
                ("node_labels", "0\n0\n0\n"),
                ("edge_labels", "1\n2\n"),
                ("A", "1, 2\n2, 1\n"),
            ],
        );
        let e = read_tu(&d, None).unwrap_err().to_string();
        assert!(e.contains("reverse copy"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
        assert!(matches!(read_tu(&d, None), Err(GraphError::Io { .. })));
    }

    #[test]
    fn fields_are_split_on_commas_or_blanks() {
        let mut out = Vec::new();
        for (line, want) in [
            ("1, 2", &["1", "2"][..]),
            ("1,2", &["1", "2"]),
            ("1\t2", &["1", "2"]),
            ("1 ,\t2,", &["1", "2"]),
            ("7", &["7"]),
            ("7,", &["7"]),
        ] {
            split_fields(line, &mut out).unwrap();
            assert_eq!(out, want, "{line:?}");
        }
        for line in [",", "1,,2", ",1", "1,2,,", "1, ,2"] {
            assert!(split_fields(line, &mut out).is_err(), "{line:?}");
        }
    }
}
