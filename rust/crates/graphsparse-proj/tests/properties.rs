//! Property tests of every projection against sort-based references written here.

use graphsparse_base::SplitMix64;
use graphsparse_proj::*;
use proptest::prelude::*;

/// Naive, obviously correct references (sorting and explicit KKT checks; no shared code).
mod reference {
    /// Duchi et al. 2008: sort, cumulative sums, largest feasible prefix.
    pub fn simplex(v: &[f64], z: f64) -> Vec<f64> {
        let mut u = v.to_vec();
        u.sort_by(|a, b| b.total_cmp(a));
        let mut css = 0.0;
        let mut tau = 0.0;
        for (j, &uj) in u.iter().enumerate() {
            css += uj;
            let t = (css - z) / (j + 1) as f64;
            if uj - t > 0.0 {
                tau = t;
            }
        }
        v.iter().map(|&x| (x - tau).max(0.0)).collect()
    }

    pub fn l1_ball(v: &[f64], r: f64) -> Vec<f64> {
        if v.iter().map(|x| x.abs()).sum::<f64>() <= r {
            return v.to_vec();
        }
        if r == 0.0 {
            return vec![0.0; v.len()];
        }
        let a: Vec<f64> = v.iter().map(|x| x.abs()).collect();
        simplex(&a, r)
            .iter()
            .zip(v)
            .map(|(x, s)| x * s.signum())
            .collect()
    }

    /// Weighted simplex: for each prefix of the key order, θ from the closed form, accepted
    /// when the *full* KKT system holds (every prefix member non-negative, every other
    /// coordinate non-positive); O(d²), independent of the b_j shortcut of Algorithm 1.
    pub fn weighted(y: &[f64], eps: &[f64]) -> Vec<f64> {
        let mut p: Vec<usize> = (0..y.len()).filter(|&i| eps[i] > 0.0).collect();
        p.sort_by(|&a, &b| (y[b] / eps[b]).total_cmp(&(y[a] / eps[a])));
        let mut best: Option<(f64, f64)> = None; // (violation, θ)
        for j in 1..=p.len() {
            let s: f64 = p[..j].iter().map(|&i| eps[i] * y[i]).sum();
            let q: f64 = p[..j].iter().map(|&i| eps[i] * eps[i]).sum();
            let th = (1.0 - s) / q;
            let viol = p
                .iter()
                .enumerate()
                .map(|(r, &i)| {
                    let b = y[i] + th * eps[i];
                    if r < j { (-b).max(0.0) } else { b.max(0.0) }
                })
                .fold(0.0, f64::max);
            if best.is_none_or(|(v, _)| viol < v) {
                best = Some((viol, th));
            }
        }
        let th = best.expect("eps has a positive entry").1;
        (0..y.len())
            .map(|i| {
                if eps[i] > 0.0 {
                    (y[i] + th * eps[i]).max(0.0)
                } else {
                    y[i]
                }
            })
            .collect()
    }

    fn s(y: &[f64], t: f64) -> f64 {
        y.iter().map(|&z| (z - t).clamp(0.0, 1.0)).sum()
    }

    /// Capped simplex: sorted breakpoints, linear interpolation of s on the bracketing
    /// segment (the spec's §4.1 algorithm, with every s evaluated from scratch).
    pub fn capped(y: &[f64], k: f64) -> Vec<f64> {
        let clip: Vec<f64> = y.iter().map(|&z| z.clamp(0.0, 1.0)).collect();
        if clip.iter().sum::<f64>() <= k {
            return clip;
        }
        if k == 0.0 {
            return vec![0.0; y.len()];
        }
        let mut b: Vec<f64> = y
            .iter()
            .flat_map(|&z| [z, z - 1.0])
            .filter(|&t| t > 0.0)
            .chain([0.0])
            .collect();
        b.sort_by(f64::total_cmp);
        b.dedup();
        let mut lo = 0;
        while lo + 1 < b.len() && s(y, b[lo + 1]) >= k {
            lo += 1;
        }
        let (tl, th) = (b[lo], b[lo + 1]);
        let (sl, sh) = (s(y, tl), s(y, th));
        let tau = if sl == sh {
            tl
        } else {
            tl + (sl - k) / (sl - sh) * (th - tl)
        };
        y.iter().map(|&z| (z - tau).clamp(0.0, 1.0)).collect()
    }

