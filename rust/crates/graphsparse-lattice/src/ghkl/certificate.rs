//! The certificate of a restricted solution for the whole lattice: the recovered primal
//! point, its objective, and the dual lower bound from a feasible point of program (21).

use crate::dag::Dag;
use crate::solver::{
    Exponents, Problem, Restricted, Settings, State, effective_weights, fit_bias, loss_dual,
};

/// The recovered primal point and the certified gap.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Certificate {
    /// `f_tw`, node-major.
    pub f: Vec<f64>,
    pub bias: Vec<f64>,
    pub kappa: Vec<f64>,
    pub primal: f64,
    pub dual: f64,
    pub gap: f64,
    pub loss_sum: f64,
}

/// Primal value of the recovered model and the dual lower bound `D(α) = Σ −Cφ*(−α/C) − ½ Ō`
/// with `Ō ≥ O_V(α)` from a feasible `κ` of program (21): `κ_vw ∝ d_v^ρ η̃_v^{1−ρ}` inside
/// `W` and the sources' `K_u` scores outside (`scores`; `None` skips the bound and leaves the
/// gap NaN).
pub(crate) fn certificate(
    pb: &Problem,
    set: &Settings,
    last: &Restricted,
    st: &State,
    scores: Option<&[f64]>,
) -> Certificate {
    let dag = pb.dag;
    let (n, nt, m) = (dag.len(), pb.tasks, pb.m());
    let ex = set.ex;
    let c = set.coupling;
    let mut kappa = vec![0.0; n];
    effective_weights(ex, &last.log_zeta, &last.mw, &mut kappa);
    let mut f = vec![0.0; n * nt];
    for w in 0..n {
        let p = &last.proj[w * nt..(w + 1) * nt];
        let s: f64 = p.iter().sum();
        for t in 0..nt {
            f[w * nt + t] = kappa[w] * (p[t] + c * s);
        }
    }
    // Ω = Σ_v d_v (Σ_{w ∈ D(v)} Q_w^ρ)^{1/ρ},  Q_w² = fᵀ B⁻¹ f,  B⁻¹ = I − c/(1+cT) 11ᵀ
    let shrink = c / (1.0 + c * nt as f64);
    let q: Vec<f64> = (0..n)
        .map(|w| {
            let fw = &f[w * nt..(w + 1) * nt];
            let sq: f64 = fw.iter().map(|v| v * v).sum();
            let s: f64 = fw.iter().sum();
            (sq - shrink * s * s).max(0.0).sqrt()
        })
        .collect();
    let qmax = q.iter().copied().fold(0.0f64, f64::max);
    let mut omega = 0.0;
    if qmax > 0.0 {
        let mut acc = vec![0.0; n];
        for (w, &qw) in q.iter().enumerate() {
            if qw > 0.0 {
                let t = (qw / qmax).powf(ex.rho);
                for &v in dag.ancestors(w) {
                    acc[v as usize] += t;
                }
            }
        }
        omega = qmax
            * (0..n)
                .map(|v| dag.log_weight(v).exp() * acc[v].powf(1.0 / ex.rho))
                .sum::<f64>();
    }
    let mut fit = vec![0.0; nt * m];
    dag.expand_into(&f, nt, &mut fit);
    let mut bias = st.bias.clone();
    let mut order = Vec::new();
    let lsum = fit_bias(set.loss, pb.y, &fit, pb.weight, &mut bias, &mut order);
    let primal = 0.5 * omega * omega + set.cost * lsum;
    let dual = match scores {
        None => f64::NAN,
        Some(s) => {
            let o_w = kappa_program_bound(dag, ex, &last.eta_s, &last.log_zeta, &last.mw);
            let o_out = s.iter().copied().fold(0.0f64, f64::max);
            loss_dual(set.loss, pb.y, &st.alpha, set.cost) - 0.5 * o_w.max(o_out)
        }
    };
    Certificate {
        f,
        bias,
        kappa,
        primal,
        dual,
        loss_sum: lsum,
        gap: if dual.is_nan() {
            f64::NAN
        } else {
            (primal - dual).max(0.0)
        },
    }
}

/// `max_{v ∈ W} d_v^{−2} ‖(κ_vw √M_w)_{w ∈ D(v)}‖²_{2ρ̄}` with `κ_vw = d_v^ρ η̃_v^{1−ρ}
/// ζ_w^{ρ−1}` (feasible for program (21), optimal at the optimal `η`).
pub(crate) fn kappa_program_bound(
    dag: &Dag,
    ex: Exponents,
    eta_s: &[f64],
    log_zeta: &[f64],
    mw: &[f64],
) -> f64 {
    let n = dag.len();
    let rho = ex.rho;
    let rb = ex.rho_bar;
    // l_vw = log(κ_vw² M_w)
    let l = |v: usize, w: usize| -> f64 {
        2.0 * (rho * dag.log_weight(v) + (1.0 - rho) * eta_s[v].ln() + (rho - 1.0) * log_zeta[w])
            + mw[w].ln()
    };
    let mut mx = vec![f64::NEG_INFINITY; n];
    for w in 0..n {
        if mw[w] > 0.0 && log_zeta[w] > f64::NEG_INFINITY {
            for &v in dag.ancestors(w) {
                let v = v as usize;
                mx[v] = mx[v].max(l(v, w));
            }
        }
    }
    let mut sum = vec![0.0; n];
    for w in 0..n {
        if mw[w] > 0.0 && log_zeta[w] > f64::NEG_INFINITY {
            for &v in dag.ancestors(w) {
                let v = v as usize;
                sum[v] += (rb * (l(v, w) - mx[v])).exp();
            }
        }
    }
    (0..n)
        .filter(|&v| mx[v] > f64::NEG_INFINITY)
        .map(|v| (mx[v] + sum[v].ln() / rb - 2.0 * dag.log_weight(v)).exp())
        .fold(0.0, f64::max)
}
