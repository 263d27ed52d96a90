//! The statistics checked against hand calculations and an independent implementation.

use super::*;

fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "expected {expected}, got {actual} (tolerance {tolerance})"
    );
}

/// Every pentanomial with 0 to 3 pairs in each bin.
fn small_pentanomials() -> impl Iterator<Item = Pentanomial> {
    (0..4u64.pow(5)).map(|n| penta([0, 1, 2, 3, 4].map(|bin| n / 4u64.pow(bin) % 4)))
}

/// Elo and its error within 1e-6, LOS within 1e-9, and the draw ratio when given.
fn close_estimate(e: Option<EloEstimate>, elo: f64, error95: f64, los: f64, draws: Option<f64>) {
    let e = e.expect("an estimate");
    close(e.elo, elo, 1e-6);
    close(e.error95, error95, 1e-6);
    close(e.los, los, 1e-9);
    if let Some(draws) = draws {
        close(e.draw_ratio, draws, 1e-12);
    }
}

fn tri(wins: u64, draws: u64, losses: u64) -> Trinomial {
    Trinomial {
        wins,
        draws,
        losses,
    }
}

fn penta(counts: [u64; 5]) -> Pentanomial {
    Pentanomial { counts }
}

const SPRT_0_5: Sprt = Sprt {
    elo0: 0.0,
    elo1: 5.0,
    alpha: 0.05,
    beta: 0.05,
};

#[test]
fn trinomial_counts_games_and_scores() {
    let mut t = Trinomial::default();
    assert_eq!(t.games(), 0);
    assert_eq!(t.score(), 0.5);
    assert_eq!(t.draw_ratio(), 0.0);
    for points in [1.0, 1.0, 0.5, 0.0, 1.0] {
        t.add(points);
    }
    assert_eq!(t, tri(3, 1, 1));
    assert_eq!(t.games(), 5);
    close(t.score(), 3.5 / 5.0, 1e-12);
    close(t.draw_ratio(), 0.2, 1e-12);
}

#[test]
fn pentanomial_bins_by_pair_points() {
    let cases = [
        ((0.0, 0.0), 0),
        ((0.5, 0.0), 1),
        ((0.0, 0.5), 1),
        ((1.0, 0.0), 2),
        ((0.0, 1.0), 2),
        ((0.5, 0.5), 2),
        ((1.0, 0.5), 3),
        ((0.5, 1.0), 3),
        ((1.0, 1.0), 4),
    ];
    for ((first, second), bin) in cases {
        let mut p = Pentanomial::default();
        p.add_pair(first, second);
        let mut expected = [0; 5];
        expected[bin] = 1;
        assert_eq!(p.counts, expected, "pair ({first}, {second})");
    }
    let p = penta([1, 2, 3, 4, 5]);
    assert_eq!(p.pairs(), 15);
    assert_eq!(p.games(), 30);
    // (0*1 + 0.25*2 + 0.5*3 + 0.75*4 + 1*5) / 15 = 10 / 15
    close(p.score(), 10.0 / 15.0, 1e-12);
}

#[test]
fn merge_adds_counts_and_gives_the_statistics_of_the_whole() {
    let mut a = tri(10, 5, 3);
    a.merge(&tri(50, 15, 17));
    assert_eq!(a, tri(60, 20, 20));
    assert_eq!(elo_trinomial(&a), elo_trinomial(&tri(60, 20, 20)));

    let mut p = penta([1, 4, 20, 12, 5]);
    p.merge(&penta([4, 6, 30, 8, 10]));
    assert_eq!(p, penta([5, 10, 50, 20, 15]));
    assert_eq!(SPRT_0_5.llr(&p), SPRT_0_5.llr(&penta([5, 10, 50, 20, 15])));
    // Merging shards game by game gives the same counts as playing them in one run.
    let games = [1.0, 0.5, 0.0, 1.0, 1.0, 0.5, 0.0, 0.0];
    let (mut whole, mut first, mut second) = (
        Trinomial::default(),
        Trinomial::default(),
        Trinomial::default(),
    );
    let (mut pw, mut p1, mut p2) = (
        Pentanomial::default(),
        Pentanomial::default(),
        Pentanomial::default(),
    );
    for (i, pair) in games.chunks(2).enumerate() {
        let (shard, shard_p) = if i < 2 {
            (&mut first, &mut p1)
        } else {
            (&mut second, &mut p2)
        };
        for &g in pair {
            whole.add(g);
            shard.add(g);
        }
        pw.add_pair(pair[0], pair[1]);
        shard_p.add_pair(pair[0], pair[1]);
    }
    first.merge(&second);
    p1.merge(&p2);
    assert_eq!(first, whole);
    assert_eq!(p1, pw);
    // Pairs (1, 0.5) (0, 1) (1, 0.5) (0, 0): 1.5, 1, 1.5 and 0 points.
    assert_eq!(pw.counts, [1, 0, 1, 2, 0]);
}

