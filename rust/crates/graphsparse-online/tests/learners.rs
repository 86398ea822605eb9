//! Hand-computed single steps of every learner, plus the GraphDA → DA-IHT reduction.

use graphsparse_base::InputError;
use graphsparse_online::{
    AdaGradL1, Adam, DaGroupLasso, DaIht, GraphDa, GraphStoIht, Groups, KappaRounding, L1Rda, Loss,
    OnlineError, OnlineLearner, StoIht, TopKProjection,
};
use proptest::prelude::*;

const X1: [f64; 3] = [1.0, -2.0, 0.5];
const X2: [f64; 3] = [2.0, 1.0, -1.0];

fn close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "entry {k}: got {g}, want {w}\n{got:?}"
        );
    }
}

// Least squares at w = 0 with y1 = +1: r = -1, g1 = (-1, 2, -0.5, -1).
// DA-IHT / GraphDA then give w1 = (0, -1, 0, 0.5); at sample 2, score = -0.5, y2 = -1: r = 0.5,
// g2 = (1, 0.5, -0.5, 0.5), ḡ = (0, 1.25, -0.5, -0.25), κ = -√2/γ.

#[test]
fn da_iht_two_steps() {
    let mut m = DaIht::new(3, 2.0, 1, Loss::Squared, 0.0).unwrap();
    m.partial_fit(&X1, 1.0).unwrap();
    close(&m.state().coef, &[0.0, -1.0, 0.0, 0.5], 1e-15);
    close(&m.state().coef_avg, &[0.0, -1.0, 0.0, 0.5], 1e-15);
    m.partial_fit(&X2, -1.0).unwrap();
    let k = -std::f64::consts::SQRT_2 / 2.0;
    close(&m.state().coef, &[0.0, 1.25 * k, 0.0, -0.25 * k], 1e-15);
    close(&m.state().grad_avg, &[0.0, 1.25, -0.5, -0.25], 1e-15);
    close(
        &m.state().coef_avg,
        &[0.0, (-1.0 + 1.25 * k) / 2.0, 0.0, (0.5 - 0.25 * k) / 2.0],
        1e-15,
    );
    assert_eq!(
        (
            m.state().n_mistakes,
            m.state().n_mistakes_avg,
            m.state().n_seen
        ),
        (0, 0, 2)
    );
}

#[test]
fn graph_da_with_top_k_two_steps() {
    let proj = TopKProjection::new(2, 1).unwrap();
    let mut m = GraphDa::with_projection(3, 2.0, Loss::Squared, 0.0, proj).unwrap();
    m.partial_fit(&X1, 1.0).unwrap();
    // head {0,1}: b = (-1, 2, 0, -1); κ = -0.5: w̃ = (0.5, -1, 0, 0.5); tail {1}
    close(&m.state().coef, &[0.0, -1.0, 0.0, 0.5], 1e-15);
    assert_eq!(m.last_tail_support(), &[1]);
    m.partial_fit(&X2, -1.0).unwrap();
    let k = -std::f64::consts::SQRT_2 / 2.0;
    close(&m.state().coef, &[0.0, 1.25 * k, 0.0, -0.25 * k], 1e-15);
}

#[test]
fn sto_iht_two_steps() {
    let mut m = StoIht::new(3, 0.5, 1, Loss::Squared, 0.0).unwrap();
    m.partial_fit(&X1, 1.0).unwrap();
    // α = -0.5: w̃ = (0.5, -1, 0.25, 0.5); top-1 = {1}
    close(&m.state().coef, &[0.0, -1.0, 0.0, 0.5], 1e-15);
    m.partial_fit(&X2, -1.0).unwrap();
    // g2 = (1, 0.5, -0.5, 0.5), α = -0.5/√2
    let a = -0.5 / std::f64::consts::SQRT_2;
    close(
        &m.state().coef,
        &[0.0, -1.0 + 0.5 * a, 0.0, 0.5 + 0.5 * a],
        1e-15,
    );
}

#[test]
fn graph_sto_iht_two_steps_keeps_intercept_at_zero() {
    let proj = TopKProjection::new(2, 1).unwrap();
    let mut m = GraphStoIht::with_projection(3, 0.5, Loss::Squared, 0.0, proj).unwrap();
    m.partial_fit(&X1, 1.0).unwrap();
    // head {0,1}: h = (-1, 2, 0, 0); w̃ = (0.5, -1, 0, 0); tail {1}
    close(&m.state().coef, &[0.0, -1.0, 0.0, 0.0], 1e-15);
    // sample 2 with y = +1: score = -1 (a mistake for w and w̄), r = -2, g = (-4, -2, 2, -2);
    // head {0, 1} (|-2| = |2|: smaller index), α = -0.5/√2: w̃ = (4|α|, -1 + 2|α|, 0, 0); tail {0}
    m.partial_fit(&X2, 1.0).unwrap();
    let a = 0.5 / std::f64::consts::SQRT_2;
    close(&m.state().coef, &[4.0 * a, 0.0, 0.0, 0.0], 1e-15);
    assert_eq!((m.state().n_mistakes, m.state().n_mistakes_avg), (1, 1));
}

