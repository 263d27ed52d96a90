//! Match statistics for `roger arena`: win/draw/loss and pentanomial pair counts, Elo with a 95%
//! interval, likelihood of superiority (LOS), draw ratio, and the SPRT.
//!
//! Everything is computed from counts that add up ([`Trinomial::merge`], [`Pentanomial::merge`]),
//! so results of shards merged by `roger arena merge` give the same statistics as one long run.
//!
//! # Formulas
//!
//! * **Score** `s` = mean points per game of player A; **Elo** = `-400 log10(1/s - 1)` (the
//!   logistic curve, as cutechess and fastchess report it).
//! * **95% interval**: `s ± z sd` with `z = 1.959963984540054` (the 97.5% normal quantile) and `sd`
//!   the standard deviation of the mean score, both ends mapped through the Elo formula;
//!   `error95` is half the width of the mapped interval (fastchess `elo_wdl.cpp` and
//!   `elo_pentanomial.cpp`: `error_ = (scoreToEloDiff(upper) - scoreToEloDiff(lower)) / 2`).
//!   - Trinomial: `var = W/n (1-s)² + D/n (1/2-s)² + L/n s²` is the variance of one game's points,
//!     `sd = sqrt(var / n)` over `n` games.
//!   - Pentanomial: a pair's per-game score is `x ∈ {0, 1/4, 1/2, 3/4, 1}` (pair points / 2) and
//!     the mean score is the mean of `x` over the `N` pairs, so `sd = sqrt(var_x / N)` with
//!     `var_x = Σ c_i/N (x_i - s)²`. In pair points `P = 2x`: `Var(P) = 4 var_x`, and with
//!     `n = 2N` games `var_x / N = (Var(P) / 2) / n`, i.e. the per-game variance is the pair
//!     variance / 2 — the brief's rule, derived. When the two games of a pair are independent this
//!     equals the trinomial variance (test
//!     `pentanomial_of_independent_games_matches_trinomial`);
//!     correlated colours (the usual case: a strong opening favours one side in both games) make
//!     it smaller, which is why the pentanomial interval is tighter.
//! * **LOS**: trinomial `Φ((W - L) / sqrt(W + L))` (cutechess); pentanomial `Φ((s - 1/2) / sd)`
//!   with the pentanomial `sd` above (fastchess `EloPentanomial::los`).
//! * **SPRT**: the generalised SPRT on the pentanomial model with logistic Elo bounds, as fastchess
//!   computes it (`app/src/matchmaking/sprt/sprt.cpp`, `SPRT::getLLR` for the pentanomial and
//!   `getLLR_logistic`, model `logistic`), from Michel Van den Bergh, *Comments on Normalized Elo*,
//!   <https://www.cantate.be/Fishtest/normalized_elo_practical.pdf>, Proposition 1.1: the maximum
//!   likelihood distribution with mean `s` given the empirical one `p̂` over scores `a_i` is
//!   `p_i = p̂_i / (1 + θ (a_i - s))`, with `θ` the root of
//!   `Σ p̂_i (a_i - s) / (1 + θ (a_i - s)) = 0`
//!   (eq. 1.2, 1.3). Then `LLR = N Σ p̂_i ln(p1_i / p0_i)` with `s0`, `s1` the scores of `elo0`,
//!   `elo1`. Empty bins are regularised to 1e-3 pairs, as fastchess does. See [`Sprt::llr`].
//!
//! # Extreme scores
//!
//! With a 0% or 100% score the Elo difference is infinite: [`elo_trinomial`] and
//! [`elo_pentanomial`] then return `None`, as they do with no games. When only the *interval*
//! reaches 0% or 100% (few games, lopsided score) the estimate is returned with
//! `error95 = f64::INFINITY`: the 95% interval is unbounded on that side. No function returns NaN.

/// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval is `± Z95` sd.
pub const Z95: f64 = 1.959963984540054;

/// Pseudo-count given to an empty pentanomial bin in the SPRT (fastchess `regularize`: 1e-3).
pub const SPRT_PSEUDO_COUNT: f64 = 1e-3;

