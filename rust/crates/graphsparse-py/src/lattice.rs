//! Lattice bindings (crate `graphsparse-lattice`): rule ensembles by gHKL / gHKL-MT on the
//! conjunction lattice, that is propositionalisation, fits along a grid of `C` values, and rule
//! activations on new data.
//!
//! A table arrives as a list of columns: a float64 array (numeric, NaN missing) or a pair
//! `(codes, n_categories)` of a uint32 array and its code-space size (categorical; code
//! `2³²−1` missing, codes `≥ n_categories` unseen). Propositions go back and forth as
//! `(feature, op, value)` tuples with `op` one of `"<="`, `">"`, `"=="`, `"!="`.

use graphsparse::base::Budget;
use graphsparse::lattice::{
    Check, Column, Condition, CutRule, FeatureKind, GhklParams, GhklValidParams, LatticeError,
    Loss, Parallel, Proposition, PropositionParams, PropositionSet, SolverForm, TaskCoupling,
    fit_path,
};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::convert::{Count, Flag, NodeBudget, PyGsErr, Real, Seconds, bad_param, extract_params};
use crate::threads::{Exec, run, threads};

/// One column as it arrives from Python, borrowed from its NumPy array.
enum PyColumn<'py> {
    Numeric(PyReadonlyArray1<'py, f64>),
    Categorical(PyReadonlyArray1<'py, u32>, u32),
}

fn read_columns<'py>(columns: &Bound<'py, PyList>) -> PyResult<Vec<PyColumn<'py>>> {
    columns
        .iter()
        .enumerate()
        .map(|(j, c)| {
            if let Ok(t) = c.cast::<PyTuple>() {
                let (codes, n): (PyReadonlyArray1<'py, u32>, u32) = t.extract().map_err(|_| {
                    bad_param(format!(
                        "X column {j}: a categorical column must be (uint32 codes, n_categories)"
                    ))
                })?;
                Ok(PyColumn::Categorical(codes, n))
            } else {
                let v: PyReadonlyArray1<'py, f64> = c
                    .extract()
                    .map_err(|_| bad_param(format!("X column {j}: must be a float64 array")))?;
                Ok(PyColumn::Numeric(v))
            }
        })
        .collect()
}

fn as_columns<'a>(cols: &'a [PyColumn<'_>]) -> PyResult<Vec<Column<'a>>> {
    cols.iter()
        .map(|c| {
            Ok(match c {
                PyColumn::Numeric(v) => Column::Numeric(v.as_slice()?),
                PyColumn::Categorical(codes, n) => Column::Categorical {
                    codes: codes.as_slice()?,
                    n_categories: *n,
                },
            })
        })
        .collect()
}

/// The propositionalisation parameters, as a dict.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct PropArgs {
    n_cuts: Count,
    cut_rule: String,
    not_equal: Flag,
    /// Explicit cut points per column (`None`: the rule); absent: the rule everywhere.
    #[pyo3(default)]
    cut_points: Option<Vec<Option<Vec<f64>>>>,
}

impl PropArgs {
    fn params(&self) -> PyResult<PropositionParams> {
        let rule = match self.cut_rule.as_str() {
            "distinct_quantiles" => CutRule::DistinctQuantiles,
            "quantiles" => CutRule::Quantiles,
            "equal_width" => CutRule::EqualWidth,
            other => {
                return Err(bad_param(format!(
                    "cut_rule must be 'distinct_quantiles', 'quantiles' or 'equal_width', \
                     got {other:?}"
                )));
            }
        };
        Ok(PropositionParams::new()
            .n_cuts(self.n_cuts.usize())
            .cut_rule(rule)
            .not_equal(self.not_equal.0)
            .cut_points(self.cut_points.clone().unwrap_or_default()))
    }
}

/// The gHKL parameters (all but `C`, which is the grid), as a dict.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct GhklArgs {
    rho: Real,
    a: Real,
    loss: String,
    mu: Option<Real>,
    tol: Real,
    max_iter: Count,
    rule_threshold: Real,
    max_add: Option<NodeBudget>,
    kernel_cache_bytes: Count,
    max_nodes: Option<NodeBudget>,
    time_limit: Seconds,
    /// Armijo-backtracked mirror steps (default true); false: the `1/√i` schedule.
    #[pyo3(default)]
    line_search: Option<bool>,
    /// How the inner problems are solved: "auto" (default), "dual" or "primal".
    #[pyo3(default)]
    solver_form: Option<String>,
}