#[test]
fn l1_rda_two_steps() {
    let mut m = L1Rda::new(3, 0.1, 2.0, 0.5, Loss::Squared, 0.0).unwrap();
    m.partial_fit(&X1, 1.0).unwrap();
    // λ_1 = 0.1 + 2·0.5/1 = 1.1, κ = -0.5: only |2| > 1.1 survives: -0.5·(2 - 1.1)
    close(&m.state().coef, &[0.0, -0.45, 0.0, 0.5], 1e-15);
    // sample 2 (y = -1): score = -0.45 + 0.5 = 0.05 → +1, a mistake for w and w̄
    m.partial_fit(&X2, -1.0).unwrap();
    // r = 1.05: g2 = (2.1, 1.05, -1.05, 1.05); ḡ = (0.55, 1.525, -0.775, 0.025)
    let lt = 0.1 + 1.0 / std::f64::consts::SQRT_2;
    let k = -std::f64::consts::SQRT_2 / 2.0;
    close(
        &m.state().coef,
        &[0.0, k * (1.525 - lt), 0.0, k * 0.025],
        1e-14,
    );
    assert_eq!((m.state().n_mistakes, m.state().n_mistakes_avg), (1, 1));
}

#[test]
fn ada_grad_two_steps() {
    let (lam, eta, d) = (0.1, 0.5, 1e-8);
    let mut m = AdaGradL1::new(3, lam, eta, d, Loss::Squared, 0.0).unwrap();
    m.partial_fit(&X1, 1.0).unwrap();
    // G = (1, 4, 0.25, 1), ḡ = g1; w_i = sign(-ḡ_i) η·1/(δ+√G_i) (|ḡ_i| - λ)_+
    let want = [
        0.5 / (d + 1.0) * 0.9,
        -0.5 / (d + 2.0) * 1.9,
        0.5 / (d + 0.5) * 0.4,
        0.5 / (d + 1.0),
    ];
    close(&m.state().coef, &want, 1e-15);
    let s: f64 = want[0] * 2.0 + want[1] - want[2] + want[3];
    m.partial_fit(&X2, -1.0).unwrap();
    let r = s + 1.0;
    let g2 = [2.0 * r, r, -r, r];
    let g1 = [-1.0, 2.0, -0.5, -1.0];
    let mut want2 = [0.0; 4];
    for i in 0..4 {
        let gbar = (g1[i] + g2[i]) / 2.0;
        let big_g = g1[i] * g1[i] + g2[i] * g2[i];
        let shr = if i < 3 {
            (gbar.abs() - lam).max(0.0)
        } else {
            gbar.abs()
        };
        want2[i] = -gbar.signum() * eta * 2.0 / (d + big_g.sqrt()) * shr;
    }
    close(&m.state().coef, &want2, 1e-13);
}

#[test]
fn da_group_lasso_and_sparse_group_lasso_one_step() {
    let groups = Groups::new(3, &[vec![0, 1], vec![2]]).unwrap();
    let mut gl =
        DaGroupLasso::group_lasso(3, 0.1, 2.0, groups.clone(), Loss::Squared, 0.0).unwrap();
    gl.partial_fit(&X1, 1.0).unwrap();
    let s01 = 1.0 - 0.1 * 2f64.sqrt() / 5f64.sqrt();
    close(
        &gl.state().coef,
        &[0.5 * s01, -0.5 * s01 * 2.0, -0.5 * 0.8 * -0.5, 0.5],
        1e-15,
    );

    let mut sgl =
        DaGroupLasso::sparse_group_lasso(3, 0.1, 2.0, 1.0, groups, Loss::Squared, 0.0).unwrap();
    sgl.partial_fit(&X1, 1.0).unwrap();
    // c = (-0.9, 1.9, -0.4)
    let s01 = 1.0 - 0.1 * 2f64.sqrt() / (0.81f64 + 3.61).sqrt();
    close(
        &sgl.state().coef,
        &[-0.5 * s01 * -0.9, -0.5 * s01 * 1.9, -0.5 * 0.75 * -0.4, 0.5],
        1e-14,
    );

    // a large λ zeroes every group but keeps the intercept
    let mut big =
        DaGroupLasso::group_lasso(3, 10.0, 2.0, Groups::singletons(3), Loss::Squared, 0.0).unwrap();
    big.partial_fit(&X1, 1.0).unwrap();
    close(&big.state().coef, &[0.0, 0.0, 0.0, 0.5], 0.0);
}