    /// Top-k by a full stable sort of (−|y|, index).
    pub fn top_k(y: &[f64], k: usize) -> Vec<f64> {
        let mut idx: Vec<usize> = (0..y.len()).collect();
        idx.sort_by(|&a, &b| y[b].abs().total_cmp(&y[a].abs()).then(a.cmp(&b)));
        let mut x = vec![0.0; y.len()];
        for &i in &idx[..k] {
            x[i] = y[i];
        }
        x
    }
}

fn inf_norm(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) -> Result<(), TestCaseError> {
    prop_assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        prop_assert!(
            (g - w).abs() <= tol,
            "index {}: {} vs {} (tol {})",
            i,
            g,
            w,
            tol
        );
    }
    Ok(())
}

/// ⟨y − P(y), w − P(y)⟩ ≤ tol: the variational inequality of a convex projection.
fn assert_vi(y: &[f64], x: &[f64], w: &[f64], scale: f64) -> Result<(), TestCaseError> {
    // in units of `scale`, so that huge and tiny inputs neither overflow nor underflow
    let r: Vec<f64> = y.iter().zip(x).map(|(a, b)| (a - b) / scale).collect();
    let d: Vec<f64> = w.iter().zip(x).map(|(a, b)| (a - b) / scale).collect();
    let lhs = dot(&r, &d);
    let norms = dot(&r, &r).sqrt() * dot(&d, &d).sqrt();
    prop_assert!(
        lhs <= 1e-10 * (1.0 + norms),
        "<y-x, w-x> = {} > 0 (scaled)",
        lhs
    );
    Ok(())
}

/// Vectors with ties, wide ranges, constant runs, and a scale factor.
fn vector(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        prop::collection::vec(-10.0..10.0f64, 1..max_len),
        prop::collection::vec((-4i32..5).prop_map(|i| f64::from(i) * 0.5), 1..max_len),
        (1..max_len, -3.0..3.0f64).prop_map(|(n, c)| vec![c; n]),
        prop::collection::vec(
            prop_oneof![-1e3..1e3f64, -1e-3..1e-3f64, Just(0.0), Just(1.0)],
            1..max_len
        ),
    ]
}

fn scale() -> impl Strategy<Value = f64> {
    prop_oneof![4 => Just(1.0), 1 => Just(1e300), 1 => Just(1e-300), 1 => Just(1e150)]
}

/// Random non-negative weights with zeros and exact repeats (at least one positive).
fn weights(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![Just(0.0), Just(0.5), Just(1.0), 0.01..1.0f64, 1e-6..1e-3f64],
        n,
    )
    .prop_map(|mut e| {
        if e.iter().all(|&x| x == 0.0) {
            e[0] = 0.75;
        }
        e
    })
}

