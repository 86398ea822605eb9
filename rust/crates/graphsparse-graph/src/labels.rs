//! Text labels read from files, mapped to dense integer ids in a canonical order.

use std::collections::HashMap;

/// Interns label tokens as they are read, then renumbers them canonically.
///
/// The canonical order is numeric when every token parses as an integer, lexicographic otherwise,
/// so that the ids (and therefore DFS-code order) do not depend on the order of the file.
#[derive(Debug, Default, Clone)]
pub struct LabelInterner {
    ids: HashMap<String, u32>,
    tokens: Vec<String>,
}

impl LabelInterner {
    /// An empty interner.
    pub fn new() -> Self {
        Self::default()
    }

    /// The provisional id of `token`, adding it if unseen.
    pub fn intern(&mut self, token: &str) -> u32 {
        if let Some(&id) = self.ids.get(token) {
            return id;
        }
        let id = u32::try_from(self.tokens.len()).expect("invariant: fewer than 2^32 labels");
        self.ids.insert(token.to_owned(), id);
        self.tokens.push(token.to_owned());
        id
    }

    /// Consumes the interner: returns the tokens in canonical order and, for each provisional id,
    /// its canonical id.
    pub fn finish(self) -> (Vec<String>, Vec<u32>) {
        let mut order: Vec<u32> = (0..self.tokens.len() as u32).collect();
        let numeric: Option<Vec<i64>> = self.tokens.iter().map(|t| t.parse::<i64>().ok()).collect();
        match numeric {
            Some(values) => order.sort_by_key(|&i| values[i as usize]),
            None => order.sort_by(|&a, &b| self.tokens[a as usize].cmp(&self.tokens[b as usize])),
        }
        let mut remap = vec![0u32; order.len()];
        for (canonical, &provisional) in order.iter().enumerate() {
            remap[provisional as usize] = canonical as u32;
        }
        let mut tokens = self.tokens;
        let sorted = order
            .iter()
            .map(|&i| std::mem::take(&mut tokens[i as usize]))
            .collect();
        (sorted, remap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_tokens_sort_numerically() {
        let mut it = LabelInterner::new();
        let ids: Vec<u32> = ["10", "2", "-1", "2"]
            .iter()
            .map(|t| it.intern(t))
            .collect();
        let (tokens, remap) = it.finish();
        assert_eq!(tokens, ["-1", "2", "10"]);
        let canonical: Vec<u32> = ids.iter().map(|&i| remap[i as usize]).collect();
        assert_eq!(canonical, [2, 1, 0, 1]);
    }

    #[test]
    fn text_tokens_sort_lexicographically() {
        let mut it = LabelInterner::new();
        for t in ["N", "C", "10", "O"] {
            it.intern(t);
        }
        assert_eq!(it.finish().0, ["10", "C", "N", "O"]);
    }
}
