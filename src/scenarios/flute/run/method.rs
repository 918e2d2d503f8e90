//! What computed a FLUTE sweep's curve or row (Liu, Shen & Yang, ICML 2024, §7
//! and App. C, and this project's private extension): its text is the CSV's
//! `method` column and the key of its privacy entry, written once as the serde
//! name of a variant.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// "flute": linear FLUTE (Algorithm 1).
    Flute,
    /// "fedrep": FedRep, alternating minimization + QR (Collins et al.'s
    /// analysed form), from the method-of-moments start.
    Fedrep,
    /// "fedrep-ri": the same from FLUTE's random B⁰.
    FedrepRi,
    /// "fedrep-gd": FedRep as its code runs it (gradient steps on the head,
    /// then on B, the mean of the clients' B, no QR), from the
    /// method-of-moments start, zero heads.
    FedrepGd,
    /// "fedrep-gd-ri": the same from FLUTE's exact (B⁰, W⁰).
    FedrepGdRi,
    /// "fedrep-gd-sum-ri": gradient FedRep(RI) whose server sums the clients'
    /// steps on B as FLUTE's data step does (eq. 5) instead of averaging them:
    /// this project's extension, FLUTE's step without FLUTE's regularizer.
    FedrepGdSumRi,
    /// "dp-flute": DP-FLUTE (this project's extension).
    DpFlute,
    /// "private-fedrep": Private FedRep on the same clients.
    PrivateFedrep,
    /// "flute-ablation": FLUTE in the γ ablation (γ₁ = ratio·γ₂, N samples).
    FluteAblation,
}

crate::serde_named!(Method);
