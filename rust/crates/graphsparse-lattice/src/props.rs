//! Propositionalisation: tabular columns to basic propositions and a bit-packed 0/1 matrix.
//!
//! Numeric columns give threshold propositions `[x ≤ τ]` and `[x > τ]` at a few cut points;
//! categorical columns give `[x = v]` (and `[x ≠ v]` when a column has three or more values).
//! This is rule P1 of the spec (`ghkl-rule-ensembles.md` §7.1), which reproduces the number
//! of propositions `p` the paper reports for 19 of its 22 UCI data sets.
//!
//! Missing values (NaN in a numeric column, [`MISSING_CATEGORY`] in a categorical one) satisfy
//! no proposition: neither `x ≤ τ` nor `x > τ`, neither `x = v` nor `x ≠ v`.

use crate::bits;
use graphsparse_base::{Check, check_len, check_range};

use crate::error::{LatticeError, Result, bad_input, bad_param};

/// Category code of a missing categorical value.
pub const MISSING_CATEGORY: u32 = u32::MAX;

/// One input column (all columns of a table have the same length).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Column<'a> {
    /// Numeric values; `NaN` is missing, `±inf` is an error.
    Numeric(&'a [f64]),
    /// Category codes in `0..n_categories`, or [`MISSING_CATEGORY`].
    ///
    /// When fitting, a code `≥ n_categories` is an error; when transforming new data it is an
    /// unseen category and, like a missing value, satisfies no proposition.
    Categorical {
        /// The codes, one per row.
        codes: &'a [u32],
        /// Size of the code space.
        n_categories: u32,
    },
}

impl Column<'_> {
    fn len(&self) -> usize {
        match self {
            Column::Numeric(v) => v.len(),
            Column::Categorical { codes, .. } => codes.len(),
        }
    }
}

/// How the cut points of a numeric column are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CutRule {
    /// Rule P1: linearly interpolated quantiles `k/(n+1)`, `k = 1..n`, of the column's
    /// **distinct** values (NumPy `np.quantile(np.unique(x), ...)`). The default.
    #[default]
    DistinctQuantiles,
    /// Linearly interpolated quantiles `k/(n+1)` of all values (with repeats).
    Quantiles,
    /// `n` equally spaced points strictly between the minimum and the maximum.
    EqualWidth,
}

/// The kind of a fitted feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeatureKind {
    /// A numeric column.
    Numeric,
    /// A categorical column with codes in `0..n_categories`.
    Categorical {
        /// Size of the code space.
        n_categories: u32,
    },
}

/// The test one proposition makes on its feature.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Condition {
    /// `x ≤ τ` (numeric).
    LessEq(f64),
    /// `x > τ` (numeric).
    Greater(f64),
    /// `x = v` (categorical code).
    Equal(u32),
    /// `x ≠ v` (categorical code; false when `x` is missing or unseen).
    NotEqual(u32),
}

/// A basic proposition: a condition on one feature.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proposition {
    /// Index of the feature (column).
    pub feature: usize,
    /// The test.
    pub condition: Condition,
}

impl Proposition {
    /// Whether a numeric value satisfies the proposition (`NaN`: never).
    ///
    /// # Example
    /// ```
    /// use graphsparse_lattice::{Condition, Proposition};
    /// let p = Proposition { feature: 0, condition: Condition::LessEq(0.8) };
    /// assert!(p.holds_numeric(0.5) && !p.holds_numeric(f64::NAN) && !p.holds_numeric(0.9));
    /// ```
    pub fn holds_numeric(&self, x: f64) -> bool {
        match self.condition {
            Condition::LessEq(t) => x <= t,
            Condition::Greater(t) => x > t,
            _ => false,
        }
    }

    /// Whether a category code satisfies the proposition (codes `≥ n_categories` and
    /// [`MISSING_CATEGORY`]: never).
    pub fn holds_code(&self, code: u32, n_categories: u32) -> bool {
        if code >= n_categories {
            return false;
        }
        match self.condition {
            Condition::Equal(v) => code == v,
            Condition::NotEqual(v) => code != v,
            _ => false,
        }
    }
}