#[test]
fn grid_blocks_match_the_benchmark_rule() {
    let g = Groups::grid_blocks(33, 33, 3).unwrap();
    assert_eq!(g.len(), 121);
    for i in 0..11 {
        for j in 0..11 {
            let want: Vec<usize> = [0, 1, 2, 33, 34, 35, 66, 67, 68]
                .iter()
                .map(|b| b + 3 * j + 99 * i)
                .collect();
            assert_eq!(g.group(11 * i + j), &want[..]);
        }
    }
    assert!(matches!(
        Groups::new(3, &[vec![0, 1], vec![1]]),
        Err(OnlineError::InvalidGroups(_))
    ));
    assert!(matches!(
        Groups::new(3, &[vec![3]]),
        Err(OnlineError::InvalidGroups(_))
    ));
}

#[test]
fn adam_two_steps() {
    let (a, b1, b2, e) = (0.1, 0.9, 0.999, 1e-8);
    let mut m = Adam::new(3, a, b1, b2, e, Loss::Squared, 0.0).unwrap();
    m.partial_fit(&X1, 1.0).unwrap();
    let g1 = [-1.0f64, 2.0, -0.5, -1.0];
    let mut w = [0.0f64; 4];
    let (mut m1, mut v1) = ([0.0f64; 4], [0.0f64; 4]);
    for i in 0..4 {
        m1[i] = (1.0 - b1) * g1[i];
        v1[i] = (1.0 - b2) * g1[i] * g1[i];
        w[i] = -a * m1[i] / ((1.0 - b1) * ((v1[i] / (1.0 - b2)).sqrt() + e));
    }
    close(&m.state().coef, &w, 1e-14);
    // ≈ -α sign(g) on the first step
    close(&m.state().coef, &[0.1, -0.1, 0.1, 0.1], 1e-7);
    assert!((m.state().beta1_power - 0.81).abs() < 1e-16);
    m.partial_fit(&X2, -1.0).unwrap();
    let s = w[0] * 2.0 + w[1] - w[2] + w[3];
    let r = s + 1.0;
    let g2 = [2.0 * r, r, -r, r];
    for i in 0..4 {
        let m2 = b1 * m1[i] + (1.0 - b1) * g2[i];
        let v2 = b2 * v1[i] + (1.0 - b2) * g2[i] * g2[i];
        w[i] -= a * m2 / ((1.0 - 0.81) * ((v2 / (1.0 - 0.998001)).sqrt() + e));
    }
    close(&m.state().coef, &w, 1e-12);
}

#[test]
fn logistic_first_step_sign_conventions() {
    // logistic, w = 0, y = +1: a = -0.5, g = -0.5 (x, 1); DA-IHT: w = κ ḡ on the top-1 = -1/γ·ḡ
    let mut m = DaIht::new(3, 4.0, 1, Loss::Logistic, 0.0).unwrap();
    m.partial_fit(&X1, 1.0).unwrap();
    close(&m.state().coef, &[0.0, -0.25, 0.0, 0.125], 0.0);
    // the model now leans towards +1 for X1
    assert!(graphsparse_online::decision(&X1, &m.state().coef) > 0.0);
}

#[test]
fn bad_input_is_rejected_without_changing_state() {
    let mut m = DaIht::new(3, 1.0, 2, Loss::Logistic, 0.0).unwrap();
    assert!(matches!(
        m.partial_fit(&[1.0, 2.0], 1.0),
        Err(OnlineError::Input(InputError::LengthMismatch { .. }))
    ));
    assert!(matches!(
        m.partial_fit(&[1.0, f64::NAN, 0.0], 1.0),
        Err(OnlineError::Input(InputError::NotFinite { .. }))
    ));
    assert!(matches!(
        m.partial_fit(&X1, 0.0),
        Err(OnlineError::InvalidLabel { .. })
    ));
    assert!(matches!(
        m.fit(&[1.0; 6], &[1.0, 2.0]),
        Err(OnlineError::InvalidLabel { index: 1, .. })
    ));
    assert_eq!(m.state().n_seen, 0);
    assert!(DaIht::new(3, 1.0, 4, Loss::Logistic, 0.0).is_err());
    assert!(DaIht::new(3, 0.0, 1, Loss::Logistic, 0.0).is_err());
    assert!(Adam::new(3, 0.1, 1.0, 0.9, 1e-8, Loss::Logistic, 0.0).is_err());
    assert!(AdaGradL1::new(3, 0.1, 1.0, 0.0, Loss::Logistic, 0.0).is_err());
    let stop = m.partial_fit_rows_until(&[1.0; 6], &[1.0, -1.0], &|| true);
    assert_eq!(stop, Err(OnlineError::Cancelled));
}