#[test]
fn normal_cdf_known_values() {
    // Reference values from mpmath (40 digits): (1 + erf(z / sqrt 2)) / 2.
    close(normal_cdf(0.0), 0.5, 1e-15);
    close(normal_cdf(1.0), 0.841344746068543, 1e-14);
    close(normal_cdf(-2.0), 0.0227501319481792, 1e-14);
    close(normal_cdf(Z95), 0.975, 1e-13);
    close(normal_cdf(4.0), 0.999968328758167, 1e-14);
    // Both sides of the switch from the series to the continued fraction (z = 3 sqrt 2).
    close(normal_cdf(4.24), 0.999988824010668, 1e-14);
    close(normal_cdf(4.25), 0.999989311474225, 1e-14);
    close(normal_cdf(-5.0), 2.86651571879194e-7, 1e-19);
    close(normal_cdf(-10.0), 7.61985302416047e-24, 1e-36);
    assert_eq!(normal_cdf(50.0), 1.0);
    assert_eq!(normal_cdf(-50.0), 0.0);
    assert_eq!(normal_cdf(f64::INFINITY), 1.0);
    assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
}

#[test]
fn elo_of_an_even_trinomial() {
    // W=30 D=40 L=30, n = 100: s = (30 + 20) / 100 = 0.5, elo = -400 log10(1) = 0.
    // var = 0.3 (1 - 0.5)² + 0.4 (0.5 - 0.5)² + 0.3 (0.5)² = 0.075 + 0 + 0.075 = 0.15
    // sd = sqrt(0.15 / 100) = 0.0387298335; Z95 sd = 0.0759090787
    // interval 0.4240909213 .. 0.5759090787;
    // elo(0.5759090787) = -400 log10(1/0.5759090787 - 1) = -400 log10(0.7363945) = 53.15798
    // and elo(0.4240909213) = -53.15798 by symmetry, so error95 = 53.15798.
    // LOS = Φ((30 - 30) / sqrt(60)) = Φ(0) = 0.5.
    let e = elo_trinomial(&tri(30, 40, 30));
    close_estimate(e, 0.0, 53.1579797800532, 0.5, Some(0.4));
}

#[test]
fn elo_of_a_seventy_percent_trinomial() {
    // W=60 D=20 L=20, n = 100: s = (60 + 10) / 100 = 0.7.
    // elo = -400 log10(1/0.7 - 1) = -400 log10(0.4285714) = -400 (-0.3679768) = 147.19071
    // var = 0.6 (0.3)² + 0.2 (0.2)² + 0.2 (0.7)² = 0.054 + 0.008 + 0.098 = 0.16
    // sd = sqrt(0.16 / 100) = 0.04; Z95 sd = 1.959964 * 0.04 = 0.0783986
    // hi = 0.7783986: 1/hi - 1 = 0.2846869, log10 = -0.5456294, elo = 218.25178
    // lo = 0.6216014: 1/lo - 1 = 0.6087478, log10 = -0.2155629, elo =  86.22502
    // error95 = (218.25178 - 86.22502) / 2 = 66.01338
    // LOS = Φ((60 - 20) / sqrt(80)) = Φ(4.4721360) = 0.9999961279
    let e = elo_trinomial(&tri(60, 20, 20));
    close_estimate(
        e,
        147.190714117838,
        66.0133812203853,
        0.999996127891784,
        Some(0.2),
    );
    // The mirror image: the same numbers negated, LOS 1 - LOS.
    let m = elo_trinomial(&tri(20, 20, 60));
    close_estimate(
        m,
        -147.190714117838,
        66.0133812203853,
        1.0 - 0.999996127891784,
        None,
    );
}