/// Unchecked propositionalisation parameters (a builder); [`Check::check`] validates them.
///
/// Defaults: rule P1 ([`CutRule::DistinctQuantiles`]) with 4 cut points per numeric column,
/// `≠` propositions for categorical columns with at least three values.
#[derive(Debug, Clone, PartialEq)]
pub struct PropositionParams {
    n_cuts: usize,
    cut_rule: CutRule,
    not_equal: bool,
    cut_points: Vec<Option<Vec<f64>>>,
}

/// Validated propositionalisation parameters, from [`Check::check`] on [`PropositionParams`].
#[derive(Debug, Clone, PartialEq)]
pub struct PropositionValidParams(PropositionParams);

impl Default for PropositionParams {
    fn default() -> Self {
        Self::new()
    }
}

/// Most cut points per numeric column.
pub const MAX_CUTS: usize = 1 << 16;

impl PropositionParams {
    /// The defaults (rule P1, 4 cut points).
    pub const fn new() -> Self {
        Self {
            n_cuts: 4,
            cut_rule: CutRule::DistinctQuantiles,
            not_equal: true,
            cut_points: Vec::new(),
        }
    }
    graphsparse_base::setters! {
        /// Cut points per numeric column before constant and repeated splits are dropped
        /// (`1..=65536`; default 4, which gives the paper's "8 basic propositions" per column).
        n_cuts: usize => n_cuts,
        /// How cut points are placed.
        cut_rule: CutRule => cut_rule,
        /// Whether categorical columns with ≥ 3 values also give `x ≠ v` propositions.
        not_equal: bool => not_equal,
    }
    /// Explicit cut points, one entry per column (`None`: use the rule; ignored for
    /// categorical columns; an empty list means no cut). Empty vector: the rule everywhere.
    pub fn cut_points(mut self, cuts: Vec<Option<Vec<f64>>>) -> Self {
        self.cut_points = cuts;
        self
    }
}

impl Check for PropositionParams {
    type Checked = PropositionValidParams;
    type Error = LatticeError;

    /// Validates the parameters.
    ///
    /// # Errors
    /// [`LatticeError::Input`] when `n_cuts` is 0 or above [`MAX_CUTS`];
    /// [`LatticeError::InvalidParameter`] when an explicit cut point is not finite.
    fn check(self) -> Result<PropositionValidParams> {
        // the range in words is a literal: keep it equal to MAX_CUTS
        const _: () = assert!(MAX_CUTS == 65_536);
        check_range("n_cuts", self.n_cuts as f64, "in 1..=65536", |v| {
            (1.0..=MAX_CUTS as f64).contains(&v)
        })?;
        for (j, c) in self.cut_points.iter().enumerate() {
            if let Some(c) = c {
                if c.len() > MAX_CUTS {
                    return Err(bad_param(
                        "cut_points",
                        format!("column {j} has {} cut points (most {MAX_CUTS})", c.len()),
                    ));
                }
                if let Some(t) = c.iter().find(|t| !t.is_finite()) {
                    return Err(bad_param(
                        "cut_points",
                        format!("column {j} has a non-finite cut point {t}"),
                    ));
                }
            }
        }
        Ok(PropositionValidParams(self))
    }
}

/// NumPy's linearly interpolated quantile of a sorted, non-empty slice (`method="linear"`).
pub(crate) fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    let h = q * (n - 1) as f64;
    let lo = (h.floor() as usize).min(n - 1);
    let hi = (lo + 1).min(n - 1);
    let t = h - lo as f64;
    let (a, b) = (sorted[lo], sorted[hi]);
    let diff = b - a;
    // numpy's _lerp: the form that is exact at the nearer end point
    if t >= 0.5 {
        b - diff * (1.0 - t)
    } else {
        a + diff * t
    }
}

/// The fitted basic propositions of a table: what each column gives, in column order.
///
/// # Example
/// ```
/// use graphsparse_lattice::{Check, Column, PropositionParams, PropositionSet};
/// let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let colour = [0u32, 1, 2, 0, 1, 2];
/// let cols = [Column::Numeric(&x), Column::Categorical { codes: &colour, n_categories: 3 }];
/// let set = PropositionSet::fit(&PropositionParams::new().check()?, &cols)?;
/// // 4 cuts × {≤, >} for x, {=, ≠} × 3 values for colour
/// assert_eq!(set.len(), 8 + 6);
/// let matrix = set.transform(&cols)?;
/// assert_eq!((matrix.n_examples(), matrix.n_props()), (6, 14));
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PropositionSet {
    kinds: Vec<FeatureKind>,
    props: Vec<Proposition>,
}