impl GhklArgs {
    fn params(
        &self,
        c: f64,
        parallel: Parallel,
    ) -> PyResult<Result<GhklValidParams, LatticeError>> {
        // the one loss vocabulary; the core refuses the losses gHKL does not solve
        let loss: Loss = self.loss.parse().map_err(|e| bad_param(format!("{e}")))?;
        let coupling = match self.mu {
            None => TaskCoupling::Independent,
            Some(Real(mu)) => TaskCoupling::MeanRegularized { mu },
        };
        let form = match self.solver_form.as_deref().unwrap_or("auto") {
            "auto" => SolverForm::Auto,
            "dual" => SolverForm::Dual,
            "primal" => SolverForm::Primal,
            other => {
                return Err(bad_param(format!(
                    "solver_form must be 'auto', 'dual' or 'primal', got {other:?}"
                )));
            }
        };
        Ok(GhklParams::new()
            .rho(self.rho.0)
            .c(c)
            .a(self.a.0)
            .loss(loss)
            .coupling(coupling)
            .tol(self.tol.0)
            .md_max_iter(self.max_iter.usize())
            .rule_threshold(self.rule_threshold.0)
            .max_add(
                self.max_add
                    .map(|b| usize::try_from(b.0).unwrap_or(usize::MAX)),
            )
            .kernel_cache_bytes(self.kernel_cache_bytes.usize())
            .line_search(self.line_search.unwrap_or(true))
            .solver_form(form)
            .budget(
                Budget::new()
                    .max_nodes(self.max_nodes.map(|b| b.0))
                    .time_limit(self.time_limit.0),
            )
            .parallel(parallel)
            .check())
    }
}

fn prop_tuple<'py>(py: Python<'py>, p: &Proposition) -> PyResult<Bound<'py, PyTuple>> {
    let f = p.feature;
    match p.condition {
        Condition::LessEq(t) => (f, "<=", t).into_pyobject(py),
        Condition::Greater(t) => (f, ">", t).into_pyobject(py),
        Condition::Equal(v) => (f, "==", v).into_pyobject(py),
        Condition::NotEqual(v) => (f, "!=", v).into_pyobject(py),
    }
}

/// One gHKL rule ensemble and how its fit went (the core's `GhklFit`, rules by column).
#[pyclass(frozen, get_all, module = "graphsparse._graphsparse")]
struct GhklFit {
    /// Each rule's proposition indices (increasing), uint32; strongest rule first.
    rule_props: Vec<Py<PyArray1<u32>>>,
    /// Each rule's weight per task, float64 `(n_rules, tasks)`.
    weights: Py<PyArray2<f64>>,
    /// Each rule's strength (the norm of its weights).
    strength: Py<PyArray1<f64>>,
    /// The number of training examples where each rule fires, int64.
    support: Py<PyArray1<i64>>,
    /// The bias `b_t` of each task (the score is the rules' sum minus it).
    bias: Py<PyArray1<f64>>,
    /// `C` of this fit.
    c: f64,
    /// The certified duality gap `P - D >= 0` (NaN after a cancellation).
    dual_gap: f64,
    /// The primal objective of the unthresholded model.
    primal: f64,
    /// The dual lower bound.
    dual: f64,
    /// Whether the optimality condition certified the result.
    converged: bool,
    /// Why the fit stopped early (`"max_nodes"`, `"time_limit"`), or `None`.
    truncation: Option<&'static str>,
    /// Active-set rounds made.
    n_rounds: usize,
    /// Mirror-descent iterations made.
    n_md_iter: usize,
    /// SVM / ridge solves made.
    n_inner_solves: usize,
    /// SMO iterations made.
    n_svm_iter: usize,
    /// The final active-set size (with the root).
    active_set_size: usize,
    /// The kernel cache's peak size in bytes (over the path so far).
    cache_peak_bytes: usize,
    /// The kernel cache's byte budget.
    cache_budget_bytes: usize,
    /// The dual coefficients of the final restricted solve.
    dual_coef: Py<PyArray1<f64>>,
}

