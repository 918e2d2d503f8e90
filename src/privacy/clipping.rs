//! Clipping bounds each user's influence: whatever its data, a clipped
//! contribution has norm ≤ τ, which is what the sensitivity of a private
//! average rests on.

/// Frobenius (or L2) norm of a flat slice of entries.
pub fn frobenius_norm(entries: &[f64]) -> f64 {
    entries.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The factor min{1, τ/‖M‖} that `clip(M, τ)` multiplies M by.
///
/// Private FedRep (Snedeker et al., Alg. 1) prints clip(M,τ) = (M/‖M‖)·min{1, τ/‖M‖},
/// which has norm ≤ 1, not ≤ τ; Theorem 8's proof uses ‖clip(M,ψ)‖ ≤ ψ, so the
/// intended operator is M·min{1, τ/‖M‖} (Snedeker et al., proof of Theorem 8; docs/algorithms.md, Private FedRep: typos). A zero or
/// non-finite norm gets factor 0, so NaN or infinite data cannot leak through.
pub fn clip_factor(norm: f64, tau: f64) -> f64 {
    if !norm.is_finite() {
        0.0
    } else if norm <= tau {
        1.0
    } else {
        tau / norm
    }
}

/// Scales `entries` in place to Frobenius norm at most τ; returns the factor used.
pub fn clip_frobenius(entries: &mut [f64], tau: f64) -> f64 {
    let f = clip_factor(frobenius_norm(entries), tau);
    if f == 0.0 {
        // A non-finite contribution is dropped whole (0·NaN would stay NaN).
        entries.iter_mut().for_each(|x| *x = 0.0);
    } else if f != 1.0 {
        entries.iter_mut().for_each(|x| *x *= f);
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matrix_inside_the_ball_is_untouched() {
        let mut m = [0.3, -0.4];
        assert_eq!(clip_frobenius(&mut m, 1.0), 1.0);
        assert_eq!(m, [0.3, -0.4]);
    }

    #[test]
    fn a_matrix_outside_the_ball_lands_on_its_surface() {
        let mut m = [3.0, 4.0, 0.0, 0.0];
        let f = clip_frobenius(&mut m, 2.0);
        assert!((f - 0.4).abs() < 1e-15);
        assert!((frobenius_norm(&m) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn clipping_bounds_the_norm_whatever_the_data() {
        // Property over a deterministic spread of magnitudes, signs and sizes,
        // including huge and non-finite entries.
        let mut state = 0x1234_5678_u64;
        for case in 0..2000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = 1 + (state >> 60) as usize;
            let scale = 10f64.powi(((state >> 40) % 40) as i32 - 20);
            let mut m: Vec<f64> = (0..len)
                .map(|j| {
                    let u = ((state >> (j % 50)) & 0xffff) as f64 / 65535.0 - 0.5;
                    u * scale
                })
                .collect();
            if case % 97 == 0 {
                m[0] = f64::INFINITY;
            }
            if case % 89 == 0 {
                m[0] = f64::NAN;
            }
            let tau = 0.5 + (case % 7) as f64;
            clip_frobenius(&mut m, tau);
            let norm = frobenius_norm(&m);
            assert!(norm <= tau * (1.0 + 1e-12), "case {case}: {norm} > {tau}");
        }
    }
}