fn validate_columns(columns: &[Column], fitting: bool) -> Result<usize> {
    let Some(first) = columns.first() else {
        return Err(bad_input("X", "has no columns"));
    };
    let m = first.len();
    for (j, c) in columns.iter().enumerate() {
        if c.len() != m {
            return Err(bad_input(
                "X",
                format!("column {j} has {} rows, column 0 has {m}", c.len()),
            ));
        }
        match *c {
            Column::Numeric(v) => {
                if let Some(i) = v.iter().position(|x| x.is_infinite()) {
                    return Err(bad_input(
                        "X",
                        format!("column {j}, row {i}: infinite value {}", v[i]),
                    ));
                }
            }
            Column::Categorical {
                codes,
                n_categories,
            } => {
                if fitting {
                    if let Some(i) = codes
                        .iter()
                        .position(|&k| k >= n_categories && k != MISSING_CATEGORY)
                    {
                        return Err(bad_input(
                            "X",
                            format!(
                                "column {j}, row {i}: category code {} is not below n_categories = {n_categories}",
                                codes[i]
                            ),
                        ));
                    }
                }
            }
        }
    }
    Ok(m)
}

impl PropositionSet {
    /// Fits the propositions of a table (one [`Column`] per feature).
    ///
    /// Numeric column: cut points by the parameters' rule (or the explicit ones); a cut whose
    /// split of the column's non-missing values is constant or equals the split of an earlier
    /// cut of the same column is dropped; each remaining cut `τ` (ascending) gives `[x ≤ τ]`
    /// then `[x > τ]`. Categorical column with `k` distinct present values: `k ≥ 3` gives
    /// `[x = v]`, `[x ≠ v]` for each value (code order), `k = 2` gives `[x = v₁]`, `[x = v₂]`,
    /// `k ≤ 1` gives nothing. Propositions are never deduplicated across columns.
    ///
    /// # Arguments
    /// * `params` — validated parameters.
    /// * `columns` — the table, one entry per feature, all of the same length `m ≥ 1`.
    ///
    /// # Returns
    /// The propositions (possibly none, when every column is constant).
    ///
    /// # Errors
    /// [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) for no columns, no
    /// rows, columns of different lengths, an infinite numeric value or a category code out
    /// of range; [`LatticeError::Input`](crate::LatticeError::Input) when
    /// explicit cut points are given for a different number of columns.
    ///
    /// # Complexity
    /// O(m log m) per numeric column, O(m + n_categories) per categorical one.
    pub fn fit(params: &PropositionValidParams, columns: &[Column]) -> Result<Self> {
        let p = &params.0;
        let m = validate_columns(columns, true)?;
        if m == 0 {
            return Err(bad_input("X", "has no rows"));
        }
        if !p.cut_points.is_empty() {
            check_len("cut_points", p.cut_points.len(), columns.len())?;
        }
        let mut kinds = Vec::with_capacity(columns.len());
        let mut props = Vec::new();
        for (j, c) in columns.iter().enumerate() {
            match *c {
                Column::Numeric(v) => {
                    kinds.push(FeatureKind::Numeric);
                    let explicit = p.cut_points.get(j).and_then(|c| c.as_deref());
                    for t in numeric_cuts(v, p, explicit) {
                        props.push(Proposition {
                            feature: j,
                            condition: Condition::LessEq(t),
                        });
                        props.push(Proposition {
                            feature: j,
                            condition: Condition::Greater(t),
                        });
                    }
                }
                Column::Categorical {
                    codes,
                    n_categories,
                } => {
                    kinds.push(FeatureKind::Categorical { n_categories });
                    // the distinct codes present (never sized by n_categories, which may be huge)
                    let mut values: Vec<u32> = codes
                        .iter()
                        .copied()
                        .filter(|&k| k < n_categories)
                        .collect();
                    values.sort_unstable();
                    values.dedup();
                    if values.len() >= 3 {
                        for &v in &values {
                            props.push(Proposition {
                                feature: j,
                                condition: Condition::Equal(v),
                            });
                            if p.not_equal {
                                props.push(Proposition {
                                    feature: j,
                                    condition: Condition::NotEqual(v),
                                });
                            }
                        }
                    } else if values.len() == 2 {
                        for &v in &values {
                            props.push(Proposition {
                                feature: j,
                                condition: Condition::Equal(v),
                            });
                        }
                    }
                }
            }
        }
        Ok(Self { kinds, props })
    }