impl GhklFit {
    fn new(py: Python<'_>, fit: &graphsparse::lattice::GhklFit) -> PyResult<Self> {
        let mut weights = Vec::with_capacity(fit.rules.len() * fit.tasks);
        for r in &fit.rules {
            weights.extend_from_slice(&r.weights);
        }
        let strength: Vec<f64> = fit.rules.iter().map(|r| r.strength).collect();
        let support: Vec<i64> = fit
            .rules
            .iter()
            .map(|r| i64::try_from(r.support).unwrap_or(i64::MAX))
            .collect();
        Ok(Self {
            rule_props: fit
                .rules
                .iter()
                .map(|r| r.props.clone().into_pyarray(py).unbind())
                .collect(),
            weights: weights
                .into_pyarray(py)
                .reshape([fit.rules.len(), fit.tasks])?
                .unbind(),
            strength: strength.into_pyarray(py).unbind(),
            support: support.into_pyarray(py).unbind(),
            bias: fit.bias.clone().into_pyarray(py).unbind(),
            c: fit.c,
            dual_gap: fit.gap,
            primal: fit.primal,
            dual: fit.dual,
            converged: fit.converged,
            truncation: fit.truncation.map(|t| t.as_str()),
            n_rounds: fit.n_rounds,
            n_md_iter: fit.n_md_iter,
            n_inner_solves: fit.n_inner_solves,
            n_svm_iter: fit.n_svm_iter,
            active_set_size: fit.active_set_size,
            cache_peak_bytes: fit.cache.peak_bytes,
            cache_budget_bytes: fit.cache.budget_bytes,
            dual_coef: fit.dual_coef().to_vec().into_pyarray(py).unbind(),
        })
    }
}

/// Fits the propositions of `columns`, then one gHKL model per `C` of `cs` (warm-started in
/// that order). `y` is task-major (`tasks · m`). Returns `(propositions, fits)`: the
/// propositions as `(feature, op, value)` tuples and one fit per `C`.
#[pyfunction]
#[pyo3(signature = (columns, y, tasks, cs, prop_params, params, n_threads = 1, progress = None))]
#[allow(clippy::too_many_arguments)]
fn fit_rule_ensemble<'py>(
    py: Python<'py>,
    columns: &Bound<'py, PyList>,
    y: PyReadonlyArray1<'py, f64>,
    tasks: usize,
    cs: PyReadonlyArray1<'py, f64>,
    prop_params: &Bound<'py, PyAny>,
    params: &Bound<'py, PyAny>,
    n_threads: usize,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyList>, Vec<GhklFit>)> {
    let prop_args = extract_params::<PropArgs>(prop_params)?;
    let args = extract_params::<GhklArgs>(params)?;
    let n_threads = threads(py, n_threads)?;
    let cs = cs.as_slice()?;
    let first = cs.first().copied().unwrap_or(1.0);
    let params = args
        .params(first, Parallel::from(n_threads > 1))?
        .map_err(PyGsErr::from)?;
    let prop_params = prop_args.params()?.check().map_err(PyGsErr::from)?;
    let cols = read_columns(columns)?;
    let cols = as_columns(&cols)?;
    let y = y.as_slice()?;
    let (set, fits) = run(py, Exec::Pool(n_threads), progress, |ctl| {
        let set = PropositionSet::fit(&prop_params, &cols)?;
        let x = set.transform(&cols)?;
        let fits = fit_path(&params, &x, y, tasks, cs, ctl)?;
        Ok::<_, LatticeError>((set, fits))
    })?
    .map_err(PyGsErr::from)?;
    let props = PyList::empty(py);
    for p in set.propositions() {
        props.append(prop_tuple(py, p)?)?;
    }
    let fits = fits
        .iter()
        .map(|f| GhklFit::new(py, f))
        .collect::<PyResult<_>>()?;
    Ok((props, fits))
}

