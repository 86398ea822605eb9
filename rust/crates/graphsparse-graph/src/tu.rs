//! The TU Dortmund graph-kernel benchmark format (`NAME_A.txt` and friends).
//!
//! * `NAME_A.txt` – one edge per line, `u, v`, 1-based global vertex ids; undirected edges are
//!   usually listed in both directions (both copies are merged into one edge).
//! * `NAME_graph_indicator.txt` – line `i` gives the (1-based) graph of vertex `i`.
//! * `NAME_graph_labels.txt` – one class per graph (optional here).
//! * `NAME_node_labels.txt` – one label per vertex (optional; all `0` when absent).
//! * `NAME_edge_labels.txt` – one label per line of `NAME_A.txt` (optional; all `0` when absent).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{GraphError, Result};
use crate::labeled::{Builder, LabeledDatabase};

struct Lines {
    file: String,
    text: String,
}

impl Lines {
    fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| GraphError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Ok(Self {
            file: path.display().to_string(),
            text,
        })
    }

    /// Non-empty lines with their 1-based numbers.
    fn iter(&self) -> impl Iterator<Item = (usize, &str)> + '_ {
        self.text
            .lines()
            .enumerate()
            .map(|(k, l)| (k + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
    }

    fn err(&self, line: usize, message: String) -> GraphError {
        GraphError::Parse {
            file: self.file.clone(),
            line,
            message,
        }
    }

    fn tokens(&self) -> Result<Vec<(usize, String)>> {
        self.iter()
            .map(|(n, l)| {
                let first = l
                    .split([',', ' ', '\t'])
                    .find(|t| !t.is_empty())
                    .unwrap_or(l);
                if first.len() != l.len()
                    && l[first.len()..]
                        .trim_start_matches([',', ' ', '\t'])
                        .is_empty()
                {
                    Ok((n, first.to_owned()))
                } else if first.len() == l.len() {
                    Ok((n, l.to_owned()))
                } else {
                    Err(self.err(n, format!("expected one value per line, got `{l}`")))
                }
            })
            .collect()
    }
}

/// Finds the dataset name and folder from a folder or from any of the dataset's files.
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