    /// Builds a set from explicit propositions (for rules read back from elsewhere).
    ///
    /// # Errors
    /// [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) when a proposition
    /// names a feature that does not exist, a numeric condition sits on a categorical feature
    /// or the reverse, a threshold is not finite or a code is out of range.
    pub fn from_parts(kinds: Vec<FeatureKind>, props: Vec<Proposition>) -> Result<Self> {
        for (i, pr) in props.iter().enumerate() {
            let Some(kind) = kinds.get(pr.feature) else {
                return Err(bad_input(
                    "props",
                    format!(
                        "proposition {i} names feature {} of {}",
                        pr.feature,
                        kinds.len()
                    ),
                ));
            };
            let ok = match (kind, pr.condition) {
                (FeatureKind::Numeric, Condition::LessEq(t) | Condition::Greater(t)) => {
                    t.is_finite()
                }
                (
                    FeatureKind::Categorical { n_categories },
                    Condition::Equal(v) | Condition::NotEqual(v),
                ) => v < *n_categories,
                _ => false,
            };
            if !ok {
                return Err(bad_input(
                    "props",
                    format!(
                        "proposition {i} ({:?}) does not fit its feature",
                        pr.condition
                    ),
                ));
            }
        }
        Ok(Self { kinds, props })
    }

    /// The propositions, in index order.
    pub fn propositions(&self) -> &[Proposition] {
        &self.props
    }

    /// The kind of each fitted feature.
    pub fn feature_kinds(&self) -> &[FeatureKind] {
        &self.kinds
    }

    /// Number of propositions `p`.
    pub fn len(&self) -> usize {
        self.props.len()
    }

    /// True when there is no proposition.
    pub fn is_empty(&self) -> bool {
        self.props.is_empty()
    }

    /// Evaluates every proposition on a table with the fitted columns.
    ///
    /// # Arguments
    /// * `columns` — the same number and kinds of columns as when fitting; categorical codes
    ///   `≥ n_categories` are unseen categories and, like missing values, satisfy nothing.
    ///
    /// # Returns
    /// The `m × p` bit matrix.
    ///
    /// # Errors
    /// [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) for columns of
    /// different lengths, a column of the wrong kind or an infinite value;
    /// [`LatticeError::Input`](crate::LatticeError::Input) for a different
    /// number of columns; [`LatticeError::TooLarge`](crate::LatticeError::TooLarge) when the
    /// matrix cannot be allocated.
    ///
    /// # Complexity
    /// O(m · p) time, O(m · p / 32) bits of memory.
    pub fn transform(&self, columns: &[Column]) -> Result<PropositionMatrix> {
        check_len("X columns", columns.len(), self.kinds.len())?;
        let m = validate_columns(columns, false)?;
        for (j, (c, k)) in columns.iter().zip(&self.kinds).enumerate() {
            let same = matches!(
                (c, k),
                (Column::Numeric(_), FeatureKind::Numeric)
                    | (Column::Categorical { .. }, FeatureKind::Categorical { .. })
            );
            if !same {
                return Err(bad_input(
                    "X",
                    format!("column {j} is not of the kind it was fitted with ({k:?})"),
                ));
            }
        }
        let mut out = PropositionMatrix::zeros(m, self.props.len())?;
        for (q, pr) in self.props.iter().enumerate() {
            let bits = out.prop_bits_mut(q);
            match columns[pr.feature] {
                Column::Numeric(v) => {
                    for (i, &x) in v.iter().enumerate() {
                        if pr.holds_numeric(x) {
                            bits::set(bits, i);
                        }
                    }
                }
                Column::Categorical { codes, .. } => {
                    let FeatureKind::Categorical { n_categories } = self.kinds[pr.feature] else {
                        unreachable!("invariant: kinds checked above")
                    };
                    for (i, &k) in codes.iter().enumerate() {
                        if pr.holds_code(k, n_categories) {
                            bits::set(bits, i);
                        }
                    }
                }
            }
        }
        out.rebuild_rows();
        Ok(out)
    }
}