fn unit(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(0.0..1.0f64, n)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn prop_simplex_matches_reference_and_is_a_projection(
        v in vector(300), z in prop_oneof![Just(1.0), 1e-3..1e3f64], s in scale(), seed in 0..1000u64
    ) {
        let v: Vec<f64> = v.iter().map(|x| x * s).collect();
        let z = z * s;
        let x = project_simplex(&v, z).unwrap();
        let sc = inf_norm(&v).max(z);
        assert_close(&x, &reference::simplex(&v, z), 1e-10 * sc)?;
        // feasibility
        prop_assert!(x.iter().all(|&t| t >= 0.0));
        let n = v.len() as f64;
        prop_assert!((x.iter().sum::<f64>() - z).abs() <= 1e-13 * sc * n.max(1.0));
        // variational inequality against a random feasible point
        let mut w: Vec<f64> = (0..v.len()).map(|i| ((i as u64 * 2654435761 + seed) % 97) as f64).collect();
        let ws: f64 = w.iter().sum();
        if ws > 0.0 { for t in &mut w { *t *= z / ws; } } else { w[0] = z; }
        assert_vi(&v, &x, &w, sc)?;
        // idempotence
        assert_close(&project_simplex(&x, z).unwrap(), &x, 1e-12 * sc * n.max(1.0))?;
    }

    #[test]
    fn prop_simplex_is_scale_equivariant(v in vector(100), s in prop_oneof![Just(1e300), Just(1e-300)]) {
        let x = project_simplex(&v, 1.0).unwrap();
        let xs = project_simplex(&v.iter().map(|t| t * s).collect::<Vec<_>>(), s).unwrap();
        let back: Vec<f64> = xs.iter().map(|t| t / s).collect();
        assert_close(&back, &x, 1e-12 * (1.0 + inf_norm(&v)))?;
    }

    #[test]
    fn prop_l1_ball_matches_reference_and_is_a_projection(
        v in vector(300), r in prop_oneof![Just(0.0), Just(1.0), 1e-3..1e3f64], s in scale(),
        w in unit(300), shrink in 0.0..1.0f64
    ) {
        let v: Vec<f64> = v.iter().map(|x| x * s).collect();
        let r = r * s;
        let x = project_l1_ball(&v, r).unwrap();
        let sc = inf_norm(&v).max(r).max(f64::MIN_POSITIVE);
        assert_close(&x, &reference::l1_ball(&v, r), 1e-10 * sc)?;
        let norm: f64 = x.iter().map(|t| t.abs()).sum();
        prop_assert!(norm <= r + 1e-13 * sc * v.len() as f64);
        prop_assert!(x.iter().zip(&v).all(|(a, b)| a * b >= 0.0), "signs kept");
        // random point of the ball
        let mut w: Vec<f64> = w[..v.len()].iter().enumerate().map(|(i, t)| if i % 2 == 0 { *t } else { -t }).collect();
        let wn: f64 = w.iter().map(|t| t.abs()).sum();
        if wn > 0.0 { for t in &mut w { *t *= shrink * r / wn; } }
        assert_vi(&v, &x, &w, sc)?;
        assert_close(&project_l1_ball(&x, r).unwrap(), &x, 1e-12 * sc * v.len() as f64)?;
    }

    #[test]
    fn prop_weighted_matches_reference_both_variants(
        (y, eps) in (1..120usize).prop_flat_map(|n| (vector(n + 1).prop_map(move |mut v| { v.resize(n, 0.25); v }), weights(n))),
        s in prop_oneof![4 => Just(1.0), 1 => Just(1e150), 1 => Just(1e-150)],
        w in unit(120)
    ) {
        let y: Vec<f64> = y.iter().map(|t| t * s).collect();
        let want = reference::weighted(&y, &eps);
        let mut a = vec![0.0; y.len()];
        let mut b = vec![0.0; y.len()];
        project_weighted_simplex_sort_into(&y, &eps, &mut a).unwrap();
        project_weighted_simplex_linear_into(&y, &eps, &mut b).unwrap();
        let auto = project_weighted_simplex(&y, &eps).unwrap();
        let sc = inf_norm(&y).max(1.0 / eps.iter().cloned().fold(0.0, f64::max));
        for x in [&a, &b, &auto] {
            assert_close(x, &want, 1e-10 * sc)?;
            // feasibility: Σ ε x = 1, x ≥ 0 on P, untouched off P
            let ex = dot(&eps, x);
            let terms: f64 = eps.iter().zip(&y).map(|(e, t)| (e * t).abs()).sum::<f64>() + 1.0;
            prop_assert!((ex - 1.0).abs() <= 1e-12 * terms, "eps.x = {}", ex);
            for i in 0..y.len() {
                if eps[i] > 0.0 { prop_assert!(x[i] >= 0.0) } else { prop_assert_eq!(x[i], y[i]) }
            }
        }
        // VI against a random feasible point (free coordinates off P)
        let mut f: Vec<f64> = (0..y.len()).map(|i| if eps[i] > 0.0 { w[i] } else { w[i] - 0.5 }).collect();
        let ef = dot(&eps, &f);
        let scale_p = if ef > 0.0 { 1.0 / ef } else { 0.0 };
        for i in 0..y.len() { if eps[i] > 0.0 { f[i] *= scale_p; } }
        if ef == 0.0 {
            let i = eps.iter().position(|&e| e > 0.0).unwrap();
            f[i] = 1.0 / eps[i];
        }
        assert_vi(&y, &b, &f, sc)?;
        // idempotence
        let again = project_weighted_simplex(&auto, &eps).unwrap();
        assert_close(&again, &auto, 1e-12 * sc * y.len() as f64)?;
    }

    #[test]
    fn prop_capped_matches_reference_and_is_a_projection(
        y in vector(200), k in prop_oneof![Just(0.0), Just(1.0), Just(2.0), 0.0..10.0f64],
        s in prop_oneof![3 => Just(1.0), 1 => Just(1e300), 1 => Just(1e-300)], w in unit(200)
    ) {
        let y: Vec<f64> = y.iter().map(|t| t * s).collect();
        let x = project_capped_simplex(&y, k).unwrap();
        let sc = inf_norm(&y).max(1.0);
        assert_close(&x, &reference::capped(&y, k), 1e-10 * sc)?;
        prop_assert!(x.iter().all(|&t| (0.0..=1.0).contains(&t)));
        prop_assert!(x.iter().sum::<f64>() <= k + 1e-12 * sc * y.len() as f64);
        let mut f = w[..y.len()].to_vec();
        let fs: f64 = f.iter().sum();
        if fs > k { for t in &mut f { *t *= k / fs; } }
        assert_vi(&y, &x, &f, sc)?;
        // feasible up to the rounding of y − τ, so idempotent on the scale of y
        assert_close(&project_capped_simplex(&x, k).unwrap(), &x, 1e-12 * sc * y.len() as f64)?;
    }

    #[test]
    fn prop_top_k_matches_full_sort(y in vector(200), frac in 0.0..=1.0f64, seed in 0..1000usize) {
        let k = ((y.len() as f64) * frac).round() as usize;
        let x = project_top_k(&y, k).unwrap();
        prop_assert_eq!(&x, &reference::top_k(&y, k));
        prop_assert!(x.iter().filter(|&&t| t != 0.0).count() <= k);
        prop_assert_eq!(project_top_k(&x, k).unwrap(), x.clone());
        // no k-subset is closer: compare with a pseudo-random support
        let n = y.len();
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by_key(|&i| (i * 7919 + seed) % (n + 13));
        let mut other = vec![0.0; n];
        for &i in &idx[..k] { other[i] = y[i]; }
        let d = |a: &[f64]| a.iter().zip(&y).map(|(p, q)| (p - q) * (p - q)).sum::<f64>();
        // (tied supports differ only by summation order)
        prop_assert!(d(&x) <= d(&other) * (1.0 + 1e-12));
    }

    #[test]
    fn prop_batched_equals_row_by_row_and_parallel_equals_serial(
        n_rows in 1..12usize, n_cols in 1..70usize, seed in any::<u64>(), k in 0.0..5.0f64
    ) {
        let mut rng = SplitMix64::new(seed);
        let mut next = || rng.below(2001) as f64 / 100.0 - 10.0;
        let data: Vec<f64> = (0..n_rows * n_cols).map(|_| next()).collect();
        let eps_shared: Vec<f64> = (0..n_cols).map(|i| if i % 3 == 0 { 0.0 } else { (i % 5) as f64 / 4.0 + 0.1 }).collect();
        let eps_rows: Vec<f64> = (0..n_rows * n_cols).map(|i| ((i * 13) % 7) as f64 / 6.0 + 0.05).collect();
        let kk = (k as usize).min(n_cols);
        type Batch<'a> = Box<dyn Fn(&mut [f64], Parallel) + 'a>;
        type Row<'a> = Box<dyn Fn(usize, &[f64]) -> Vec<f64> + 'a>;
        let cases: Vec<(Batch, Row)> = vec![
            (Box::new(|o, p| project_simplex_rows(&data, n_cols, 2.0, o, p).unwrap()),
             Box::new(|_, r| project_simplex(r, 2.0).unwrap())),
            (Box::new(|o, p| project_l1_ball_rows(&data, n_cols, 3.0, o, p).unwrap()),
             Box::new(|_, r| project_l1_ball(r, 3.0).unwrap())),
            (Box::new(|o, p| project_capped_simplex_rows(&data, n_cols, k, o, p).unwrap()),
             Box::new(|_, r| project_capped_simplex(r, k).unwrap())),
            (Box::new(|o, p| project_top_k_rows(&data, n_cols, kk, o, p).unwrap()),
             Box::new(|_, r| project_top_k(r, kk).unwrap())),
            (Box::new(|o, p| project_weighted_simplex_rows(&data, n_cols, &eps_rows, o, p).unwrap()),
             Box::new(|i, r| project_weighted_simplex(r, &eps_rows[i * n_cols..(i + 1) * n_cols]).unwrap())),
        ];
        for (batch, row) in &cases {
            let mut serial = vec![f64::NAN; data.len()];
            let mut par = vec![f64::NAN; data.len()];
            batch(&mut serial, Parallel::Serial);
            batch(&mut par, Parallel::Threshold(0));
            prop_assert_eq!(serial.iter().map(|t| t.to_bits()).collect::<Vec<_>>(), par.iter().map(|t| t.to_bits()).collect::<Vec<_>>());
            for (i, r) in data.chunks(n_cols).enumerate() {
                let want = row(i, r);
                prop_assert_eq!(&serial[i * n_cols..(i + 1) * n_cols], &want[..]);
            }
        }
        if eps_shared.iter().any(|&e| e > 0.0) {
            let mut a = vec![0.0; data.len()];
            let mut b = vec![0.0; data.len()];
            project_weighted_simplex_rows(&data, n_cols, &eps_shared, &mut a, Parallel::Serial).unwrap();
            project_weighted_simplex_rows(&data, n_cols, &eps_shared, &mut b, Parallel::Threshold(0)).unwrap();
            prop_assert_eq!(&a, &b);
            for (i, r) in data.chunks(n_cols).enumerate() {
                prop_assert_eq!(&a[i * n_cols..(i + 1) * n_cols], &project_weighted_simplex(r, &eps_shared).unwrap()[..]);
            }
        }
    }
}

