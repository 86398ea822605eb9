//! The perspective prox against an independent 1-D reference (spec §2.1 step 1, §2.2 item 6)
//! and its structural properties (spec §2.1 items 6–7), over many orders of magnitude.

use graphsparse_base::InputError;
use graphsparse_recovery::{RecoveryError, perspective, prox_perspective, prox_perspective_into};
use proptest::prelude::*;

/// `prox_{cφ}(x, σ)` by bisection on the increasing `F'(b)` of the reduced problem
/// `F(b) = c x²/(2(b + c)) + c b/2 + ½(b − σ)²`, `b ≥ 0`, then `a = x b/(b + c)`. Independent
/// of the cubic; never forms `x²` (so it does not overflow).
fn reference(x: f64, sigma: f64, c: f64) -> (f64, f64) {
    let ax = x.abs();
    // F'(b) = b − σ + (c − c r²)/2 with r = |x|/(b + c); c r = |x|·c/(b + c) ≤ |x| never
    // overflows, and halving last keeps a subnormal c from rounding to 0
    if ax.max(sigma.abs()).max(c) > 1e300 {
        // homogeneity, away from the overflow threshold
        let t = 2f64.powi(-16);
        let (a, b) = reference(x * t, sigma * t, c * t);
        return (a / t, b / t);
    }
    let fprime = |b: f64| {
        let r = ax / (b + c);
        let cr = ax * (c / (b + c));
        (b - sigma) + (c - cr * r) * 0.5
    };
    if fprime(0.0) >= 0.0 {
        return (0.0, 0.0);
    }
    // F'(max(σ, 0) + |x|) ≥ 0: (b + c) ≥ |x| makes the first term ≥ −c/2
    let (mut lo, mut hi) = (0.0f64, sigma.max(0.0) + ax);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if fprime(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let b = 0.5 * (lo + hi);
    (x * (b / (b + c)), b)
}

/// The prox objective `c φ(a, b) + ½(a − x)² + ½(b − σ)²`.
fn objective(a: f64, b: f64, x: f64, sigma: f64, c: f64) -> f64 {
    c * perspective(a, b) + 0.5 * (a - x) * (a - x) + 0.5 * (b - sigma) * (b - sigma)
}

/// Errors relative to `max(|x|, |σ|, c)`, floored at the smallest normal number (below it,
/// float64 has no relative precision left).
fn close(got: (f64, f64), want: (f64, f64), scale: f64, tol: f64) -> bool {
    let scale = scale.max(f64::MIN_POSITIVE);
    (got.0 - want.0).abs() <= tol * scale && (got.1 - want.1).abs() <= tol * scale
}

/// A signed magnitude `±10^e`, or 0.
fn magnitude(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        9 => (lo..hi, any::<bool>()).prop_map(|(e, neg)| {
            let v = 10f64.powf(e);
            if neg { -v } else { v }
        }),
        1 => Just(0.0),
    ]
}

#[test]
fn matches_the_reference_on_a_fixed_grid_of_scales() {
    let vals = [
        0.0, 1e-300, 1e-12, 1e-6, 0.01, 0.3, 0.5, 1.0, 1.7, 3.0, 42.0, 1e6, 1e12, 1e150, 1e300,
    ];
    let mut worst = 0.0f64;
    for &x in &vals {
        for &s in &vals {
            for sgn in [1.0, -1.0] {
                for &c in &[1e-300, 1e-9, 0.01, 0.5, 1.0, 2.0, 1e3, 1e9, 1e300] {
                    let sigma = sgn * s;
                    let got = prox_perspective(x, sigma, c).unwrap();
                    let want = reference(x, sigma, c);
                    let scale = x.abs().max(sigma.abs()).max(c);
                    let err = (got.0 - want.0).abs().max((got.1 - want.1).abs())
                        / scale.max(f64::MIN_POSITIVE);
                    worst = worst.max(err);
                    assert!(
                        err <= 1e-13,
                        "x={x:e} σ={sigma:e} c={c:e}: {got:?} vs reference {want:?}"
                    );
                }
            }
        }
    }
    eprintln!("worst relative error on the grid: {worst:e}");
}