#[test]
fn trinomial_extremes_are_none_or_infinite_never_nan() {
    assert_eq!(elo_trinomial(&Trinomial::default()), None);
    assert_eq!(elo_trinomial(&tri(10, 0, 0)), None); // 100%: +inf Elo
    assert_eq!(elo_trinomial(&tri(0, 0, 10)), None); // 0%: -inf Elo
    assert_eq!(elo_trinomial(&tri(1, 0, 0)), None);
    // All draws: s = 0.5 with zero variance: elo 0 +/- 0, LOS Φ(0/0) taken as 0.5.
    let e = elo_trinomial(&tri(0, 12, 0)).unwrap();
    assert_eq!(
        (e.elo, e.error95, e.los, e.draw_ratio),
        (0.0, 0.0, 0.5, 1.0)
    );
    // W=9 L=1: s = 0.9, elo = -400 log10(1/9) = 381.69700; var = 0.9 (0.1)² + 0.1 (0.9)² =
    // 0.09, sd = 0.0948683, interval 0.7140615 .. 1.0859385: the top passes 100%, so the
    // interval is unbounded above: error95 = +inf. LOS = Φ(8 / sqrt 10) = 0.99429398.
    let e = elo_trinomial(&tri(9, 0, 1)).unwrap();
    close(e.elo, 381.69700377573, 1e-6);
    assert_eq!(e.error95, f64::INFINITY);
    close(e.los, 0.994293981806999, 1e-9);
    // Small samples of every kind: nothing is NaN.
    for w in 0..6 {
        for d in 0..6 {
            for l in 0..6 {
                if let Some(e) = elo_trinomial(&tri(w, d, l)) {
                    assert!(e.elo.is_finite(), "{w} {d} {l}");
                    assert!(!e.error95.is_nan() && e.error95 >= 0.0, "{w} {d} {l}");
                    assert!((0.0..=1.0).contains(&e.los), "{w} {d} {l}");
                }
            }
        }
    }
}

#[test]
fn elo_of_a_pentanomial() {
    // Pairs [LL, LD, WL+DD, WD, WW] = [5, 10, 50, 20, 15], N = 100 pairs (200 games).
    // Per-game pair scores x = 0, 0.25, 0.5, 0.75, 1.
    // s = (0*5 + 0.25*10 + 0.5*50 + 0.75*20 + 1*15) / 100 = (2.5 + 25 + 15 + 15) / 100 = 0.575
    // elo = -400 log10(1/0.575 - 1) = -400 log10(0.7391304) = 52.51157
    // var_x = (5 (0.575)² + 10 (0.325)² + 50 (0.075)² + 20 (0.175)² + 15 (0.425)²) / 100
    //       = (1.653125 + 1.05625 + 0.28125 + 0.6125 + 2.709375) / 100 = 0.063125
    // sd = sqrt(0.063125 / 100) = 0.0251247; Z95 sd = 0.0492435
    // hi = 0.6242435 -> elo 88.17900; lo = 0.5257565 -> elo 17.91332
    // error95 = (88.17900 - 17.91332) / 2 = 35.13284
    // LOS = Φ((0.575 - 0.5) / 0.0251247) = Φ(2.985108) = 0.9985826
    let e = elo_pentanomial(&penta([5, 10, 50, 20, 15]));
    close_estimate(
        e,
        52.5115658557276,
        35.1328423952144,
        0.99858262545987,
        Some(0.5),
    );
    // Balanced [10, 20, 40, 20, 10]: s = 0.5, var_x = 2 (0.1 * 0.25 + 0.2 * 0.0625) = 0.075,
    // sd = sqrt(0.075 / 100) = 0.0273861, interval 0.4463242 .. 0.5536758 -> +/- 37.44206.
    let e = elo_pentanomial(&penta([10, 20, 40, 20, 10]));
    close_estimate(e, 0.0, 37.4420597353575, 0.5, None);
}

#[test]
fn pentanomial_of_independent_games_matches_trinomial() {
    // Independent games, each a win or a loss with probability 1/2: pairs are LL 1/4, WL 1/2,
    // WW 1/4. 100 pairs [25, 0, 50, 0, 25] against the 200 games W=100 L=100.
    // Trinomial: var = 0.25, sd = sqrt(0.25 / 200) = 0.0353553.
    // Pentanomial: var_x = 0.25 (0.5)² + 0.5 * 0 + 0.25 (0.5)² = 0.125, sd = sqrt(0.125 / 100)
    // = 0.0353553: the same, as the per-game variance 2 var_x = pair-points variance / 2
    // = 0.25 must be.
    let t = elo_trinomial(&tri(100, 0, 100)).unwrap();
    let p = elo_pentanomial(&penta([25, 0, 50, 0, 25])).unwrap();
    close(p.error95, t.error95, 1e-9);
    close(p.elo, t.elo, 1e-12);
    // Correlated pairs (every pair WL, the colour decides): same score, zero pair variance.
    let c = elo_pentanomial(&penta([0, 0, 100, 0, 0])).unwrap();
    assert_eq!((c.elo, c.error95, c.los), (0.0, 0.0, 0.5));
}