/// Results of one player (A) against the field, game by game: from A's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Game pairs (the same opening with colours swapped) by A's pair score: index 0 = 0 points (LL),
/// 1 = 0.5 (LD), 2 = 1 (WL or DD), 3 = 1.5 (WD), 4 = 2 (WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Trinomial {
    /// Records one game by A's points: 1 a win, 0.5 a draw, 0 a loss. Other values go to the
    /// nearest of the three (`>= 0.75` a win, `<= 0.25` a loss); NaN counts as a draw.
    pub fn add(&mut self, points: f64) {
        if points >= 0.75 {
            self.wins += 1;
        } else if points <= 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// A's points: wins + draws / 2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean points per game, 0..1; 0.5 (neutral, not NaN) with no games.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Draws per game, 0..1; 0 with no games.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.draws as f64 / n as f64,
        }
    }

    pub fn merge(&mut self, other: &Trinomial) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

impl Pentanomial {
    /// Per-game score of a pair in each bin: pair points / 2.
    pub const BIN_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// Records a pair by A's points in each of its two games (1, 0.5 or 0). The pair's total is
    /// rounded to the nearest half point and clamped to 0..2; NaN counts as a 1-point pair.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round();
        let bin = if half_points.is_nan() {
            2
        } else {
            half_points.clamp(0.0, 4.0) as usize
        };
        self.counts[bin] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Games in the counted pairs: 2 per pair.
    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// Mean points per game, 0..1; 0.5 (neutral, not NaN) with no pairs.
    pub fn score(&self) -> f64 {
        match self.pairs() {
            0 => 0.5,
            n => {
                let sum: f64 = (0..5)
                    .map(|i| self.counts[i] as f64 * Self::BIN_SCORES[i])
                    .sum();
                sum / n as f64
            }
        }
    }

    pub fn merge(&mut self, other: &Pentanomial) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts.iter()) {
            *mine += theirs;
        }
    }
}

/// An Elo estimate of A against the field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Logistic Elo difference, finite.
    pub elo: f64,
    /// Half-width of the 95% interval, in Elo; `f64::INFINITY` when the score interval reaches
    /// 0% or 100%.
    pub error95: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
    /// Trinomial: draws per game. Pentanomial: drawn pairs (1 point of 2: WL or DD) per pair; the
    /// per-game draw ratio is not recoverable from pair counts, use [`Trinomial::draw_ratio`].
    pub draw_ratio: f64,
}

