//! A config that has passed its checks, as a type: [`Checked<C>`] can only be
//! made by running `C`'s checks ([`Checked::new`], or
//! [`Config::from_pairs`], which parses text
//! and then checks), and every sweep, run and audit a scenario starts takes
//! one. So no sweep runs an unchecked config, and none needs to check again.
//!
//! The idea is linfa's parameter guard (unchecked parameters cannot reach an
//! algorithm; only their checked form can): here one generic wrapper serves
//! every scenario's config, since each already has its one check,
//! [`Config::validate_all`].

use super::error::ConfigError;
use super::field::Config;
use std::ops::Deref;

/// A `C` whose checks ([`Config::validate_all`]) found nothing. Read it as a
/// `C` (it derefs to one); to change a setting, take the config out
/// ([`Checked::into_inner`]) and check it again.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked<C>(C);

impl<C: Config> Checked<C> {
    /// `config`, checked: every problem its checks find (each naming its
    /// field), or the config as checked.
    pub fn new(config: C) -> Result<Self, Vec<ConfigError>> {
        let errors = config.validate_all();
        if errors.is_empty() {
            Ok(Checked(config))
        } else {
            Err(errors)
        }
    }
}

impl<C> Checked<C> {
    /// The config itself (no longer known to be checked).
    pub fn into_inner(self) -> C {
        self.0
    }
}

impl<C> Deref for Checked<C> {
    type Target = C;
    fn deref(&self) -> &C {
        &self.0
    }
}

impl<C> AsRef<C> for Checked<C> {
    fn as_ref(&self) -> &C {
        &self.0
    }
}

/// A checked config equals the same config unchecked.
impl<C: PartialEq> PartialEq<C> for Checked<C> {
    fn eq(&self, other: &C) -> bool {
        self.0 == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenarios::trace::config::TraceConfig;

    #[test]
    fn only_a_config_whose_checks_pass_is_checked() {
        let good = TraceConfig::default();
        let checked = Checked::new(good.clone()).expect("the default is valid");
        assert_eq!(checked, good);
        assert_eq!(checked.into_inner(), good);

        let bad = TraceConfig {
            repeats: 0,
            ..TraceConfig::default()
        };
        let errors = Checked::new(bad.clone()).unwrap_err();
        assert_eq!(errors, bad.validate_all());
        assert!(errors.iter().any(|e| e.field() == "repeats"), "{errors:?}");
    }

    #[test]
    fn from_pairs_gives_a_checked_config_or_every_error() {
        let c = TraceConfig::from_pairs("trace-paper", [("repeats", "2")]).unwrap();
        assert_eq!(c.repeats, 2);
        let errors = TraceConfig::from_pairs("trace-paper", [("repeats", "0")]).unwrap_err();
        assert_eq!(errors[0].field(), "repeats");
    }
}
