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
mod tests;
