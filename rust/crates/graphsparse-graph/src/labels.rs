//! Text labels read from files, mapped to dense integer ids in a canonical order.
//!
//! The rules are documented on [`LabelKind`].

use std::cmp::Ordering;
use std::collections::HashMap;

/// What the tokens of one label set denote.
///
/// This is the one place that decides what a label token means. A set of tokens is of one
/// [`LabelKind`]:
///
/// | kind | when | canonical order | same label |
/// |---|---|---|---|
/// | [`LabelKind::Integer`] | every token is `[+-]?[0-9]+` (any length) | numeric, exact | equal integers (`"1"`, `"01"`, `"+1"`) |
/// | [`LabelKind::Float`] | otherwise, every token parses as a finite `f64` (`"1.5"`, `"2"`, `"-3e2"`) | numeric | equal `f64` values (`"1"`, `"1.0"`, `"-0"`, `"0"`) |
/// | [`LabelKind::Text`] | otherwise | lexicographic (bytes, i.e. code points) | equal strings |
///
/// Several spellings of one number are **one label**. Its token is the shortest spelling seen,
/// the lexicographically smallest among equally short ones, so the result does not depend on the
/// order of the file; in a float set, spellings that are not integers come first (`"1.0"` names
/// the label of `"1.0"` and `"01"`), so the canonical tokens are of the set's kind again and
/// read back the same. Integer and float tokens are those Python's `int` and `float` accept too,
/// so a caller can turn tokens into values by their kind without re-sorting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LabelKind {
    /// Every token is an integer (`[+-]?[0-9]+`, any number of digits). The empty set is
    /// `Integer`.
    #[default]
    Integer,
    /// Every token is a finite floating-point number, and at least one is not an integer.
    Float,
    /// Some token is not a finite number.
    Text,
}

impl LabelKind {
    /// The kind of a set of tokens.
    ///
    /// # Arguments
    /// * `tokens` – the label tokens (repeats allowed).
    ///
    /// # Returns
    /// [`LabelKind::Integer`] when every token is an integer (also for no token),
    /// else [`LabelKind::Float`] when every token is a finite float, else [`LabelKind::Text`].
    ///
    /// # Complexity
    /// O(total token length).
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::LabelKind;
    /// assert_eq!(LabelKind::classify(["10", "-2", "007"]), LabelKind::Integer);
    /// assert_eq!(LabelKind::classify(["1.5", "2", "-3e2"]), LabelKind::Float);
    /// assert_eq!(LabelKind::classify(["1.5", "inf"]), LabelKind::Text);
    /// assert_eq!(LabelKind::classify(["C", "1"]), LabelKind::Text);
    /// ```
    pub fn classify<I, S>(tokens: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut kind = Self::Integer;
        for t in tokens {
            let t = t.as_ref();
            if kind == Self::Integer && int_key(t).is_some() {
                continue;
            }
            if float_value(t).is_some() {
                kind = Self::Float;
            } else {
                return Self::Text;
            }
        }
        kind
    }

    /// A lowercase name: `"integer"`, `"float"` or `"text"`.
    ///
    /// # Returns
    /// The name, for bindings and messages.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// assert_eq!(graphsparse_graph::LabelKind::Float.as_str(), "float");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Integer => "integer",
            Self::Float => "float",
            Self::Text => "text",
        }
    }
}

/// An integer token as (is negative, digits without leading zeros); `None` if not an integer.
/// Zero is never negative, so `"-0"` and `"0"` have the same key.
fn int_key(t: &str) -> Option<(bool, &str)> {
    let (negative, digits) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    Some((negative && !digits.is_empty(), digits))
}