#[test]
fn the_case_one_boundary_both_sides() {
    // x² + 2cσ = c²(1 ± δ): case 1 just inside, case 3 just outside
    for &c in &[1e-3f64, 1.0, 7.5, 1e4] {
        for &sigma in &[-2.0 * c, -0.3 * c, 0.0, 0.2 * c, 0.49 * c] {
            for &delta in &[-1e-12, -1e-9, 1e-12, 1e-9, 1e-3] {
                let x2 = c * c * (1.0 + delta) - 2.0 * c * sigma;
                if x2 < 0.0 {
                    continue;
                }
                let x = x2.sqrt();
                let got = prox_perspective(x, sigma, c).unwrap();
                let want = reference(x, sigma, c);
                assert!(
                    close(got, want, x.max(sigma.abs()).max(c), 1e-12),
                    "x={x} σ={sigma} c={c}: {got:?} vs {want:?}"
                );
            }
        }
    }
}

#[test]
fn the_three_root_regime_and_the_literal_cardano_form() {
    // σ < −c/2 with small |x|: p < 0 and X² < −p³/27
    for &(x, sigma, c) in &[(4.0, -5.0, 1.0), (2.5, -3.0, 0.5), (6.24, -475.0, 0.0178)] {
        let (a, b) = prox_perspective(x, sigma, c).unwrap();
        let want = reference(x, sigma, c);
        assert!(b > 0.0, "case 3 expected");
        assert!(
            close((a, b), want, 475.0, 1e-14),
            "{x} {sigma} {c}: {a} {b} vs {want:?}"
        );
        // the parabola identity: ((x − a)/c, (σ − b)/c) lies on v² + 2s = 1 (spec §2.1 item 6)
        let (v, s) = ((x - a) / c, (sigma - b) / c);
        assert!(
            (v * v + 2.0 * s - 1.0).abs() < 1e-9 * (1.0 + 2.0 * s.abs()),
            "{x} {sigma} {c}: v² + 2s = {}",
            v * v + 2.0 * s
        );
    }
    // the paper's literal form b = σ + c(s² − 1)/2 agrees on moderate inputs (spec §6)
    for &(x, sigma, c) in &[(3.0, 1.0, 1.0), (0.7, 0.2, 0.3), (2.0, -0.1, 0.5)] {
        let (a, b) = prox_perspective(x, sigma, c).unwrap();
        let s = (x - a) / c;
        assert!((b - (sigma + c * (s * s - 1.0) / 2.0)).abs() < 1e-12);
        assert!((s * s * s + (1.0 + 2.0 * sigma / c) * s - 2.0 * x / c).abs() < 1e-12);
    }
}

#[test]
fn subnormals_and_extreme_ratios_stay_finite_and_exact() {
    let tiny = f64::from_bits(1);
    for &(x, sigma, c) in &[
        (tiny, tiny, tiny),
        (tiny, 0.0, 1.0),
        (1.0, 0.0, tiny),
        (f64::MAX, -f64::MAX, f64::MIN_POSITIVE),
        (f64::MAX, f64::MAX, f64::MAX),
        (1e-310, -1e-310, 3e-310),
    ] {
        let (a, b) = prox_perspective(x, sigma, c).unwrap();
        assert!(a.is_finite() && b.is_finite() && b >= 0.0 && a.abs() <= x.abs());
        let want = reference(x, sigma, c);
        let scale = x.abs().max(sigma.abs()).max(c);
        assert!(
            close((a, b), want, scale, 1e-13),
            "{x:e} {sigma:e} {c:e}: {a:e} {b:e} vs {want:?}"
        );
    }
}

