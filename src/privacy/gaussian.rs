//! The Gaussian mechanism: add N(0, σ²) to every entry of a release.

use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

/// Adds independent N(0, σ²) noise to every entry of `values`.
///
/// σ = 0 leaves the values unchanged (a non-private release; account for it by
/// leaving the stage out and labelling the run). A negative or non-finite σ is
/// a bug in the caller and panics rather than silently releasing data.
pub fn add_gaussian_noise(values: &mut [f64], sigma: f64, rng: &mut impl Rng) {
    assert!(
        sigma.is_finite() && sigma >= 0.0,
        "Gaussian mechanism: σ must be finite and ≥ 0 (got {sigma})"
    );
    if sigma == 0.0 {
        return;
    }
    for v in values.iter_mut() {
        let z: f64 = rng.sample(StandardNormal);
        *v += sigma * z;
    }
}

/// A fresh vector of `len` independent N(0, σ²) draws.
pub fn gaussian_noise(len: usize, sigma: f64, rng: &mut impl Rng) -> Vec<f64> {
    let mut out = vec![0.0; len];
    add_gaussian_noise(&mut out, sigma, rng);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, Purpose};

    #[test]
    fn noise_has_mean_zero_and_the_requested_standard_deviation() {
        let mut rng = stream(42, Purpose::MechanismNoise, 0);
        let sigma = 2.5;
        let n = 200_000;
        let x = gaussian_noise(n, sigma, &mut rng);
        let mean = x.iter().sum::<f64>() / n as f64;
        let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64;
        assert!(mean.abs() < 5.0 * sigma / (n as f64).sqrt(), "{mean}");
        assert!((var.sqrt() / sigma - 1.0).abs() < 0.01, "{}", var.sqrt());
    }

    #[test]
    fn the_same_stream_gives_the_same_noise_and_sigma_zero_adds_none() {
        let a = gaussian_noise(8, 1.0, &mut stream(1, Purpose::MechanismNoise, 7));
        let b = gaussian_noise(8, 1.0, &mut stream(1, Purpose::MechanismNoise, 7));
        assert_eq!(a, b);
        let mut v = [1.0, 2.0];
        add_gaussian_noise(&mut v, 0.0, &mut stream(1, Purpose::MechanismNoise, 7));
        assert_eq!(v, [1.0, 2.0]);
    }

    #[test]
    #[should_panic(expected = "σ must be finite")]
    fn a_nan_sigma_panics_instead_of_releasing_data() {
        let mut v = [1.0];
        add_gaussian_noise(&mut v, f64::NAN, &mut stream(1, Purpose::MechanismNoise, 0));
    }
}
