//! What the scenarios' settings share beyond the shared fields of
//! [`field::common`](super::field::common): the page's groups that several
//! field tables use, the range of a clip, the closing seed section, and how a
//! preset is looked up by name. Each was written out again in every
//! scenario's `config.rs` (or `checks.rs`); here once, so that a group is
//! spelled alike on every page and every scenario reads and refuses a preset
//! name the same way.

use super::error::ConfigError;
use super::field::rules::Interval;

/// The page's group of the problem's settings (sizes, data model, seeds).
pub const PROBLEM: &str = "Problem";

/// The page's group of the privacy settings (ε, δ, the relation, …).
pub const PRIVACY: &str = "Privacy";

/// The page's group of the settings that only shape the charts.
pub const CHARTS: &str = "Charts";

/// The range of a clipping norm ψ (or τ): positive, and at most 1e6. A clip
/// above 1e6 already lets any gradient through: larger ones only scale the
/// noise towards overflow.
pub const CLIP: Interval = Interval::open_closed(0.0, 1e6);

/// The error for a sweep that would hold `bytes` in memory at once when that
/// is over `limit` bytes: at `field`, saying what takes them and what to
/// change ("M·N·(d + 1) numbers take 1.6 GB: lower n, m or d").
pub fn too_big(
    field: &str,
    bytes: f64,
    limit: f64,
    what: &str,
    change: &str,
) -> Option<ConfigError> {
    (bytes > limit).then(|| {
        ConfigError::invalid(
            field,
            format!("{what} take {:.1} GB: {change}", bytes / 1e9),
        )
    })
}

/// The last section of a field table: the first dataset's `seed` and how many
/// datasets (`seeds`) the charts average, in the [`PROBLEM`] group, built by
/// [`common::seed`](super::field::common::seed) and
/// [`common::seeds`](super::field::common::seeds). Inside a `field_table`
/// (`type C = …` in scope): `sections([…, seed_section!()])`.
macro_rules! seed_section {
    () => {
        (
            $crate::scenarios::config_common::PROBLEM,
            vec![
                $crate::scenarios::field::field!(seed via $crate::scenarios::field::common::seed),
                $crate::scenarios::field::field!(seeds via $crate::scenarios::field::common::seeds),
            ],
        )
    };
}
pub(crate) use seed_section;

/// `fn preset` of a [`Config`](super::field::Config) impl, from its table of
/// presets (doc comments first, if any):
/// `presets! { "flute-c1" => FluteConfig::default(), "flute-gamma" =>
/// FluteConfig { k: 6, ..FluteConfig::default() } }`. A name is matched
/// trimmed and in any case; any other is refused with the names of the
/// scenario's `PRESETS` (in scope).
macro_rules! presets {
    ($(#[$attr:meta])* $($name:literal => $config:expr),+ $(,)?) => {
        $(#[$attr])*
        fn preset(name: &str) -> Result<Self, $crate::scenarios::error::ConfigError> {
            match name.trim().to_ascii_lowercase().as_str() {
                $($name => Ok($config),)+
                other => Err($crate::scenarios::field::unknown_preset(other, PRESETS)),
            }
        }
    };
}
pub(crate) use presets;
