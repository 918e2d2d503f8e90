//! Neighbouring relations: which pairs of datasets the guarantee compares, and
//! the L2 sensitivity of a clipped average under each.

use serde::{Deserialize, Serialize};

/// Which datasets count as neighbours. User-level DP in the papers replaces one
/// user's whole dataset (the default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// Datasets differ by replacing one user's entire data.
    #[default]
    ReplaceOne,
    /// Datasets differ by adding or removing one user's entire data.
    AddRemoveOne,
}

impl Relation {
    /// All relations, in display order.
    pub const ALL: [Relation; 2] = [Relation::ReplaceOne, Relation::AddRemoveOne];

    /// L2 sensitivity of the mean of n contributions each of norm ≤ clip:
    /// 2·clip/n (replace-one) or clip/n (add/remove-one).
    ///
    /// Add/remove-one keeps the denominator n fixed (the usual convention when n
    /// is public). n = 0 is treated as n = 1.
    pub fn mean_sensitivity(self, clip: f64, n: usize) -> f64 {
        let n = n.max(1) as f64;
        match self {
            Relation::ReplaceOne => 2.0 * clip / n,
            Relation::AddRemoveOne => clip / n,
        }
    }

    /// The name used in config text: "replace-one" / "add-remove-one".
    pub fn name(self) -> &'static str {
        crate::names::serde_name(&self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_one_doubles_the_sensitivity_of_add_remove_one() {
        assert_eq!(Relation::ReplaceOne.mean_sensitivity(10.0, 20000), 1e-3);
        assert_eq!(Relation::AddRemoveOne.mean_sensitivity(10.0, 20000), 5e-4);
    }

    #[test]
    fn names_round_trip_through_serde() {
        for r in Relation::ALL {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.name()));
            assert_eq!(serde_json::from_str::<Relation>(&json).unwrap(), r);
        }
        assert_eq!(Relation::default(), Relation::ReplaceOne);
    }
}