/// The propositions of `columns` by the parameters' rule, as `(feature, op, value)` tuples.
#[pyfunction]
fn rule_propositions<'py>(
    py: Python<'py>,
    columns: &Bound<'py, PyList>,
    prop_params: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let prop_params = extract_params::<PropArgs>(prop_params)?
        .params()?
        .check()
        .map_err(PyGsErr::from)?;
    let cols = read_columns(columns)?;
    let cols = as_columns(&cols)?;
    let set = PropositionSet::fit(&prop_params, &cols).map_err(PyGsErr::from)?;
    let out = PyList::empty(py);
    for p in set.propositions() {
        out.append(prop_tuple(py, p)?)?;
    }
    Ok(out)
}

fn proposition_set(
    kinds: &[Option<u32>],
    props: &[(usize, String, f64)],
) -> PyResult<PropositionSet> {
    let kinds: Vec<FeatureKind> = kinds
        .iter()
        .map(|k| match k {
            None => FeatureKind::Numeric,
            Some(n) => FeatureKind::Categorical { n_categories: *n },
        })
        .collect();
    let code = |v: f64, k: usize| -> PyResult<u32> {
        if v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v) {
            Ok(v as u32)
        } else {
            Err(bad_param(format!(
                "propositions[{k}]: a category code must be an integer in 0..2^32, got {v}"
            )))
        }
    };
    let props = props
        .iter()
        .enumerate()
        .map(|(k, (feature, op, value))| {
            let condition = match op.as_str() {
                "<=" => Condition::LessEq(*value),
                ">" => Condition::Greater(*value),
                "==" => Condition::Equal(code(*value, k)?),
                "!=" => Condition::NotEqual(code(*value, k)?),
                other => {
                    return Err(bad_param(format!(
                        "propositions[{k}]: op must be '<=', '>', '==' or '!=', got {other:?}"
                    )));
                }
            };
            Ok(Proposition {
                feature: *feature,
                condition,
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    PropositionSet::from_parts(kinds, props).map_err(|e| PyGsErr::from(e).into())
}

/// Which rules fire on which rows of `columns`, as CSR `(indptr, indices)`.
///
/// `kinds` gives each fitted column's kind (`None`: numeric; an int: categorical with that
/// code-space size), `propositions` the fitted `(feature, op, value)` tuples and `rules` each
/// rule's proposition indices.
#[pyfunction]
fn rule_activations<'py>(
    py: Python<'py>,
    columns: &Bound<'py, PyList>,
    kinds: Vec<Option<u32>>,
    propositions: Vec<(usize, String, f64)>,
    rules: Vec<Vec<u32>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let set = proposition_set(&kinds, &propositions)?;
    let p = set.len();
    if let Some((k, q)) = rules
        .iter()
        .enumerate()
        .find_map(|(k, r)| r.iter().find(|&&q| q as usize >= p).map(|q| (k, *q)))
    {
        return Err(bad_param(format!(
            "rules[{k}] names proposition {q}, but there are {p}"
        )));
    }
    let cols = read_columns(columns)?;
    let cols = as_columns(&cols)?;
    let (indptr, indices) = run(py, Exec::Thread, None, |_ctl| {
        let x = set.transform(&cols)?;
        let m = x.n_examples();
        let mut rows: Vec<Vec<u32>> = vec![Vec::new(); m];
        for (k, r) in rules.iter().enumerate() {
            for i in x.cover_of(r) {
                rows[i as usize].push(k as u32);
            }
        }
        let mut indptr = Vec::with_capacity(m + 1);
        indptr.push(0i64);
        let mut indices = Vec::new();
        for r in rows {
            indices.extend(r.into_iter().map(i64::from));
            indptr.push(indices.len() as i64);
        }
        Ok::<_, LatticeError>((indptr, indices))
    })?
    .map_err(PyGsErr::from)?;
    Ok((
        indptr.into_pyarray(py).into_any(),
        indices.into_pyarray(py).into_any(),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GhklFit>()?;
    m.add_function(wrap_pyfunction!(fit_rule_ensemble, m)?)?;
    m.add_function(wrap_pyfunction!(rule_propositions, m)?)?;
    m.add_function(wrap_pyfunction!(rule_activations, m)?)?;
    Ok(())
}