#[test]
fn pentanomial_extremes_are_none_or_finite() {
    assert_eq!(elo_pentanomial(&Pentanomial::default()), None);
    assert_eq!(elo_pentanomial(&penta([0, 0, 0, 0, 7])), None);
    assert_eq!(elo_pentanomial(&penta([7, 0, 0, 0, 0])), None);
    // All WD: s = 0.75, elo = -400 log10(1/3) = 190.84850, zero variance, LOS 1.
    let e = elo_pentanomial(&penta([0, 0, 0, 7, 0])).unwrap();
    close(e.elo, 190.848501887865, 1e-6);
    assert_eq!((e.error95, e.los), (0.0, 1.0));
    let e = elo_pentanomial(&penta([0, 7, 0, 0, 0])).unwrap();
    assert_eq!((e.error95, e.los), (0.0, 0.0));
    // One WW and one WD: s = 0.875, sd = 0.125 / sqrt 2: the interval passes 100%.
    let e = elo_pentanomial(&penta([0, 0, 0, 1, 1])).unwrap();
    assert_eq!(e.error95, f64::INFINITY);
    for p in small_pentanomials() {
        if let Some(e) = elo_pentanomial(&p) {
            assert!(e.elo.is_finite(), "{p:?}");
            assert!(!e.error95.is_nan(), "{p:?}");
            assert!((0.0..=1.0).contains(&e.los), "{p:?}");
        }
    }
}

#[test]
fn parse_accepts_any_order_and_one_string() {
    let expected = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    assert_eq!(
        Sprt::parse(&["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"]),
        Ok(expected)
    );
    assert_eq!(
        Sprt::parse(&["beta=0.05", "alpha=0.05", "elo1=5", "elo0=0"]),
        Ok(expected)
    );
    assert_eq!(
        Sprt::parse(&["elo0=0 elo1=5 alpha=0.05 beta=0.05"]),
        Ok(expected)
    );
    assert_eq!(
        Sprt::parse(&["elo0=-1.5", "elo1=2.5", "alpha=0.1", "beta=0.2"]),
        Ok(Sprt {
            elo0: -1.5,
            elo1: 2.5,
            alpha: 0.1,
            beta: 0.2
        })
    );
}

#[test]
fn parse_errors_are_clear() {
    let err = |args: &[&str]| Sprt::parse(args).unwrap_err();
    assert!(err(&["elo0=0", "elo1=5", "alpha=0.05"]).contains("missing beta"));
    assert!(err(&[]).contains("missing elo0, elo1, alpha, beta"));
    assert!(
        err(&["elo0=0", "elo0=1", "elo1=5", "alpha=0.05", "beta=0.05"])
            .contains("elo0 given twice")
    );
    assert!(err(&[
        "elo0=0",
        "elo1=5",
        "alpha=0.05",
        "beta=0.05",
        "model=logistic"
    ])
    .contains("unknown parameter 'model'"));
    assert!(err(&["elo0=0", "elo1=five", "alpha=0.05", "beta=0.05"])
        .contains("elo1=five: not a number"));
    assert!(err(&["elo0=0", "elo1=inf", "alpha=0.05", "beta=0.05"]).contains("not a finite number"));
    assert!(err(&["elo0", "elo1=5", "alpha=0.05", "beta=0.05"])
        .contains("expected key=value, got 'elo0'"));
    assert!(err(&["elo0=5", "elo1=5", "alpha=0.05", "beta=0.05"])
        .contains("elo0 (5) must be less than elo1 (5)"));
    assert!(err(&["elo0=0", "elo1=5", "alpha=0", "beta=0.05"]).contains("alpha (0)"));
    assert!(err(&["elo0=0", "elo1=5", "alpha=0.05", "beta=1"]).contains("beta (1)"));
    assert!(err(&["elo0=0", "elo1=5", "alpha=0.5", "beta=0.5"]).contains("alpha + beta"));
}