#[test]
fn invalid_scalars_are_errors_not_nan() {
    for c in [0.0, -1.0, f64::NAN, f64::INFINITY, -0.0] {
        assert!(matches!(
            prox_perspective(1.0, 1.0, c),
            Err(RecoveryError::Input(InputError::OutOfRange {
                arg: "c",
                ..
            }))
        ));
    }
    assert!(matches!(
        prox_perspective(f64::NAN, 1.0, 1.0),
        Err(RecoveryError::Input(InputError::NotFinite { arg: "x", .. }))
    ));
    assert!(matches!(
        prox_perspective(1.0, f64::NEG_INFINITY, 1.0),
        Err(RecoveryError::Input(InputError::NotFinite {
            arg: "sigma",
            ..
        }))
    ));
    let (mut a, mut b) = ([0.0; 2], [0.0; 1]);
    assert!(matches!(
        prox_perspective_into(&[1.0, 2.0], &[1.0, 2.0], 1.0, &mut a, &mut b),
        Err(RecoveryError::Input(InputError::LengthMismatch {
            arg: "out_sigma",
            ..
        }))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn prop_matches_the_bisection_reference(
        x in magnitude(-6.0, 6.0), sigma in magnitude(-6.0, 6.0), c in 1e-6f64..1e6,
    ) {
        let got = prox_perspective(x, sigma, c).unwrap();
        let want = reference(x, sigma, c);
        let scale = x.abs().max(sigma.abs()).max(c);
        prop_assert!(close(got, want, scale, 1e-13), "{:?} vs {:?}", got, want);
    }

    #[test]
    fn prop_matches_the_reference_at_any_scale(
        x in magnitude(-300.0, 300.0), sigma in magnitude(-300.0, 300.0), ec in -300.0f64..300.0,
    ) {
        let c = 10f64.powf(ec);
        let got = prox_perspective(x, sigma, c).unwrap();
        let want = reference(x, sigma, c);
        let scale = x.abs().max(sigma.abs()).max(c);
        prop_assert!(close(got, want, scale, 1e-13), "{:?} vs {:?}", got, want);
        prop_assert!(got.1 > 0.0 || got.0 == 0.0);
    }

    #[test]
    fn prop_no_other_point_is_better(
        x in magnitude(-3.0, 3.0), sigma in magnitude(-3.0, 3.0), c in 1e-3f64..1e3,
        da in -1.0f64..1.0, db in -1.0f64..1.0, t in -8.0f64..0.0,
    ) {
        let (a, b) = prox_perspective(x, sigma, c).unwrap();
        let best = objective(a, b, x, sigma, c);
        let scale = x.abs().max(sigma.abs()).max(c);
        let h = 10f64.powf(t) * scale;
        let other = objective(a + h * da, (b + h * db).max(0.0), x, sigma, c);
        prop_assert!(best <= other + 1e-12 * scale * scale, "{} > {}", best, other);
    }

    #[test]
    fn prop_domain_oddness_and_homogeneity(
        x in magnitude(-6.0, 6.0), sigma in magnitude(-6.0, 6.0), c in 1e-4f64..1e4,
        k in -20i32..20,
    ) {
        let (a, b) = prox_perspective(x, sigma, c).unwrap();
        prop_assert!(b >= 0.0 && a.abs() <= x.abs());
        prop_assert!(b > 0.0 || a == 0.0);
        prop_assert!(a == 0.0 || a.signum() == x.signum());
        prop_assert!(b >= sigma - c / 2.0 - 1e-12 * x.abs().max(sigma.abs()).max(c));
        prop_assert_eq!(prox_perspective(-x, sigma, c).unwrap(), (-a, b));
        // prox_{cφ}(t z) = t prox_{(c/t)φ}(z) exactly for powers of two t
        let t = 2f64.powi(k);
        let (at, bt) = prox_perspective(x * t, sigma * t, c * t).unwrap();
        prop_assert_eq!((at, bt), (a * t, b * t));
    }

    #[test]
    fn prop_firmly_nonexpansive(
        x1 in magnitude(-3.0, 3.0), s1 in magnitude(-3.0, 3.0),
        x2 in magnitude(-3.0, 3.0), s2 in magnitude(-3.0, 3.0), c in 1e-2f64..1e2,
    ) {
        let p = prox_perspective(x1, s1, c).unwrap();
        let q = prox_perspective(x2, s2, c).unwrap();
        // ‖P z − P w‖² ≤ ⟨P z − P w, z − w⟩
        let (da, db) = (p.0 - q.0, p.1 - q.1);
        let lhs = da * da + db * db;
        let rhs = da * (x1 - x2) + db * (s1 - s2);
        let scale = [x1, s1, x2, s2, c].iter().fold(0.0f64, |m, v| m.max(v.abs()));
        prop_assert!(lhs <= rhs + 1e-12 * scale * scale, "{} > {}", lhs, rhs);
    }

    #[test]
    fn prop_vectorised_form_equals_the_scalar_one(
        xs in proptest::collection::vec((magnitude(-4.0, 4.0), magnitude(-4.0, 4.0)), 0..40),
        c in 1e-3f64..1e3,
    ) {
        let (x, s): (Vec<f64>, Vec<f64>) = xs.into_iter().unzip();
        let (mut a, mut b) = (vec![0.0; x.len()], vec![0.0; x.len()]);
        prox_perspective_into(&x, &s, c, &mut a, &mut b).unwrap();
        for i in 0..x.len() {
            prop_assert_eq!((a[i], b[i]), prox_perspective(x[i], s[i], c).unwrap());
        }
    }
}