fn numeric_cuts(v: &[f64], p: &PropositionParams, explicit: Option<&[f64]>) -> Vec<f64> {
    let mut vals: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
    if vals.is_empty() {
        return Vec::new();
    }
    vals.sort_by(f64::total_cmp);
    let n = p.n_cuts;
    let mut cands: Vec<f64> = match explicit {
        Some(c) => c.to_vec(),
        None => match p.cut_rule {
            CutRule::DistinctQuantiles => {
                let mut u = vals.clone();
                u.dedup();
                (1..=n)
                    .map(|k| quantile_sorted(&u, k as f64 / (n + 1) as f64))
                    .collect()
            }
            CutRule::Quantiles => (1..=n)
                .map(|k| quantile_sorted(&vals, k as f64 / (n + 1) as f64))
                .collect(),
            CutRule::EqualWidth => {
                let (lo, hi) = (vals[0], vals[vals.len() - 1]);
                (1..=n)
                    .map(|k| lo + (hi - lo) * (k as f64 / (n + 1) as f64))
                    .collect()
            }
        },
    };
    cands.sort_by(f64::total_cmp);
    let mut kept = Vec::with_capacity(cands.len());
    let mut last = usize::MAX;
    for t in cands {
        if !t.is_finite() {
            continue;
        }
        let below = vals.partition_point(|&x| x <= t);
        if below == 0 || below == vals.len() || below == last {
            continue;
        }
        last = below;
        kept.push(t);
    }
    kept
}

/// An `m × p` 0/1 matrix (examples × propositions), bit-packed both ways: per proposition
/// (its cover, a bit set over examples) and per example (the propositions it satisfies).
///
/// # Example
/// ```
/// use graphsparse_lattice::PropositionMatrix;
/// let x = PropositionMatrix::from_dense(3, 2, &[true, false, true, true, false, false])?;
/// assert_eq!((x.get(1, 1), x.get(2, 0), x.get(3, 0)), (Some(true), Some(false), None));
/// assert_eq!(x.support(0), Some(2));
/// # Ok::<(), graphsparse_lattice::LatticeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropositionMatrix {
    m: usize,
    p: usize,
    wm: usize,
    wp: usize,
    by_prop: Vec<u64>,
    by_example: Vec<u64>,
}

fn alloc_words(name: &'static str, a: usize, b: usize) -> Result<Vec<u64>> {
    let too_large = || crate::LatticeError::TooLarge {
        name,
        value: a as u128 * b as u128,
        reason: "bit matrix words",
    };
    let n = a.checked_mul(b).ok_or_else(too_large)?;
    if n > (isize::MAX as usize) / 8 {
        return Err(too_large());
    }
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| too_large())?;
    v.resize(n, 0);
    Ok(v)
}

impl PropositionMatrix {
    /// An all-false `m × p` matrix.
    ///
    /// # Errors
    /// [`LatticeError::TooLarge`](crate::LatticeError::TooLarge) when it cannot be allocated.
    pub fn zeros(m: usize, p: usize) -> Result<Self> {
        let (wm, wp) = (bits::words(m), bits::words(p));
        Ok(Self {
            m,
            p,
            wm,
            wp,
            by_prop: alloc_words("propositions x examples", p, wm)?,
            by_example: alloc_words("examples x propositions", m, wp)?,
        })
    }

    /// From a row-major `m × p` boolean matrix.
    ///
    /// # Errors
    /// [`LatticeError::Input`](crate::LatticeError::Input) when
    /// `values.len() != m · p`; [`LatticeError::TooLarge`](crate::LatticeError::TooLarge).
    pub fn from_dense(m: usize, p: usize, values: &[bool]) -> Result<Self> {
        let expected = m.checked_mul(p).ok_or(crate::LatticeError::TooLarge {
            name: "m * p",
            value: m as u128 * p as u128,
            reason: "overflows usize",
        })?;
        check_len("values", values.len(), expected)?;
        let mut out = Self::zeros(m, p)?;
        for i in 0..m {
            for j in 0..p {
                if values[i * p + j] {
                    bits::set(out.prop_bits_mut(j), i);
                }
            }
        }
        out.rebuild_rows();
        Ok(out)
    }

