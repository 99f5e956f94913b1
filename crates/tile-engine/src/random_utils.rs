//! `RandomUtils` (Java `byog.TileEngine.RandomUtils`, after Sedgewick & Wayne's `StdRandom`),
//! over any `rand` generator.
//!
//! Only [`shuffle`] (and a crate-internal bounded draw) serve the game; the rest is the
//! Java API kept for students porting their code, behind the `java-parity` feature (on by
//! default).
//!
//! Every integer result is computed from `u32`/`u64` draws, never from `usize`, so the same
//! generator state gives the same numbers on every platform.

use rand::{Rng, RngExt};

#[cfg(feature = "java-parity")]
/// A call with arguments the Java version rejects with `IllegalArgumentException`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RandomUtilsError {
    /// An empty or inverted range, e.g. `uniform(rng, 0)` or `uniform_range(rng, 5, 5)`.
    #[error("empty range: {0}")]
    EmptyRange(String),
    /// A probability outside `[0, 1]`, or probabilities that do not sum to 1.
    #[error("invalid probability: {0}")]
    InvalidProbability(String),
}

#[cfg(feature = "java-parity")]
/// A real number uniformly in `[0, 1)` (Java `uniform(Random)`).
pub fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    rng.random::<f64>()
}

#[cfg(feature = "java-parity")]
/// An integer uniformly in `[0, n)` (Java `uniform(Random, int n)`).
///
/// # Errors
/// [`RandomUtilsError::EmptyRange`] when `n <= 0`.
pub fn uniform_int<R: Rng + ?Sized>(rng: &mut R, n: i32) -> Result<i32, RandomUtilsError> {
    if n <= 0 {
        return Err(RandomUtilsError::EmptyRange(format!("[0, {n})")));
    }
    Ok(rng.random_range(0..n))
}

#[cfg(feature = "java-parity")]
/// An integer uniformly in `[a, b)` (Java `uniform(Random, int a, int b)`).
///
/// # Errors
/// [`RandomUtilsError::EmptyRange`] when `b <= a`.
pub fn uniform_range<R: Rng + ?Sized>(
    rng: &mut R,
    a: i32,
    b: i32,
) -> Result<i32, RandomUtilsError> {
    if b <= a {
        return Err(RandomUtilsError::EmptyRange(format!("[{a}, {b})")));
    }
    Ok(rng.random_range(a..b))
}

#[cfg(feature = "java-parity")]
/// A real number uniformly in `[a, b)` (Java `uniform(Random, double a, double b)`).
///
/// # Errors
/// [`RandomUtilsError::EmptyRange`] when `!(a < b)` (NaN included).
pub fn uniform_range_f64<R: Rng + ?Sized>(
    rng: &mut R,
    a: f64,
    b: f64,
) -> Result<f64, RandomUtilsError> {
    if a >= b || !a.is_finite() || !b.is_finite() {
        return Err(RandomUtilsError::EmptyRange(format!("[{a}, {b})")));
    }
    Ok(a + uniform(rng) * (b - a))
}

#[cfg(feature = "java-parity")]
/// `true` with probability `p` (Java `bernoulli(Random, double p)`).
///
/// # Errors
/// [`RandomUtilsError::InvalidProbability`] when `p` is not in `[0, 1]`.
pub fn bernoulli<R: Rng + ?Sized>(rng: &mut R, p: f64) -> Result<bool, RandomUtilsError> {
    if !(0.0..=1.0).contains(&p) {
        return Err(RandomUtilsError::InvalidProbability(format!("p = {p}")));
    }
    Ok(uniform(rng) < p)
}

#[cfg(feature = "java-parity")]
/// A standard normal sample, mean 0 and standard deviation 1, by the Marsaglia polar method
/// (Java `gaussian(Random)`).
pub fn gaussian<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    loop {
        let x = 2.0 * uniform(rng) - 1.0;
        let y = 2.0 * uniform(rng) - 1.0;
        let r = x * x + y * y;
        if r < 1.0 && r != 0.0 {
            return x * (-2.0 * r.ln() / r).sqrt();
        }
    }
}

#[cfg(feature = "java-parity")]
/// A normal sample with mean `mu` and standard deviation `sigma` (Java
/// `gaussian(Random, double mu, double sigma)`).
pub fn gaussian_with<R: Rng + ?Sized>(rng: &mut R, mu: f64, sigma: f64) -> f64 {
    mu + sigma * gaussian(rng)
}

/// Shuffles `items` uniformly in place (Knuth/Fisher-Yates; Java `shuffle(Random, T[])`).
/// Each index is drawn as a `u32` (or `u64` for slices longer than `u32::MAX`).
pub fn shuffle<R: Rng + ?Sized, T>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(feature = "java-parity")]
/// A uniformly random permutation of `0..n` (Java `permutation(Random, int n)`).
pub fn permutation<R: Rng + ?Sized>(rng: &mut R, n: u32) -> Vec<u32> {
    let mut p: Vec<u32> = (0..n).collect();
    shuffle(rng, &mut p);
    p
}

#[cfg(feature = "java-parity")]
/// An index `i` drawn with probability `probabilities[i]` (Java `discrete(Random, double[])`).
///
/// # Errors
/// [`RandomUtilsError::InvalidProbability`] when a probability is negative or not finite,
/// or when they do not sum to 1 (within 1e-14, as in Java).
pub fn discrete<R: Rng + ?Sized>(
    rng: &mut R,
    probabilities: &[f64],
) -> Result<usize, RandomUtilsError> {
    const EPSILON: f64 = 1e-14;
    if let Some(p) = probabilities
        .iter()
        .find(|p| !(**p >= 0.0 && p.is_finite()))
    {
        return Err(RandomUtilsError::InvalidProbability(format!(
            "probability {p}"
        )));
    }
    let sum: f64 = probabilities.iter().sum();
    if (sum - 1.0).abs() > EPSILON {
        return Err(RandomUtilsError::InvalidProbability(format!(
            "probabilities sum to {sum}, not 1"
        )));
    }
    loop {
        let r = uniform(rng);
        let mut total = 0.0;
        for (i, p) in probabilities.iter().enumerate() {
            total += p;
            if total > r {
                return Ok(i);
            }
        }
    }
}

/// An integer uniformly in `[0, n)` for `n >= 1`, from a `u32` draw when `n` fits in 32 bits.
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    match u32::try_from(n) {
        Ok(n32) => u64::from(rng.random_range(0..n32)),
        Err(_) => rng.random_range(0..n),
    }
}