/// Logistic Elo difference of a score: `-400 log10(1/s - 1)`; `±∞` at and beyond 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`
/// (fastchess `leloToScore`).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function Φ, accurate to about 1e-15 (Rust's `erf` is not
/// stable yet). `Φ(z) = (1 + erf(z/√2)) / 2`; `erf` by its series with positive terms
/// `erf(x) = 2/√π e^(-x²) Σ 2^k x^(2k+1) / (1·3·…·(2k+1))` below x = 3, and `erfc` by its
/// continued fraction `e^(-x²)/√π / (x + (1/2)/(x + 1/(x + (3/2)/(x + …))))` above.
pub fn normal_cdf(z: f64) -> f64 {
    if z.is_nan() {
        return 0.5;
    }
    let x = z.abs() / std::f64::consts::SQRT_2;
    // erfc(x) for x >= 0.
    let erfc = if x < 3.0 {
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        for k in 1..200 {
            term *= 2.0 * x2 / (2 * k + 1) as f64;
            sum += term;
            if term < 1e-17 * sum {
                break;
            }
        }
        1.0 - 2.0 / std::f64::consts::PI.sqrt() * (-x2).exp() * sum
    } else if x < 27.0 {
        let mut t = x;
        for k in (1..=80).rev() {
            t = x + (k as f64 / 2.0) / t;
        }
        (-x * x).exp() / std::f64::consts::PI.sqrt() / t
    } else {
        0.0
    };
    if z >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// Φ(num / den) with the limits of a zero denominator: 1, 0, or 0.5 for 0/0.
fn normal_cdf_ratio(num: f64, den: f64) -> f64 {
    if den > 0.0 {
        normal_cdf(num / den)
    } else if num > 0.0 {
        1.0
    } else if num < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// Half the width of the Elo interval mapped from `score ± Z95 sd`.
fn error95(score: f64, sd: f64) -> f64 {
    (score_to_elo(score + Z95 * sd) - score_to_elo(score - Z95 * sd)) / 2.0
}

/// Elo from game results. `None` with no games, or with a 0% or 100% score (infinite Elo).
pub fn elo_trinomial(t: &Trinomial) -> Option<EloEstimate> {
    let n = t.games();
    if n == 0 || t.wins + t.draws == 0 || t.draws + t.losses == 0 {
        return None;
    }
    let n = n as f64;
    let s = t.score();
    let (w, d, l) = (t.wins as f64 / n, t.draws as f64 / n, t.losses as f64 / n);
    let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
    let sd = (var / n).sqrt();
    let decisive = (t.wins + t.losses) as f64;
    Some(EloEstimate {
        elo: score_to_elo(s),
        error95: error95(s, sd),
        los: normal_cdf_ratio(t.wins as f64 - t.losses as f64, decisive.sqrt()),
        draw_ratio: t.draw_ratio(),
    })
}

/// Elo from game pairs. `None` with no pairs, or with a 0% or 100% score (infinite Elo).
/// `draw_ratio` is the share of drawn pairs (index 2), see [`EloEstimate::draw_ratio`].
pub fn elo_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
    let pairs = p.pairs();
    if pairs == 0 || p.counts[4] == pairs || p.counts[0] == pairs {
        return None;
    }
    let n = pairs as f64;
    let s = p.score();
    let var: f64 = (0..5)
        .map(|i| p.counts[i] as f64 / n * (Pentanomial::BIN_SCORES[i] - s).powi(2))
        .sum();
    let sd = (var / n).sqrt();
    Some(EloEstimate {
        elo: score_to_elo(s),
        error95: error95(s, sd),
        los: normal_cdf_ratio(s - 0.5, sd),
        draw_ratio: p.counts[2] as f64 / n,
    })
}

/// An SPRT of H0: Elo = `elo0` against H1: Elo = `elo1` (logistic Elo), with error rates `alpha`
/// (accepting H1 when H0 holds) and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05`: the four keys in any order, all required, each
    /// once. An argument may also hold several space-separated pairs. Checks the values as
    /// fastchess does: elo0 < elo1, 0 < alpha < 1, 0 < beta < 1, alpha + beta < 1.
    pub fn parse(args: &[&str]) -> Result<Sprt, String> {
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        let mut values: [Option<f64>; 4] = [None; 4];
        for item in args.iter().flat_map(|arg| arg.split_whitespace()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(format!(
                    "SPRT: expected key=value, got '{item}' \
                     (e.g. elo0=0 elo1=5 alpha=0.05 beta=0.05)"
                ));
            };
            let Some(index) = KEYS.iter().position(|k| *k == key) else {
                return Err(format!(
                    "SPRT: unknown parameter '{key}' (expected elo0, elo1, alpha, beta)"
                ));
            };
            if values[index].is_some() {
                return Err(format!("SPRT: {key} given twice"));
            }
            let number: f64 = value
                .parse()
                .map_err(|_| format!("SPRT: {key}={value}: not a number"))?;
            if !number.is_finite() {
                return Err(format!("SPRT: {key}={value}: not a finite number"));
            }
            values[index] = Some(number);
        }
        let missing: Vec<&str> = KEYS
            .iter()
            .zip(values.iter())
            .filter(|(_, v)| v.is_none())
            .map(|(k, _)| *k)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "SPRT: missing {} (all of elo0, elo1, alpha, beta are required)",
                missing.join(", ")
            ));
        }
        let [Some(elo0), Some(elo1), Some(alpha), Some(beta)] = values else {
            unreachable!("all four values checked present");
        };
        let sprt = Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        };
        sprt.validate()?;
        Ok(sprt)
    }

    /// The checks of [`Sprt::parse`] on an SPRT built by hand.
    pub fn validate(&self) -> Result<(), String> {
        let Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        } = *self;
        if !(elo0.is_finite() && elo1.is_finite() && alpha.is_finite() && beta.is_finite()) {
            return Err("SPRT: elo0, elo1, alpha and beta must be finite numbers".to_string());
        }
        if elo0 >= elo1 {
            return Err(format!(
                "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"
            ));
        }
        if alpha <= 0.0 || alpha >= 1.0 {
            return Err(format!("SPRT: alpha ({alpha}) must be between 0 and 1"));
        }
        if beta <= 0.0 || beta >= 1.0 {
            return Err(format!("SPRT: beta ({beta}) must be between 0 and 1"));
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "SPRT: alpha + beta ({}) must be less than 1",
                alpha + beta
            ));
        }
        Ok(())
    }

    /// Wald's bounds on the LLR: `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`; at or below
    /// the first H0 is accepted, at or above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 on the pentanomial counts: the generalised SPRT of
    /// fastchess (`sprt.cpp`, `getLLR` pentanomial + `getLLR_logistic`) and Van den Bergh's
    /// Proposition 1.1 (see the module documentation). 0 with no pairs.
    ///
    /// Each empty bin counts 1e-3 pairs ([`SPRT_PSEUDO_COUNT`]); `N` is the regularised total.
    /// For `s` in `{s0, s1}`, `θ(s)` solves `Σ p̂_i d_i / (1 + θ d_i) = 0` with `d_i = a_i - s`
    /// (bisection: the left side falls from +∞ to -∞ on `(-1/(1-s), 1/s)`), the constrained MLE is
    /// `p_i = p̂_i / (1 + θ d_i)`, and
    /// `LLR = N Σ p̂_i (ln p1_i - ln p0_i) = N Σ p̂_i (ln(1 + θ0 d0_i) - ln(1 + θ1 d1_i))`.
    /// fastchess stops its (ITP) root search at |Δθ| < 1e-3; we bisect to ~1e-15 (the LLR is
    /// stationary in θ at the root, so the two agree closely).
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 || self.elo0.is_nan() || self.elo1.is_nan() {
            return 0.0;
        }
        let counts = p
            .counts
            .map(|c| if c == 0 { SPRT_PSEUDO_COUNT } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let probs = counts.map(|c| c / total);
        // Keep s strictly inside (0, 1) even for absurd bounds (elo1 = 1e6 gives s = 1.0).
        let clamp = |s: f64| s.clamp(1e-12, 1.0 - 1e-12);
        let s0 = clamp(elo_to_score(self.elo0));
        let s1 = clamp(elo_to_score(self.elo1));
        let log_lik_gap = |s: f64| -> f64 {
            // Σ p̂_i ln(1 + θ d_i) = Σ p̂_i ln(p̂_i / p_i): how much less likely the data are under
            // the best distribution with mean s than under the empirical one.
            let d = Pentanomial::BIN_SCORES.map(|a| a - s);
            let theta = solve_theta(&probs, &d, s);
            (0..5).map(|i| probs[i] * (theta * d[i]).ln_1p()).sum()
        };
        total * (log_lik_gap(s0) - log_lik_gap(s1))
    }

    /// The normal approximation of the LLR, for comparison: with `x̄`, `σ²` the mean and variance
    /// of the pairs' per-game scores (regularised like [`Sprt::llr`]),
    /// `LLR ≈ N (s1 - s0)(2x̄ - s0 - s1) / (2σ²)` — the LLR of N normal observations. Close to the
    /// exact LLR for scores near s0, s1 and many pairs; poor with empty bins. 0 with no pairs or
    /// zero variance.
    pub fn llr_normal(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let counts = p
            .counts
            .map(|c| if c == 0 { SPRT_PSEUDO_COUNT } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let mean: f64 = (0..5)
            .map(|i| counts[i] / total * Pentanomial::BIN_SCORES[i])
            .sum();
        let var: f64 = (0..5)
            .map(|i| counts[i] / total * (Pentanomial::BIN_SCORES[i] - mean).powi(2))
            .sum();
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        total * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// H1 when the LLR reaches the upper bound, H0 when it reaches the lower one.
    pub fn decision(&self, p: &Pentanomial) -> SprtDecision {
        let llr = self.llr(p);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// The root θ of `f(θ) = Σ p_i d_i / (1 + θ d_i)` on `(-1/(1-s), 1/s)`, where `d_i = a_i - s`,
/// `a = [0, 1/4, 1/2, 3/4, 1]` and every `p_i > 0`. `f` is decreasing (`f' = -Σ p_i d_i² / (…)²`)
/// and runs from +∞ at the left end (the `a = 1` term) to -∞ at the right (the `a = 0` term), so
/// the root is unique and bisection finds it.
fn solve_theta(probs: &[f64; 5], d: &[f64; 5], s: f64) -> f64 {
    let f = |theta: f64| -> f64 { (0..5).map(|i| probs[i] * d[i] / (1.0 + theta * d[i])).sum() };
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= 1e-15 * (1.0 + mid.abs()) {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
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
    fn close_estimate(
        e: Option<EloEstimate>,
        elo: f64,
        error95: f64,
        los: f64,
        draws: Option<f64>,
    ) {
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
        assert!(
            err(&["elo0=0", "elo1=inf", "alpha=0.05", "beta=0.05"]).contains("not a finite number")
        );
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
}