    /// From the cover of each proposition (sorted or not; example indices `< m`).
    ///
    /// # Errors
    /// [`LatticeError::InvalidInput`](crate::LatticeError::InvalidInput) for an index
    /// `≥ m`; [`LatticeError::TooLarge`](crate::LatticeError::TooLarge).
    pub fn from_covers(m: usize, covers: &[Vec<u32>]) -> Result<Self> {
        let mut out = Self::zeros(m, covers.len())?;
        for (j, c) in covers.iter().enumerate() {
            for &i in c {
                if i as usize >= m {
                    return Err(bad_input(
                        "covers",
                        format!("proposition {j} covers example {i}, but m = {m}"),
                    ));
                }
                bits::set(out.prop_bits_mut(j), i as usize);
            }
        }
        out.rebuild_rows();
        Ok(out)
    }

    fn prop_bits_mut(&mut self, j: usize) -> &mut [u64] {
        &mut self.by_prop[j * self.wm..(j + 1) * self.wm]
    }

    fn rebuild_rows(&mut self) {
        self.by_example.iter_mut().for_each(|w| *w = 0);
        for j in 0..self.p {
            let col = &self.by_prop[j * self.wm..(j + 1) * self.wm];
            let mut ones = Vec::new();
            bits::push_ones(col, &mut ones);
            for i in ones {
                bits::set(
                    &mut self.by_example[i as usize * self.wp..(i as usize + 1) * self.wp],
                    j,
                );
            }
        }
    }

    /// Number of examples `m`.
    pub fn n_examples(&self) -> usize {
        self.m
    }

    /// Number of propositions `p`.
    pub fn n_props(&self) -> usize {
        self.p
    }

    /// Whether example `i` satisfies proposition `j`; `None` when either index is out of
    /// range.
    pub fn get(&self, i: usize, j: usize) -> Option<bool> {
        (i < self.m && j < self.p).then(|| bits::get(self.prop_bits(j), i))
    }

    /// Number of examples satisfying proposition `j`; `None` when `j ≥ p`.
    pub fn support(&self, j: usize) -> Option<usize> {
        (j < self.p).then(|| bits::count(self.prop_bits(j)))
    }

    /// Words per proposition cover (`⌈m/64⌉`).
    pub(crate) fn words_m(&self) -> usize {
        self.wm
    }

    /// The cover of proposition `j` as a bit set over examples.
    pub(crate) fn prop_bits(&self, j: usize) -> &[u64] {
        &self.by_prop[j * self.wm..(j + 1) * self.wm]
    }

    /// The propositions example `i` satisfies, as a bit set.
    pub(crate) fn example_bits(&self, i: usize) -> &[u64] {
        &self.by_example[i * self.wp..(i + 1) * self.wp]
    }

    /// The examples satisfying every proposition of `props` (all examples when empty).
    pub fn cover_of(&self, props: &[u32]) -> Vec<u32> {
        let mut acc = vec![!0u64; self.wm];
        self.cover_bits_into(props, &mut acc);
        let mut out = Vec::new();
        bits::push_ones(&acc, &mut out);
        out
    }