/// Numeric order of two integer keys, exact for any number of digits.
fn cmp_int(a: (bool, &str), b: (bool, &str)) -> Ordering {
    let magnitude = |x: &str, y: &str| x.len().cmp(&y.len()).then_with(|| x.cmp(y));
    match (a.0, b.0) {
        (false, false) => magnitude(a.1, b.1),
        (true, true) => magnitude(b.1, a.1),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// The value of a finite float token; `None` otherwise (including `inf` and `nan`).
fn float_value(t: &str) -> Option<f64> {
    t.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// Interns label tokens as they are read, then renumbers them canonically.
///
/// Ids handed out by [`intern`](Self::intern) are provisional (order of first appearance);
/// [`finish`](Self::finish) classifies the tokens ([`LabelKind`]), merges spellings of one
/// number and returns the canonical ids, so that the ids (and therefore DFS-code order) do not
/// depend on the order of the file.
#[derive(Debug, Default, Clone)]
pub struct LabelInterner {
    ids: HashMap<String, u32>,
    tokens: Vec<String>,
}

/// The result of [`LabelInterner::finish`]: the canonical tokens of one label set and how the
/// provisional ids map onto them.
///
/// # Example
/// See [`LabelInterner::finish`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CanonicalLabels {
    /// One token per label, in canonical order: `tokens[id]` is the token of canonical id `id`.
    pub tokens: Vec<String>,
    /// What the tokens denote.
    pub kind: LabelKind,
    /// For each provisional id, its canonical id.
    pub remap: Vec<u32>,
}

impl LabelInterner {
    /// An empty interner.
    ///
    /// # Returns
    /// An interner holding no token.
    ///
    /// # Complexity
    /// O(1), no allocation.
    ///
    /// # Example
    /// ```
    /// let it = graphsparse_graph::LabelInterner::new();
    /// assert_eq!(it.len(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// The provisional id of `token`, adding it if unseen.
    ///
    /// # Arguments
    /// * `token` – a label as spelled in the file.
    ///
    /// # Returns
    /// The id of `token` in order of first appearance (`0, 1, 2, …`); distinct spellings get
    /// distinct provisional ids even when they denote one number.
    ///
    /// # Complexity
    /// Expected O(`token.len()`) (one hash-map look-up; one copy of a new token).
    ///
    /// # Panics
    /// Only past 2³² distinct tokens, which no machine holds in memory (each costs a hash-map
    /// entry and two copies of the token).
    ///
    /// # Example
    /// ```
    /// let mut it = graphsparse_graph::LabelInterner::new();
    /// assert_eq!((it.intern("C"), it.intern("O"), it.intern("C")), (0, 1, 0));
    /// ```
    pub fn intern(&mut self, token: &str) -> u32 {
        if let Some(&id) = self.ids.get(token) {
            return id;
        }
        let id = u32::try_from(self.tokens.len()).expect("invariant: fewer than 2^32 labels");
        self.ids.insert(token.to_owned(), id);
        self.tokens.push(token.to_owned());
        id
    }

    /// Number of distinct tokens interned so far.
    ///
    /// # Returns
    /// The number of provisional ids handed out.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// let mut it = graphsparse_graph::LabelInterner::new();
    /// it.intern("1");
    /// it.intern("01");
    /// assert_eq!(it.len(), 2); // merged only by `finish`
    /// ```
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True when no token was interned.
    ///
    /// # Returns
    /// `self.len() == 0`.
    ///
    /// # Complexity
    /// O(1).
    ///
    /// # Example
    /// ```
    /// assert!(graphsparse_graph::LabelInterner::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Consumes the interner: classifies the tokens, orders them canonically and merges
    /// spellings of one number (rules in [`LabelKind`]).
    ///
    /// # Returns
    /// The canonical tokens (one per label), their [`LabelKind`] and, for each provisional id,
    /// its canonical id.
    ///
    /// # Complexity
    /// O(k log k) comparisons for k distinct tokens (each O(token length)).
    ///
    /// # Example
    /// ```
    /// use graphsparse_graph::{LabelInterner, LabelKind};
    /// let mut it = LabelInterner::new();
    /// let ids: Vec<u32> = ["10", "2", "-1", "02"].iter().map(|t| it.intern(t)).collect();
    /// let c = it.finish();
    /// assert_eq!(c.kind, LabelKind::Integer);
    /// assert_eq!(c.tokens, ["-1", "2", "10"]); // "2" and "02" are one label
    /// let canonical: Vec<u32> = ids.iter().map(|&i| c.remap[i as usize]).collect();
    /// assert_eq!(canonical, [2, 1, 0, 1]);
    /// ```
    pub fn finish(self) -> CanonicalLabels {
        let kind = LabelKind::classify(&self.tokens);
        let tokens = &self.tokens;
        let mut order: Vec<usize> = (0..tokens.len()).collect();
        // Same label: equal numbers (Integer, Float); distinct strings are distinct labels.
        let same: Box<dyn Fn(usize, usize) -> bool> = match kind {
            LabelKind::Integer => {
                let keys: Vec<(bool, &str)> = tokens
                    .iter()
                    .map(|t| int_key(t).expect("invariant: classified as integers"))
                    .collect();
                order.sort_by(|&a, &b| {
                    cmp_int(keys[a], keys[b]).then_with(|| spelling(tokens, a, b))
                });
                Box::new(move |a, b| keys[a] == keys[b])
            }
            LabelKind::Float => {
                let values: Vec<f64> = tokens
                    .iter()
                    .map(|t| float_value(t).expect("invariant: classified as floats"))
                    .collect();
                order.sort_by(|&a, &b| {
                    values[a]
                        .partial_cmp(&values[b])
                        .expect("invariant: finite values are ordered")
                        .then_with(|| {
                            int_key(&tokens[a])
                                .is_some()
                                .cmp(&int_key(&tokens[b]).is_some())
                        })
                        .then_with(|| spelling(tokens, a, b))
                });
                Box::new(move |a, b| values[a] == values[b])
            }
            LabelKind::Text => {
                order.sort_by(|&a, &b| tokens[a].cmp(&tokens[b]));
                Box::new(|_, _| false)
            }
        };
        let mut remap = vec![0u32; tokens.len()];
        let mut kept: Vec<usize> = Vec::with_capacity(tokens.len());
        for &i in &order {
            if kept.last().is_none_or(|&k| !same(k, i)) {
                kept.push(i);
            }
            remap[i] = u32::try_from(kept.len() - 1).expect("invariant: ids fit in u32");
        }
        drop(same);
        let mut tokens = self.tokens;
        CanonicalLabels {
            tokens: kept
                .iter()
                .map(|&i| std::mem::take(&mut tokens[i]))
                .collect(),
            kind,
            remap,
        }
    }
}

/// Among spellings of one number, the shortest first, then the lexicographically smallest.
fn spelling(tokens: &[String], a: usize, b: usize) -> Ordering {
    tokens[a]
        .len()
        .cmp(&tokens[b].len())
        .then_with(|| tokens[a].cmp(&tokens[b]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(tokens: &[&str]) -> (Vec<String>, LabelKind, Vec<u32>) {
        let mut it = LabelInterner::new();
        let ids: Vec<u32> = tokens.iter().map(|t| it.intern(t)).collect();
        let c = it.finish();
        let canonical = ids.iter().map(|&i| c.remap[i as usize]).collect();
        (c.tokens, c.kind, canonical)
    }

    #[test]
    fn numeric_tokens_sort_numerically() {
        let mut it = LabelInterner::new();
        let ids: Vec<u32> = ["10", "2", "-1", "2"]
            .iter()
            .map(|t| it.intern(t))
            .collect();
        let c = it.finish();
        assert_eq!(c.tokens, ["-1", "2", "10"]);
        let canonical: Vec<u32> = ids.iter().map(|&i| c.remap[i as usize]).collect();
        assert_eq!(canonical, [2, 1, 0, 1]);
    }

    #[test]
    fn text_tokens_sort_lexicographically() {
        let mut it = LabelInterner::new();
        for t in ["N", "C", "10", "O"] {
            it.intern(t);
        }
        assert_eq!(it.finish().tokens, ["10", "C", "N", "O"]);
    }

    #[test]
    fn integers_of_any_length_sort_exactly() {
        // beyond i64 and beyond f64's 53-bit mantissa
        let (tokens, kind, ids) = canon(&[
            "9007199254740993",
            "9007199254740992",
            "-99999999999999999999999",
            "99999999999999999999999",
            "-5",
            "-40",
        ]);
        assert_eq!(kind, LabelKind::Integer);
        assert_eq!(
            tokens,
            [
                "-99999999999999999999999",
                "-40",
                "-5",
                "9007199254740992",
                "9007199254740993",
                "99999999999999999999999"
            ]
        );
        assert_eq!(ids, [4, 3, 0, 5, 2, 1]);
    }

    #[test]
    fn floats_sort_numerically_not_as_text() {
        let (tokens, kind, ids) = canon(&["10", "9.5", "-3e2", "2", "0.25", "1e1"]);
        assert_eq!(kind, LabelKind::Float);
        // "10" and "1e1" are one label, named by the spelling that is not an integer
        assert_eq!(tokens, ["-3e2", "0.25", "2", "9.5", "1e1"]);
        assert_eq!(ids, [4, 3, 0, 2, 1, 4]);
    }

    #[test]
    fn spellings_of_one_number_are_one_label() {
        let (tokens, kind, ids) = canon(&["01", "1", "+1", "-0", "0", "00"]);
        assert_eq!(kind, LabelKind::Integer);
        assert_eq!(tokens, ["0", "1"]);
        assert_eq!(ids, [1, 1, 1, 0, 0, 0]);
        let (tokens, kind, ids) = canon(&["1.0", "1", "1.50", "1.5", "-0.0", "0", "2", "3.5"]);
        assert_eq!(kind, LabelKind::Float);
        // a spelling that is not an integer names each merged label, so the tokens stay floats
        assert_eq!(tokens, ["-0.0", "1.0", "1.5", "2", "3.5"]);
        assert_eq!(ids, [1, 1, 2, 2, 0, 0, 3, 4]);
        assert_eq!(LabelKind::classify(&tokens), LabelKind::Float);
        // independent of the order of appearance
        let (again, _, _) = canon(&["3.5", "2", "0", "-0.0", "1.5", "1.50", "1", "1.0"]);
        assert_eq!(again, tokens);
        assert_eq!(canon(&["1.0", "01"]).0, ["1.0"]);
        // as text, spellings stay distinct
        let (tokens, kind, _) = canon(&["1", "01", "x"]);
        assert_eq!(kind, LabelKind::Text);
        assert_eq!(tokens, ["01", "1", "x"]);
    }

    #[test]
    fn classify_edges() {
        use LabelKind::*;
        let empty: [&str; 0] = [];
        assert_eq!(LabelKind::classify(empty), Integer);
        for (t, k) in [
            ("0", Integer),
            ("-0", Integer),
            ("+7", Integer),
            ("123456789012345678901234567890", Integer),
            ("-", Text),
            ("+", Text),
            ("", Text),
            ("1_000", Text),
            (" 1", Text),
            ("1.", Float),
            (".5", Float),
            ("1E5", Float),
            ("-3e-2", Float),
            ("1e308", Float),
            ("1e309", Text), // overflows to inf
            ("inf", Text),
            ("-infinity", Text),
            ("NaN", Text),
            ("0x10", Text),
            ("١", Text), // not an ASCII digit
        ] {
            assert_eq!(LabelKind::classify([t]), k, "{t:?}");
        }
        assert_eq!(LabelKind::classify(["1", "2.5"]), Float);
        assert_eq!(LabelKind::classify(["2.5", "1"]), Float);
        assert_eq!(LabelKind::classify(["1", "2.5", "a"]), Text);
    }
}
