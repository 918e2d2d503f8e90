//! What computed a Private FedRep sweep's row or angle curve (Jain et al.,
//! "Differentially private model personalization", and its baselines): its text
//! is the CSV's `method` column, written once as the serde name of a variant.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// "private-fedrep": Private FedRep (the paper's Algorithm 1).
    PrivateFedrep,
    /// "priv-altmin": Priv-AltMin, the baseline the paper compares against.
    PrivAltmin,
    /// "fedrep": non-private FedRep, the reference.
    Fedrep,
    /// "local-gd": every user alone, local gradient descent (non-private).
    LocalGd,
}

impl Method {
    /// The name a person reads (legends, tables, explain-ε entries).
    pub fn label(self) -> &'static str {
        match self {
            Method::PrivateFedrep => "Private FedRep",
            Method::PrivAltmin => "Priv-AltMin",
            Method::Fedrep => "FedRep (non-private)",
            Method::LocalGd => "local GD (non-private)",
        }
    }
}

crate::serde_named!(Method);
