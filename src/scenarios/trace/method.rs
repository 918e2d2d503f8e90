//! What computed a row of the trace-regression sweep (Wang et al., "Differentially
//! private low-rank matrix recovery"): its text is the CSV's `method` column, the
//! key of its privacy entry and what the claims read back, so it is written once,
//! as the serde name of a variant.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// "spectral-init": the non-private spectral start (the reference's initialization).
    SpectralInit,
    /// "rgrad": non-private Riemannian gradient descent from the spectral start.
    Rgrad,
    /// "dp-init": the private initialization (Alg. 1) alone.
    DpInit,
    /// "dp-rgrad": DP-RGrad (Alg. 2) from the private start, at the configured l*.
    DpRgrad,
    /// "dp-rgrad-lstar": DP-RGrad at each l* of the l* grid (the middle ε).
    DpRgradLstar,
}

impl Method {
    /// A whole private run (initialization and descent), which spends at 2δ.
    pub fn is_descent(self) -> bool {
        matches!(self, Method::DpRgrad | Method::DpRgradLstar)
    }

    /// The name of the method's curves on the charts (a private curve's
    /// followed by its variant and relation), which the claims look up and
    /// the privacy panel names its runs by.
    pub fn legend(self) -> &'static str {
        match self {
            Method::SpectralInit => "spectral start, non-private",
            Method::Rgrad => "RGrad, non-private",
            Method::DpInit => "DP initialization (Alg. 1)",
            Method::DpRgrad | Method::DpRgradLstar => "DP-RGrad (Alg. 2)",
        }
    }
}

crate::serde_named!(Method);
