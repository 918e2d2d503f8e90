//! The settings every private scenario has, built once: `epsilons`, `delta`,
//! `relation`, `seed`, `seeds`. Each constructor gives the setting's name,
//! label, help, group and rules; a scenario narrows a bound where its
//! numerics need it (`.at_least(1e-3)` on ε keeps the upper bound; a bound
//! never loosens, but through `.widened_to(range, reason)`) or changes
//! a label, and writes nothing else. ε and δ start from the accountant's own
//! ranges ([`crate::privacy::error::check_epsilon`], [`check_delta`]), so a
//! value a field accepts is one the accountant accepts.
//!
//! [`check_delta`]: crate::privacy::error::check_delta

use super::rules::Interval;
use super::{choices, Field};
use crate::privacy::error::MAX_EPSILON;
use crate::privacy::Relation;
use crate::scenarios::config_common::{PRIVACY, PROBLEM};
use crate::scenarios::error::ConfigError;

/// The ε the accountant accepts as a target: (0, [`MAX_EPSILON`]].
pub const EPSILON: Interval = Interval::open_closed(0.0, MAX_EPSILON);

/// The δ the accountant accepts: (0, 1).
pub const DELTA: Interval = Interval::open(0.0, 1.0);

/// The setting that lists the target ε's.
pub const EPSILONS: &str = "epsilons";

/// The privacy levels of the sweep: a non-empty list, every ε in [`EPSILON`]
/// (derived from `risks` when the target is given as risks: [`super::target`]).
pub fn epsilons<C: 'static>(
    get: fn(&C) -> &Vec<f64>,
    get_mut: fn(&mut C) -> &mut Vec<f64>,
) -> Field<C> {
    Field::new(EPSILONS, get, get_mut)
        .label("ε values")
        .help("list 1,2,4 or range 1:8:1")
        .slider(0.1, 100.0, true)
        .group(PRIVACY)
        .essential()
        .range(EPSILON)
        .item("ε")
        .non_empty()
}

/// δ of an (ε, δ) guarantee, in [`DELTA`].
pub fn delta<C: 'static>(get: fn(&C) -> &f64, get_mut: fn(&mut C) -> &mut f64) -> Field<C> {
    Field::new("delta", get, get_mut)
        .label("δ")
        .group(PRIVACY)
        .essential()
        .range(DELTA)
}

/// Which datasets are neighbours (replace one user, or add/remove one).
pub fn relation<C: 'static>(
    get: fn(&C) -> &Relation,
    get_mut: fn(&mut C) -> &mut Relation,
) -> Field<C> {
    Field::new("relation", get, get_mut)
        .label("neighbouring relation")
        .group(PRIVACY)
}

/// The first dataset's seed (any whole number in 0..2⁶⁴).
pub fn seed<C: 'static>(get: fn(&C) -> &u64, get_mut: fn(&mut C) -> &mut u64) -> Field<C> {
    Field::new("seed", get, get_mut)
        .label("seed")
        .group(PROBLEM)
}

/// How many datasets (seed, seed+1, …) the charts average: 1 to 20.
pub fn seeds<C: 'static>(get: fn(&C) -> &usize, get_mut: fn(&mut C) -> &mut usize) -> Field<C> {
    Field::new("seeds", get, get_mut)
        .label("seeds")
        .help("datasets seed, seed+1, …: the charts show their mean")
        .group(PROBLEM)
        .range(1..=20)
}

/// The first ε the accountant refuses when `plan` derives a run's noise from
/// it, as an error at `epsilons`.
pub fn refused_epsilon<T, E: std::fmt::Display>(
    epsilons: &[f64],
    plan: impl Fn(f64) -> Result<T, E>,
) -> Option<ConfigError> {
    epsilons.iter().find_map(|&eps| {
        plan(eps).err().map(|e| {
            ConfigError::invalid("epsilons", format!("the accountant refuses ε = {eps}: {e}"))
        })
    })
}

choices!(Relation {
    ReplaceOne => "replace one user",
    AddRemoveOne => "add or remove one user",
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::error::{check_delta, check_epsilon};

    /// The fields' ranges are the accountant's: the same verdict on every edge.
    #[test]
    fn epsilon_and_delta_ranges_are_the_accountants() {
        for x in [
            -1.0, 0.0, 5e-324, 1e-300, 1e-3, 0.5, 1.0, 99.9, 100.0, 100.5, 1e300,
        ] {
            assert_eq!(EPSILON.contains(x), check_epsilon(x).is_ok(), "ε = {x}");
            assert_eq!(DELTA.contains(x), check_delta(x).is_ok(), "δ = {x}");
        }
    }
}