#[test]
fn bounds_are_walds() {
    // ln(0.05 / 0.95) = -ln 19 = -2.944438979; ln(0.95 / 0.05) = ln 19 = 2.944438979.
    let (lower, upper) = SPRT_0_5.bounds();
    close(lower, -2.94443897916644, 1e-12);
    close(upper, 2.94443897916644, 1e-12);
    // alpha = 0.1, beta = 0.2: ln(0.2 / 0.9) = -1.5040774, ln(0.8 / 0.1) = ln 8 = 2.0794415.
    let s = Sprt {
        alpha: 0.1,
        beta: 0.2,
        ..SPRT_0_5
    };
    let (lower, upper) = s.bounds();
    close(lower, -1.50407739677627, 1e-12);
    close(upper, 2.07944154167984, 1e-12);
}

/// Reference LLRs from an independent calculation in Python (mpmath, 40 digits), which finds
/// the constrained maximum-likelihood distributions by solving the Lagrange system
/// `p̂_i / p_i = λ + μ a_i, Σ p_i = 1, Σ p_i a_i = s` for (p, λ, μ) with Newton's method
/// (homotopy from the empirical mean to s), not by the θ form used here:
///
/// ```text
/// def constrained_mle(ph, a, s):  # max sum ph_i ln p_i s.t. sum p = 1, sum p a = s
///     F(p, lam, mu) = [ph_i/p_i - lam - mu*a_i for i] + [sum(p) - 1, sum(p_i a_i) - s]
///     x0 = ph + [1, 0]; step the mean constraint from xbar to s in 200 steps,
///     x0 = findroot(F, x0) at each step; check residuals < 1e-25 and all p_i > 0
/// def llr(c, elo0, elo1):
///     cr = [x if x > 0 else 1e-3 for x in c]; T = sum(cr); ph = [x / T for x in cr]
///     s_k = 1 / (1 + 10**(-elo_k / 400)); p0, p1 = constrained_mle(ph, a, s0), (.., s1)
///     return T * sum(ph_i * (ln p1_i - ln p0_i))
/// output (s0 = 0.5, s1 = 0.507195081709051 for elo0=0 elo1=5):
/// counts                     elo0 elo1  LLR                    normal approximation
/// [5, 10, 50, 20, 15]        0    5     0.741976213381093      0.813855885590324
/// [10, 20, 40, 20, 10]       0    5    -0.0345068509516862    -0.034512800533284
/// [10, 20, 40, 20, 10]      -5    5    -1.79366203433577e-41  -1.10127316441337e-40
/// [100, 400, 1000, 500, 120] 0    5     3.74794706404774       3.77275800669546
/// [0, 0, 10, 30, 0]          0    5     0.571488747979969      4.50935059239092
/// [0, 0, 7, 0, 0]            0    5    -0.0963005023552726    -2.03167259419871
/// ```
#[test]
fn llr_matches_the_independent_calculation() {
    let cases: [([u64; 5], f64, f64); 5] = [
        ([5, 10, 50, 20, 15], 0.741976213381093, 0.813855885590324),
        (
            [10, 20, 40, 20, 10],
            -0.0345068509516862,
            -0.034512800533284,
        ),
        (
            [100, 400, 1000, 500, 120],
            3.74794706404774,
            3.77275800669546,
        ),
        // Empty bins regularised to 1e-3 pairs: the exact LLR stays moderate where the normal
        // approximation (variance from nearly one bin) overshoots.
        ([0, 0, 10, 30, 0], 0.571488747979969, 4.50935059239092),
        ([0, 0, 7, 0, 0], -0.0963005023552726, -2.03167259419871),
    ];
    for (counts, exact, normal) in cases {
        let p = penta(counts);
        close(SPRT_0_5.llr(&p), exact, 1e-9);
        close(SPRT_0_5.llr_normal(&p), normal, 1e-9);
    }
    // Hand check of the normal approximation for [10, 20, 40, 20, 10]: x̄ = 0.5, σ² = 0.075,
    // s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.5071951; N (s1 - s0)(2x̄ - s0 - s1) / (2σ²)
    // = 100 * 0.0071951 * (-0.0071951) / 0.15 = -0.0345128.
    close(
        SPRT_0_5.llr_normal(&penta([10, 20, 40, 20, 10])),
        -0.0345128,
        1e-6,
    );
    // Symmetric data, symmetric hypotheses (-5 vs +5): the LLR is 0.
    let symmetric = Sprt {
        elo0: -5.0,
        ..SPRT_0_5
    };
    close(symmetric.llr(&penta([10, 20, 40, 20, 10])), 0.0, 1e-12);
    // Mirrored data swap the roles of H0 and H1 with mirrored bounds: LLR negates.
    let p = penta([5, 10, 50, 20, 15]);
    let q = penta([15, 20, 50, 10, 5]);
    close(symmetric.llr(&p), -symmetric.llr(&q), 1e-9);
    assert_eq!(SPRT_0_5.llr(&Pentanomial::default()), 0.0);
}