fn data(seed: u64, n: usize, p: usize) -> (Vec<f64>, Vec<f64>) {
    // the house generator, so the tests need no rand crate
    let mut g = graphsparse_base::SplitMix64::new(seed);
    let mut next = || (g.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let x: Vec<f64> = (0..n * p).map(|_| 4.0 * next() - 2.0).collect();
    let y: Vec<f64> = (0..n)
        .map(|_| if next() < 0.5 { -1.0 } else { 1.0 })
        .collect();
    (x, y)
}

fn all_learners(p: usize) -> Vec<Box<dyn OnlineLearner>> {
    let groups = Groups::grid_blocks(2, p / 2, 2).unwrap();
    vec![
        Box::new(DaIht::new(p, 3.0, 2, Loss::Logistic, 0.0).unwrap()),
        Box::new(StoIht::new(p, 0.3, 2, Loss::Logistic, 0.01).unwrap()),
        Box::new(L1Rda::new(p, 0.01, 3.0, 0.1, Loss::Logistic, 0.0).unwrap()),
        Box::new(AdaGradL1::new(p, 0.01, 0.5, 1e-8, Loss::Squared, 0.0).unwrap()),
        Box::new(
            DaGroupLasso::group_lasso(p, 0.01, 3.0, groups.clone(), Loss::Logistic, 0.0).unwrap(),
        ),
        Box::new(
            DaGroupLasso::sparse_group_lasso(p, 0.01, 3.0, 1.0, groups, Loss::Logistic, 0.0)
                .unwrap(),
        ),
        Box::new(Adam::new(p, 0.05, 0.9, 0.999, 1e-8, Loss::Logistic, 0.0).unwrap()),
        Box::new(
            GraphDa::with_projection(
                p,
                3.0,
                Loss::Logistic,
                0.0,
                TopKProjection::new(4, 2).unwrap(),
            )
            .unwrap(),
        ),
        Box::new(
            GraphStoIht::with_projection(
                p,
                0.3,
                Loss::Logistic,
                0.0,
                TopKProjection::new(4, 2).unwrap(),
            )
            .unwrap(),
        ),
    ]
}

#[test]
fn state_round_trip_continues_identically_and_fit_equals_partial_fits() {
    let p = 6;
    let (x, y) = data(7, 30, p);
    for (k, (mut a, mut b)) in all_learners(p).into_iter().zip(all_learners(p)).enumerate() {
        a.fit(&x, &y).unwrap();
        // b: first half, then a state round trip through a fresh learner, then the rest
        b.partial_fit_rows(&x[..15 * p], &y[..15]).unwrap();
        let saved = b.state().clone();
        let mut c = all_learners(p).into_iter().nth(k).unwrap();
        c.set_state(saved).unwrap();
        for (row, &yi) in x[15 * p..].chunks(p).zip(&y[15..]) {
            c.partial_fit(row, yi).unwrap();
        }
        assert_eq!(a.state(), c.state(), "learner {k}");
        assert_eq!(a.state().n_seen, 30);
        assert!(a.state().n_mistakes <= 30);
        // refitting resets
        a.fit(&x, &y).unwrap();
        assert_eq!(a.state(), c.state(), "learner {k} after refit");
    }
}

#[test]
fn set_state_rejects_wrong_lengths() {
    let mut m = Adam::new(3, 0.1, 0.9, 0.999, 1e-8, Loss::Logistic, 0.0).unwrap();
    let mut s = m.state().clone();
    s.moment1.pop();
    assert!(matches!(
        m.set_state(s),
        Err(OnlineError::Input(InputError::LengthMismatch {
            arg: "moment1",
            ..
        }))
    ));
}

proptest! {
    #[test]
    fn prop_graph_da_with_top_s_reduces_to_da_iht(seed in 0u64..1000, p in 2usize..9, s in 1usize..9,
                                                   gamma in 0.5f64..50.0, ls in proptest::bool::ANY) {
        let s = s.min(p);
        let loss = if ls { Loss::Squared } else { Loss::Logistic };
        let (x, y) = data(seed, 25, p);
        let mut da = DaIht::new(p, gamma, s, loss, 0.0).unwrap();
        let proj = TopKProjection::new(s, s).unwrap();
        let mut gda = GraphDa::with_projection(p, gamma, loss, 0.0, proj)
            .unwrap()
            .kappa_rounding(KappaRounding::NegInvGammaTimesSqrt);
        for (row, &yi) in x.chunks(p).zip(&y) {
            da.partial_fit(row, yi).unwrap();
            gda.partial_fit(row, yi).unwrap();
            prop_assert_eq!(da.state(), gda.state());
        }
    }
}