    /// `acc &= cover(p)` for every `p` in `props`; `acc` should start all ones; bits past `m`
    /// are cleared.
    pub(crate) fn cover_bits_into(&self, props: &[u32], acc: &mut [u64]) {
        if self.m % 64 != 0 {
            if let Some(last) = acc.last_mut() {
                *last &= (1u64 << (self.m % 64)) - 1;
            }
        }
        for &q in props {
            for (a, &b) in acc.iter_mut().zip(self.prop_bits(q as usize)) {
                *a &= b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(cols: &[Column]) -> PropositionSet {
        PropositionSet::fit(&PropositionParams::new().check().unwrap(), cols).unwrap()
    }

    #[test]
    fn quantile_matches_numpy_linear() {
        let u = [1.0, 2.0, 4.0, 8.0];
        // np.quantile([1,2,4,8], [.2,.4,.6,.8]) = [1.6, 2.4, 3.6, 5.6]
        let q: Vec<f64> = [0.2, 0.4, 0.6, 0.8]
            .iter()
            .map(|&q| quantile_sorted(&u, q))
            .collect();
        for (a, b) in q.iter().zip([1.6, 2.4, 3.6, 5.6]) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
        assert_eq!(quantile_sorted(&[3.0], 0.5), 3.0);
    }

    #[test]
    fn numeric_column_gives_eight_and_drops_constant_or_repeated_splits() {
        let x: Vec<f64> = (0..20).map(f64::from).collect();
        assert_eq!(fit(&[Column::Numeric(&x)]).len(), 8);
        // two distinct values: every cut splits the same way -> one cut
        let x = [0.0, 1.0, 0.0, 1.0];
        let s = fit(&[Column::Numeric(&x)]);
        assert_eq!(s.len(), 2);
        // constant column and all-missing column: nothing
        assert!(fit(&[Column::Numeric(&[2.0, 2.0])]).is_empty());
        assert!(fit(&[Column::Numeric(&[f64::NAN, f64::NAN])]).is_empty());
    }

    #[test]
    fn categorical_rules_by_number_of_values() {
        let c3 = [0u32, 1, 2, 1];
        let s = fit(&[Column::Categorical {
            codes: &c3,
            n_categories: 4,
        }]);
        assert_eq!(s.len(), 6); // code 3 never occurs
        let c2 = [0u32, 1, 1, MISSING_CATEGORY];
        let s = fit(&[Column::Categorical {
            codes: &c2,
            n_categories: 2,
        }]);
        assert_eq!(s.len(), 2);
        let m = s
            .transform(&[Column::Categorical {
                codes: &c2,
                n_categories: 2,
            }])
            .unwrap();
        assert!(
            m.get(3, 0) == Some(false) && m.get(3, 1) == Some(false),
            "missing satisfies nothing"
        );
    }

    #[test]
    fn missing_and_unseen_never_fire() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, f64::NAN];
        let s = fit(&[Column::Numeric(&x)]);
        let m = s.transform(&[Column::Numeric(&x)]).unwrap();
        assert!((0..s.len()).all(|j| m.get(5, j) == Some(false)));
        let c = [0u32, 1, 2];
        let s = fit(&[Column::Categorical {
            codes: &c,
            n_categories: 3,
        }]);
        let m = s
            .transform(&[Column::Categorical {
                codes: &[7, 1],
                n_categories: 3,
            }])
            .unwrap();
        assert!((0..s.len()).all(|j| m.get(0, j) == Some(false)));
        assert_eq!(m.get(1, 2), Some(true)); // x = 1 (third proposition: Equal(1))
    }

    #[test]
    fn bad_tables_are_errors() {
        let p = PropositionParams::new().check().unwrap();
        assert!(PropositionSet::fit(&p, &[]).is_err());
        assert!(PropositionSet::fit(&p, &[Column::Numeric(&[])]).is_err());
        assert!(PropositionSet::fit(&p, &[Column::Numeric(&[1.0, f64::INFINITY])]).is_err());
        assert!(
            PropositionSet::fit(&p, &[Column::Numeric(&[1.0]), Column::Numeric(&[1.0, 2.0])])
                .is_err()
        );
        assert!(
            PropositionSet::fit(
                &p,
                &[Column::Categorical {
                    codes: &[5],
                    n_categories: 2
                }]
            )
            .is_err()
        );
        assert!(PropositionParams::new().n_cuts(0).check().is_err());
        assert!(
            PropositionParams::new()
                .cut_points(vec![Some(vec![f64::NAN])])
                .check()
                .is_err()
        );
    }

    #[test]
    fn explicit_cut_points() {
        let x = [1.0, 2.0, 3.0, 4.0];
        let p = PropositionParams::new()
            .cut_points(vec![Some(vec![2.5, 0.0, 2.6])])
            .check()
            .unwrap();
        let s = PropositionSet::fit(&p, &[Column::Numeric(&x)]).unwrap();
        // 0.0 is constant, 2.6 repeats 2.5's split
        assert_eq!(
            s.propositions()[0].condition,
            Condition::LessEq(2.5),
            "{s:?}"
        );
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn matrix_views_agree() {
        let m =
            PropositionMatrix::from_dense(70, 3, &(0..210).map(|k| k % 3 == 0).collect::<Vec<_>>())
                .unwrap();
        for i in 0..70 {
            for j in 0..3 {
                assert_eq!(m.get(i, j), Some(bits::get(m.example_bits(i), j)));
            }
        }
        assert_eq!(m.cover_of(&[]).len(), 70);
        assert_eq!(
            m.cover_of(&[0]),
            (0..70).filter(|&i| (i * 3) % 3 == 0).collect::<Vec<u32>>()
        );
    }
}