#[test]
fn llr_grows_linearly_with_repeated_evidence() {
    // With no empty bins the regularisation is idle and LLR(k p) = k LLR(p) exactly.
    let p = penta([10, 20, 40, 20, 10]);
    let one = SPRT_0_5.llr(&p);
    for k in [2u64, 7, 85, 1000] {
        let scaled = penta(p.counts.map(|c| c * k));
        close(SPRT_0_5.llr(&scaled), k as f64 * one, 1e-9 * k as f64);
    }
}

#[test]
fn decisions_cross_the_bounds() {
    assert_eq!(
        SPRT_0_5.decision(&Pentanomial::default()),
        SprtDecision::Continue
    );
    // LLR 3.748 >= 2.944: H1.
    assert_eq!(
        SPRT_0_5.decision(&penta([100, 400, 1000, 500, 120])),
        SprtDecision::AcceptH1
    );
    // Even play: LLR = -0.0345068509516862 k for k copies of [10, 20, 40, 20, 10];
    // -2.944439 / -0.034507 = 85.33, so k = 85 continues (-2.933) and k = 86 accepts H0
    // (-2.968).
    let even = |k: u64| penta([10, 20, 40, 20, 10].map(|c| c * k));
    assert_eq!(SPRT_0_5.decision(&even(85)), SprtDecision::Continue);
    assert_eq!(SPRT_0_5.decision(&even(86)), SprtDecision::AcceptH0);
    // A stronger player (9 points per 16 games: s = 0.5625, +43.7 Elo), pair by pair: the
    // test continues, then stops on H1 once the LLR reaches ln 19.
    let pattern: [(f64, f64); 8] = [
        (1.0, 0.5),
        (0.5, 0.5),
        (1.0, 0.0),
        (0.5, 0.0),
        (1.0, 1.0),
        (0.5, 1.0),
        (0.0, 0.0),
        (1.0, 0.5),
    ];
    let (_, upper) = SPRT_0_5.bounds();
    let mut p = Pentanomial::default();
    let mut previous_llr = 0.0;
    let mut stopped_at = None;
    for i in 0..10_000 {
        let (a, b) = pattern[i % pattern.len()];
        p.add_pair(a, b);
        match SPRT_0_5.decision(&p) {
            SprtDecision::Continue => previous_llr = SPRT_0_5.llr(&p),
            SprtDecision::AcceptH1 => {
                stopped_at = Some(p.pairs());
                break;
            }
            SprtDecision::AcceptH0 => panic!("a +43.7 Elo player accepted H0"),
        }
    }
    let pairs = stopped_at.expect("the SPRT decides");
    assert!(pairs > 8, "decided after {pairs} pairs");
    // It stops at the first pair that takes the LLR to the bound, not later.
    let llr = SPRT_0_5.llr(&p);
    assert!(
        previous_llr < upper && llr >= upper,
        "LLR {previous_llr} then {llr} at {pairs} pairs"
    );
    // A weaker player is rejected.
    let mut weak = Pentanomial::default();
    for _ in 0..200 {
        for (a, b) in pattern {
            weak.add_pair(1.0 - a, 1.0 - b);
        }
    }
    assert_eq!(SPRT_0_5.decision(&weak), SprtDecision::AcceptH0);
}

#[test]
fn llr_is_never_nan() {
    let configs = [
        SPRT_0_5,
        Sprt {
            elo0: -10.0,
            elo1: 10.0,
            ..SPRT_0_5
        },
        Sprt {
            elo0: 500.0,
            elo1: 2000.0,
            ..SPRT_0_5
        },
        // Not accepted by parse, but built by hand: the scores clamp inside (0, 1).
        Sprt {
            elo0: -1e6,
            elo1: 1e6,
            ..SPRT_0_5
        },
    ];
    for sprt in configs {
        for p in small_pentanomials() {
            let llr = sprt.llr(&p);
            assert!(llr.is_finite(), "{sprt:?} {p:?}: {llr}");
            assert!(sprt.llr_normal(&p).is_finite(), "{sprt:?} {p:?}");
        }
        for big in [1u64 << 20, 1 << 40] {
            for bin in 0..5 {
                let mut counts = [0; 5];
                counts[bin] = big;
                assert!(sprt.llr(&penta(counts)).is_finite(), "{sprt:?} {counts:?}");
            }
        }
    }
}