/// Reads a TU dataset from its folder (or any of its files). `name` overrides the inferred name.
///
/// # Errors
/// [`GraphError::Io`] for missing required files, [`GraphError::Parse`] with file and line for
/// malformed lines, and [`GraphError::Inconsistent`] when the files disagree (lengths, an edge
/// spanning two graphs, reverse copies of an edge with different labels).
pub fn read_tu(path: impl AsRef<Path>, name: Option<&str>) -> Result<LabeledDatabase> {
    let (folder, name) = locate(path.as_ref(), name)?;
    let file = |suffix: &str| folder.join(format!("{name}_{suffix}.txt"));
    let optional = |suffix: &str| -> Result<Option<Lines>> {
        let p = file(suffix);
        if p.exists() {
            Lines::read(&p).map(Some)
        } else {
            Ok(None)
        }
    };
    let adjacency = Lines::read(&file("A"))?;
    let indicator = Lines::read(&file("graph_indicator"))?;
    let graph_labels = optional("graph_labels")?;
    let node_labels = optional("node_labels")?;
    let edge_labels = optional("edge_labels")?;

    // vertex -> graph
    let mut graph_of: Vec<usize> = Vec::new();
    for (n, l) in indicator.iter() {
        let g: usize =
            l.parse().ok().filter(|&g| g >= 1).ok_or_else(|| {
                indicator.err(n, format!("graph id `{l}` is not a positive integer"))
            })?;
        if graph_of.last().is_some_and(|&prev| g - 1 < prev) {
            return Err(indicator.err(
                n,
                format!(
                    "graph ids must be non-decreasing, got {g} after {}",
                    graph_of.last().unwrap() + 1
                ),
            ));
        }
        graph_of.push(g - 1);
    }
    let n_graphs = graph_of.last().map_or(0, |&g| g + 1);
    let n_vertices = graph_of.len();
    let mut first_vertex = vec![0usize; n_graphs + 1];
    for &g in &graph_of {
        first_vertex[g + 1] += 1;
    }
    for g in 0..n_graphs {
        first_vertex[g + 1] += first_vertex[g];
    }

    let mut b = Builder::new();
    // vertex labels
    match &node_labels {
        Some(lines) => {
            let toks = lines.tokens()?;
            if toks.len() != n_vertices {
                return Err(GraphError::Inconsistent(format!(
                    "{} has {} labels but {} lists {n_vertices} vertices",
                    lines.file,
                    toks.len(),
                    indicator.file
                )));
            }
            for (_, t) in &toks {
                let id = b.vertex_interner.intern(t);
                b.node_labels.push(id);
            }
        }
        None => {
            let id = b.vertex_interner.intern("0");
            b.node_labels.resize(n_vertices, id);
        }
    }
    // edges
    let elabels = match &edge_labels {
        Some(lines) => Some(lines.tokens()?),
        None => None,
    };
    let a_lines: Vec<(usize, &str)> = adjacency.iter().collect();
    if let Some(el) = &elabels
        && el.len() != a_lines.len()
    {
        return Err(GraphError::Inconsistent(format!(
            "{} has {} labels but {} lists {} edges",
            edge_labels
                .as_ref()
                .map(|l| l.file.as_str())
                .unwrap_or_default(),
            el.len(),
            adjacency.file,
            a_lines.len()
        )));
    }
    let mut per_graph: Vec<Vec<([u32; 2], u32)>> = vec![Vec::new(); n_graphs];
    // (graph, lo, hi) -> (index in per_graph[g], label token, direction mask)
    let mut seen: HashMap<(usize, u32, u32), (String, u8)> = HashMap::new();
    for (k, &(n, l)) in a_lines.iter().enumerate() {
        let parts: Vec<&str> = l
            .split([',', ' ', '\t'])
            .filter(|t| !t.is_empty())
            .collect();
        let [u, v] = parts[..] else {
            return Err(adjacency.err(n, format!("expected `u, v`, got `{l}`")));
        };
        let mut ends = [0usize; 2];
        for (slot, s) in ends.iter_mut().zip([u, v]) {
            let x: usize = s
                .parse()
                .ok()
                .filter(|&x| x >= 1 && x <= n_vertices)
                .ok_or_else(|| {
                    adjacency.err(n, format!("vertex `{s}` is not in 1..={n_vertices}"))
                })?;
            *slot = x - 1;
        }
        let g = graph_of[ends[0]];
        if graph_of[ends[1]] != g {
            return Err(adjacency.err(
                n,
                format!(
                    "edge joins vertices of graphs {} and {}",
                    g + 1,
                    graph_of[ends[1]] + 1
                ),
            ));
        }
        if ends[0] == ends[1] {
            return Err(adjacency.err(n, format!("self-loop on vertex {}", ends[0] + 1)));
        }
        let local = [
            (ends[0] - first_vertex[g]) as u32,
            (ends[1] - first_vertex[g]) as u32,
        ];
        let label = elabels.as_ref().map_or("0", |el| el[k].1.as_str());
        let key = (g, local[0].min(local[1]), local[0].max(local[1]));
        let dir = if local[0] < local[1] { 1u8 } else { 2u8 };
        match seen.get_mut(&key) {
            Some((prev_label, mask)) => {
                if *mask & dir != 0 {
                    return Err(
                        adjacency.err(n, format!("parallel edge between vertices {u} and {v}"))
                    );
                }
                if prev_label != label {
                    return Err(adjacency.err(
                        n,
                        format!(
                            "edge {u}-{v} has label `{label}` but its reverse copy has `{prev_label}`"
                        ),
                    ));
                }
                *mask |= dir;
            }
            None => {
                seen.insert(key, (label.to_owned(), dir));
                let id = b.edge_interner.intern(label);
                per_graph[g].push((local, id));
            }
        }
    }
    for (g, edges) in per_graph.into_iter().enumerate() {
        for (pair, id) in edges {
            b.edges.push(pair);
            b.edge_labels.push(id);
        }
        b.node_labels.len(); // vertices are already in graph order
        b.node_ptr.push(first_vertex[g + 1]);
        b.edge_ptr.push(b.edges.len());
        b.graph_names.push(format!("{}", g + 1));
    }
    let classes = match &graph_labels {
        Some(lines) => {
            let toks = lines.tokens()?;
            if toks.len() != n_graphs {
                return Err(GraphError::Inconsistent(format!(
                    "{} has {} labels but {} describes {n_graphs} graphs",
                    lines.file,
                    toks.len(),
                    indicator.file
                )));
            }
            Some(toks.into_iter().map(|(_, t)| t).collect())
        }
        None => None,
    };
    b.finish(classes)
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
}