/// Long inputs of assorted shapes (the sampled bracketing of the capped simplex and the
/// linear-time weighted variant run on them).
fn long_vector() -> impl Strategy<Value = Vec<f64>> {
    (4097..30_000usize, 0..6u8, any::<u64>()).prop_map(|(n, shape, seed)| {
        let mut g = graphsparse_base::SplitMix64::new(seed);
        let mut u = || g.uniform();
        (0..n)
            .map(|i| match shape {
                0 => 4.0 * u() - 1.0,            // uniform
                1 => (u() - 0.5) / (u() + 1e-3), // heavy tails
                2 => {
                    if u() < 0.5 {
                        0.3
                    } else {
                        1.7
                    }
                } // two exact clusters
                3 => i as f64 / n as f64 * 3.0,  // sorted ramp
                4 => ((i * 7919) % 13) as f64 * 0.25, // many ties
                _ => 1e3 * (u() - 0.5),          // wide
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn prop_long_inputs_match_references(y in long_vector(), frac in 0.0..1.0f64, seed in any::<u64>()) {
        let n = y.len();
        let k = (n as f64 * frac * 0.5).floor() + if seed % 2 == 0 { 0.0 } else { 0.5 };
        let x = project_capped_simplex(&y, k).unwrap();
        let want = reference_capped_bisection(&y, k);
        let sc = inf_norm(&y).max(1.0);
        assert_close(&x, &want, 1e-10 * sc)?;
        let total = x.iter().sum::<f64>();
        // rounding of τ and of the n-term sum itself: a few ulps of k per element
        let tol = 1e-9 * sc + 4.0 * n as f64 * f64::EPSILON * k;
        prop_assert!(total <= k + tol, "sum {} exceeds k {} by {:e} (n = {})", total, k, total - k, n);
        let z = project_simplex(&y, 1.0 + frac * 100.0).unwrap();
        assert_close(&z, &reference::simplex(&y, 1.0 + frac * 100.0), 1e-10 * sc.max(100.0))?;
        let eps: Vec<f64> = (0..n).map(|i| ((i as u64 * 2654435761 + seed) % 1000) as f64 / 999.0).collect();
        if eps.iter().any(|&e| e > 0.0) {
            let mut a = vec![0.0; n];
            let mut b = vec![0.0; n];
            project_weighted_simplex_sort_into(&y, &eps, &mut a).unwrap();
            project_weighted_simplex_linear_into(&y, &eps, &mut b).unwrap();
            assert_close(&a, &b, 1e-10 * sc)?;
        }
    }
}

#[test]
fn length_one_and_all_equal() {
    assert_eq!(project_simplex(&[-7.0], 3.0).unwrap(), vec![3.0]);
    assert_eq!(
        project_weighted_simplex(&[-7.0], &[0.5]).unwrap(),
        vec![2.0]
    );
    assert_eq!(project_capped_simplex(&[0.3], 0.1).unwrap(), vec![0.1]);
    assert_eq!(project_l1_ball(&[-7.0], 3.0).unwrap(), vec![-3.0]);
    assert_eq!(project_top_k(&[-7.0], 1).unwrap(), vec![-7.0]);
    for n in [1usize, 2, 3, 10, 1000, 4097] {
        let v = vec![0.37; n];
        let x = project_simplex(&v, 1.0).unwrap();
        assert!(x.iter().all(|&t| (t - 1.0 / n as f64).abs() < 1e-15));
        let x = project_weighted_simplex(&v, &vec![1.0; n]).unwrap();
        assert!(x.iter().all(|&t| (t - 1.0 / n as f64).abs() < 1e-15));
        let x = project_capped_simplex(&vec![2.0; n], 0.5).unwrap();
        assert!(x.iter().all(|&t| (t - 0.5 / n as f64).abs() < 1e-15));
    }
}

#[test]
fn large_inputs_match_references() {
    // long vectors exercise the linear-time paths (several Condat restarts, many pivots)
    let mut rng = SplitMix64::new(0x1234_5678_9abc_def1);
    let mut next = || rng.uniform();
    let n = 20_000;
    let v: Vec<f64> = (0..n)
        .map(|i| next() * 4.0 - 2.0 + (i % 17) as f64 * 1e-3)
        .collect();
    let eps: Vec<f64> = (0..n)
        .map(|i| if i % 11 == 0 { 0.0 } else { next() })
        .collect();
    for z in [1e-3, 1.0, 100.0, 5000.0] {
        let x = project_simplex(&v, z).unwrap();
        let r = reference::simplex(&v, z);
        assert!(
            x.iter()
                .zip(&r)
                .all(|(a, b)| (a - b).abs() < 1e-10 * z.max(2.0)),
            "z={z}"
        );
    }
    let mut a = vec![0.0; n];
    let mut b = vec![0.0; n];
    project_weighted_simplex_sort_into(&v, &eps, &mut a).unwrap();
    project_weighted_simplex_linear_into(&v, &eps, &mut b).unwrap();
    assert!(
        a.iter().zip(&b).all(|(p, q)| (p - q).abs() < 1e-12),
        "sort vs linear"
    );
    for k in [0.5, 10.0, 3000.0, 9999.5] {
        let x = project_capped_simplex(&v, k).unwrap();
        let r = reference_capped_bisection(&v, k);
        assert!(
            x.iter().zip(&r).all(|(p, q)| (p - q).abs() < 1e-10),
            "k={k}"
        );
    }
    // sorted and reverse-sorted inputs (Condat's first pass restarts on every element)
    let mut up = v.clone();
    up.sort_by(f64::total_cmp);
    let down: Vec<f64> = up.iter().rev().copied().collect();
    for w in [&up, &down] {
        let x = project_simplex(w, 1.0).unwrap();
        let r = reference::simplex(w, 1.0);
        assert!(x.iter().zip(&r).all(|(a, b)| (a - b).abs() < 1e-12));
    }
}

/// Bisection on τ (O(n) per step) closed by the linear formula: an independent capped check.
fn reference_capped_bisection(y: &[f64], k: f64) -> Vec<f64> {
    let s = |t: f64| y.iter().map(|&z| (z - t).clamp(0.0, 1.0)).sum::<f64>();
    if s(0.0) <= k {
        return y.iter().map(|&z| z.clamp(0.0, 1.0)).collect();
    }
    let (mut lo, mut hi) = (0.0, inf_norm(y));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if s(mid) > k { lo = mid } else { hi = mid }
    }
    let mid = 0.5 * (lo + hi);
    let (mut nu, mut sm, mut nm) = (0.0, 0.0, 0.0);
    for &z in y {
        if z - mid >= 1.0 {
            nu += 1.0;
        } else if z - mid > 0.0 {
            sm += z;
            nm += 1.0;
        }
    }
    let tau = (nu + sm - k) / nm;
    y.iter().map(|&z| (z - tau).clamp(0.0, 1.0)).collect()
}
