//! A scenario's settings as one table: each [`Field`] says its name, how the
//! page shows it (label, help, group, choices) and how its value is read from
//! and written to text. The page's form, the URL, the CLI's `--set` and its
//! `--help` are all generated from these tables, and one generic
//! [`Config::from_pairs`] turns text into a checked config ([`Checked`]) for
//! every scenario.
//!
//! A field also states its own rules (`.range(2..=5000)`, `.positive()`,
//! `.non_empty()`, …; [`rules`]), which [`Config::validate_all`] applies with
//! one error shape; a scenario writes only the rules that tie fields together
//! ([`Config::cross_checks`]). The settings every private scenario has are
//! built once in [`common`].
//!
//! Choice settings are enums that carry their names through serde
//! (`#[serde(rename_all = "kebab-case")]`); [`Choice`] adds the page's labels,
//! and one parser and one printer serve them all.

pub mod common;
pub mod privacy_target;
pub mod rules;
pub mod target;
mod value;

pub(crate) use privacy_target::target_rows;
pub use privacy_target::PrivacyTarget;
use value::count;
pub use value::{
    choice_name, parse_choice, Choice, ChoiceInfo, FieldKind, FieldValue, OptionalList,
};

use super::error::ConfigError;
use rules::{End, Interval, IntoInterval, Numbers, Rules};
use serde::Serialize;
use std::ops::Deref;

/// A field of the config type `C` in scope, from its member's name:
/// `field!(n)`, `field!("eta" => step)` (a key other than the member), or
/// `field!(seeds via common::seeds)` (a shared constructor, [`common`]).
macro_rules! field {
    ($member:ident via $ctor:path) => {
        $ctor(|c: &C| &c.$member, |c: &mut C| &mut c.$member)
    };
    ($key:literal => $member:ident) => {
        $crate::scenarios::field::Field::new($key, |c: &C| &c.$member, |c: &mut C| &mut c.$member)
    };
    ($member:ident) => {
        $crate::scenarios::field::Field::new(
            stringify!($member),
            |c: &C| &c.$member,
            |c: &mut C| &mut c.$member,
        )
    };
}
pub(crate) use field;

/// `fn fields()` of a [`Config`] impl: `fields_once!(MyConfig, field_table)`
/// builds the table once.
macro_rules! fields_once {
    ($config:ty, $table:expr) => {
        fn fields() -> &'static [$crate::scenarios::field::Field<Self>] {
            static FIELDS: std::sync::OnceLock<Vec<$crate::scenarios::field::Field<$config>>> =
                std::sync::OnceLock::new();
            FIELDS.get_or_init($table)
        }
    };
}
pub(crate) use fields_once;

/// A [`Choice`] impl: each value with the page's label, in the page's order,
/// then any older names: `choices!(Heads { Unit => "unit norm", Gaussian =>
/// "N(0, I)" } aliases { "1/p" => InverseP })`.
macro_rules! choices {
    ($t:ty { $($v:ident => $label:expr),+ $(,)? } $(aliases { $($a:literal => $av:ident),* $(,)? })?) => {
        impl $crate::scenarios::field::Choice for $t {
            const CHOICES: &'static [(Self, &'static str)] = &[$((Self::$v, $label)),+];
            $(const ALIASES: &'static [(&'static str, Self)] = &[$(($a, Self::$av)),*];)?
        }
    };
}
pub(crate) use choices;

type Setter<C> = Box<dyn Fn(&mut C, &str, &str) -> Result<(), ConfigError> + Send + Sync>;
type Getter<C> = Box<dyn Fn(&C) -> String + Send + Sync>;
type NumbersOf<C> = Box<dyn Fn(&C) -> Option<Numbers> + Send + Sync>;

/// A bound as the builder takes it: a whole number or a real.
pub trait ToBound: Copy {
    fn to_bound(self) -> f64;
}

impl ToBound for f64 {
    fn to_bound(self) -> f64 {
        self
    }
}

impl ToBound for usize {
    fn to_bound(self) -> f64 {
        count(self)
    }
}

impl ToBound for i32 {
    fn to_bound(self) -> f64 {
        self.into()
    }
}

/// What the page and the CLI show of a setting, whatever its value: written
/// once for the field table ([`Field`]) and the settings' description
/// ([`FieldInfo`]), which both deref to it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldDescription {
    pub name: &'static str,
    pub kind: FieldKind,
    pub label: &'static str,
    pub help: &'static str,
    pub group: &'static str,
    /// One of the few settings the page shows at once (n, ε, δ and the
    /// scenario's own); every other is folded under "More settings".
    pub essential: bool,
    /// Older names of the same setting, still read (URLs, scripts).
    pub aliases: &'static [&'static str],
    /// A slider beside the text input that sets one value.
    pub slider: Option<Slider>,
    pub choices: Vec<ChoiceInfo>,
}

/// One setting of config `C`: its description and how to read and write it.
pub struct Field<C> {
    description: FieldDescription,
    /// What the value must be: checked by [`Config::validate_all`].
    pub rules: Rules,
    set: Setter<C>,
    get: Getter<C>,
    numbers: NumbersOf<C>,
}

impl<C> Deref for Field<C> {
    type Target = FieldDescription;
    fn deref(&self) -> &FieldDescription {
        &self.description
    }
}

impl<C: 'static> Field<C> {
    /// The setting `name`, stored where `get`/`get_mut` point.
    pub fn new<T: FieldValue + 'static>(
        name: &'static str,
        get: fn(&C) -> &T,
        get_mut: fn(&mut C) -> &mut T,
    ) -> Self {
        Field {
            description: FieldDescription {
                name,
                kind: T::KIND,
                label: name,
                help: "",
                group: "",
                essential: false,
                aliases: &[],
                slider: None,
                choices: T::choices(),
            },
            set: Box::new(move |c, key, text| {
                *get_mut(c) = T::parse(key, text)?;
                Ok(())
            }),
            get: Box::new(move |c| get(c).print()),
            numbers: Box::new(move |c| get(c).numbers()),
            rules: Rules::default(),
        }
    }

    pub fn label(mut self, label: &'static str) -> Self {
        self.description.label = label;
        self
    }

    pub fn help(mut self, help: &'static str) -> Self {
        self.description.help = help;
        self
    }

    pub fn group(mut self, group: &'static str) -> Self {
        self.description.group = group;
        self
    }

    /// One of the settings that matter first: the page shows it at once
    /// (the others are folded under "More settings").
    pub fn essential(mut self) -> Self {
        self.description.essential = true;
        self
    }

    pub fn aliases(mut self, aliases: &'static [&'static str]) -> Self {
        self.description.aliases = aliases;
        self
    }

    /// A slider from `min` to `max` (on a log scale if `log`) that sets one value.
    pub fn slider(mut self, min: f64, max: f64, log: bool) -> Self {
        self.description.slider = Some(Slider { min, max, log });
        self
    }

    /// The value (every entry of a list) lies in `range`: `2..=5000`,
    /// `0.0..=1.0`, or an [`Interval`] with open ends. Like every bound of
    /// the builder it narrows the field's bounds (a shared field's, [`common`]),
    /// never widens them: see [`Field::narrow`].
    pub fn range(self, range: impl IntoInterval) -> Self {
        self.narrow(range.into_interval())
    }

    fn interval(&self) -> Interval {
        self.rules.interval.unwrap_or(Interval::ANY)
    }

    /// The bounds this field already has, narrowed to `to` (an end `to`
    /// leaves unbounded keeps the one already given). A scenario tightens a
    /// shared field's bound where its numerics need it; a bound that would
    /// loosen one is a mistake in the table, refused as the table is built
    /// (a test builds every table): loosening is [`Field::widened_to`], with
    /// its reason.
    fn narrow(mut self, to: Interval) -> Self {
        let had = self.interval();
        let narrowed = had.narrowed(to);
        let loosened = |given: End, kept: End| given != End::Unbounded && given != kept;
        assert!(
            !loosened(to.lo, narrowed.lo) && !loosened(to.hi, narrowed.hi),
            "{}: {} would widen the bound {}; a wider bound is `widened_to`, with its reason",
            self.name,
            to.requirement(false),
            had.requirement(false)
        );
        self.rules.interval = Some(narrowed);
        self
    }

    /// The value lies in `range`, although the shared field (one of
    /// [`common`]) allows less: the one rule that loosens a bound, named so
    /// that a reader sees it, with `reason` saying why the wider values are
    /// sound here (kept in [`Rules::widened`]; the page does not show it).
    pub fn widened_to(mut self, range: impl IntoInterval, reason: &'static str) -> Self {
        let range = range.into_interval();
        assert!(
            !reason.trim().is_empty(),
            "{}: a widened bound says why",
            self.name
        );
        assert!(
            self.interval().narrowed(range) == self.interval(),
            "{}: {} does not hold {}; `widened_to` only widens",
            self.name,
            range.requirement(false),
            self.interval().requirement(false)
        );
        self.rules.interval = Some(range);
        self.rules.widened = Some(reason);
        self
    }

    /// The value is > `lo` (keeps an upper bound already given).
    pub fn above(self, lo: impl ToBound) -> Self {
        self.narrow(Interval {
            lo: End::Open(lo.to_bound()),
            hi: End::Unbounded,
        })
    }

    /// The value is > 0 (and finite, as every number a field holds).
    pub fn positive(self) -> Self {
        self.above(0.0)
    }

    /// The value is ≥ `lo` (keeps an upper bound already given).
    pub fn at_least(self, lo: impl ToBound) -> Self {
        self.narrow(Interval {
            lo: End::Closed(lo.to_bound()),
            hi: End::Unbounded,
        })
    }

    /// The value is ≤ `hi` (keeps a lower bound already given).
    pub fn at_most(self, hi: impl ToBound) -> Self {
        self.narrow(Interval {
            lo: End::Unbounded,
            hi: End::Closed(hi.to_bound()),
        })
    }

    /// The value is < `hi` (keeps a lower bound already given).
    pub fn below(self, hi: impl ToBound) -> Self {
        self.narrow(Interval {
            lo: End::Unbounded,
            hi: End::Open(hi.to_bound()),
        })
    }

    /// A list: holds at least one entry.
    pub fn non_empty(mut self) -> Self {
        self.rules.non_empty = true;
        self
    }

    /// A list: holds at most `max` entries.
    pub fn at_most_entries(mut self, max: usize) -> Self {
        self.rules.max_len = Some(max);
        self
    }

    /// A list: names each entry once.
    pub fn distinct(mut self) -> Self {
        self.rules.distinct = true;
        self
    }

    /// A list: largest entry first, none larger than the one before.
    pub fn largest_first(mut self) -> Self {
        self.rules.largest_first = true;
        self
    }

    /// Why the bound is there, said in its message after the bound.
    pub fn note(mut self, note: &'static str) -> Self {
        self.rules.note = Some(note);
        self
    }

    /// A list: what one entry is called in messages ("every ε must be …").
    pub fn item(mut self, item: &'static str) -> Self {
        self.rules.item = item;
        self
    }

    /// The first of this field's rules that `config` breaks, naming the field.
    pub fn check(&self, config: &C) -> Option<ConfigError> {
        let numbers = (self.numbers)(config)?;
        let whole = matches!(self.kind, FieldKind::Integer | FieldKind::IntegerList);
        self.rules
            .check(self.name, &numbers, || self.get(config), whole)
    }

    /// Sets this field of `config` from text (errors name the field).
    pub fn set(&self, config: &mut C, text: &str) -> Result<(), ConfigError> {
        (self.set)(config, self.name, text)
    }

    /// This field of `config` as text that [`Field::set`] reads back.
    pub fn get(&self, config: &C) -> String {
        (self.get)(config)
    }

    /// The page's description, with `default` the value in the default preset.
    pub fn info(&self, default: &C) -> FieldInfo {
        FieldInfo {
            description: self.description.clone(),
            default: self.get(default),
        }
    }
}

/// A slider that sets one value of a setting (e.g. one ε instead of a list),
/// so that a change can be tried in a gesture.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Slider {
    pub min: f64,
    pub max: f64,
    /// Steps evenly in log(value).
    pub log: bool,
}

/// The page's and the CLI's view of one setting: its description and its
/// value in the default preset.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldInfo {
    #[serde(flatten)]
    pub description: FieldDescription,
    pub default: String,
}

impl Deref for FieldInfo {
    type Target = FieldDescription;
    fn deref(&self) -> &FieldDescription {
        &self.description
    }
}

/// Most parse errors reported for one config (a hostile input may hold
/// hundreds of thousands of bad settings); the rest are counted.
pub const MAX_ERRORS: usize = 50;

/// Most unknown setting names quoted in the one error that counts them all.
pub const UNKNOWN_NAMED: usize = 5;

/// A field table from its runs of fields, each run one group of the page
/// (its fieldset), in the page's order: `sections([(PROBLEM, vec![…]), …])`.
pub fn sections<C: 'static, const N: usize>(
    runs: [(&'static str, Vec<Field<C>>); N],
) -> Vec<Field<C>> {
    runs.into_iter()
        .flat_map(|(group, fields)| fields.into_iter().map(move |f| f.group(group)))
        .collect()
}

/// The error for a preset name that is none of `presets` (echoed short).
pub fn unknown_preset(name: &str, presets: &[super::Preset]) -> ConfigError {
    ConfigError::UnknownPreset {
        name: name.chars().filter(|c| !c.is_control()).take(40).collect(),
        known: presets
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The error for a sweep estimated at `seconds` on one core when that is over
/// `limit` seconds: at `field`, saying what to `lower`.
pub fn too_slow(field: &str, seconds: f64, limit: f64, lower: &str) -> Option<ConfigError> {
    (seconds > limit).then(|| {
        ConfigError::invalid(
            field,
            format!(
                "this sweep would take about {:.1} h on one core (the limit is {} h); lower {lower}",
                seconds / 3600.0,
                limit / 3600.0
            ),
        )
    })
}

/// A scenario's config: its field table (with each field's own rules),
/// presets and the checks that tie fields together. Everything else (text
/// in, text out, every error at once) is provided, the same for all.
pub trait Config: Clone + Sized + 'static {
    /// Every setting, in the page's order.
    fn fields() -> &'static [Field<Self>];
    /// The named starting point (names are matched trimmed, in any case).
    fn preset(name: &str) -> Result<Self, ConfigError>;
    /// The scenario's own rules across fields (k ≤ d, what the accountant
    /// derives, memory and time), each naming the field to change. `failed`
    /// holds the errors of the fields' own rules: a check that needs a field
    /// to be sane first skips while it is reported.
    fn cross_checks(&self, failed: &[ConfigError]) -> Vec<ConfigError>;

    /// The privacy target as the accountant reads it: the ε values, or the
    /// attack risks that drive them ([`target`]), from the config's
    /// [`PrivacyTarget`] and how its runs are accounted.
    fn risk_target(&self) -> target::RiskTarget<'_>;

    /// Every problem of a parsed config, each naming its field: every
    /// field's rules, the privacy target given as risks, then the cross-field
    /// checks (an error at the ε list that risks imply is named at `risks`).
    fn validate_all(&self) -> Vec<ConfigError> {
        let mut errors: Vec<ConfigError> = Self::fields()
            .iter()
            .filter_map(|f| f.check(self))
            .collect();
        let risks = target::check(self, &errors);
        errors.extend(risks);
        let cross = self.cross_checks(&errors);
        errors.extend(cross);
        target::name_the_risks(self, errors)
    }

    /// The first problem, if any.
    fn validate(&self) -> Result<(), ConfigError> {
        match self.validate_all().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The field called `key` (or one of its aliases).
    fn field(key: &str) -> Option<&'static Field<Self>> {
        let key = key.trim();
        Self::fields()
            .iter()
            .find(|f| f.name == key || f.aliases.contains(&key))
    }

    /// Sets one field from text; an unknown name is an error that lists the known ones.
    fn apply_field(&mut self, key: &str, text: &str) -> Result<(), ConfigError> {
        match Self::field(key) {
            Some(f) => f.set(self, text),
            None if key.trim() == "preset" => Err(ConfigError::invalid(
                "preset",
                "the preset is chosen on its own (the preset menu, --preset), not as a setting",
            )),
            None => Err(ConfigError::unknown_field(
                key,
                &Self::fields().iter().map(|f| f.name).collect::<Vec<_>>(),
            )),
        }
    }

    /// Every field as `(name, text)`, in the table's order; [`Config::apply_field`]
    /// reads each back.
    fn to_fields(&self) -> Vec<(&'static str, String)> {
        Self::fields()
            .iter()
            .map(|f| (f.name, f.get(self)))
            .collect()
    }

    /// A checked config from a preset and `key=value` pairs: every field
    /// whose text does not parse, and every check that fails on the fields
    /// that did, at once (so the page can mark every bad field).
    fn from_pairs<'a>(
        preset: &str,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Checked<Self>, Vec<ConfigError>> {
        let mut config = Self::preset(preset).map_err(|e| vec![e])?;
        let mut errors: Vec<ConfigError> = Vec::new();
        // Unknown names are gathered into one error (a hostile input may hold
        // a hundred thousand): the first few, their count, the known ones.
        let mut unknown: Vec<ConfigError> = Vec::new();
        let mut unknown_count = 0usize;
        let mut dropped = 0usize;
        let mut epsilons_given = false;
        for (k, v) in pairs {
            epsilons_given |= Self::field(k).is_some_and(|f| f.name == common::EPSILONS);
            match config.apply_field(k, v) {
                Ok(()) => {}
                Err(e @ ConfigError::UnknownField { .. }) => {
                    unknown_count += 1;
                    if unknown.len() < UNKNOWN_NAMED {
                        unknown.push(e);
                    }
                }
                Err(e) if errors.len() < MAX_ERRORS => errors.push(e),
                Err(_) => dropped += 1,
            }
        }
        match unknown.as_slice() {
            [] => {}
            [one] if unknown_count == 1 => errors.insert(0, one.clone()),
            [ConfigError::UnknownField { known, .. }, ..] => {
                let mut names = unknown
                    .iter()
                    .map(|e| format!("\"{}\"", e.field()))
                    .collect::<Vec<_>>()
                    .join(", ");
                if unknown_count > unknown.len() {
                    names.push_str(&format!(" and {} more", unknown_count - unknown.len()));
                }
                errors.insert(
                    0,
                    ConfigError::invalid(
                        "settings",
                        format!(
                            "{unknown_count} unknown settings: {names}; known settings: {known}"
                        ),
                    ),
                );
            }
            _ => {}
        }
        if dropped > 0 {
            errors.push(ConfigError::invalid(
                "settings",
                format!("and {dropped} more problems with the settings given"),
            ));
        }
        errors.extend(target::settle(&mut config, epsilons_given));
        let unparsed: Vec<String> = errors.iter().map(|e| e.field().to_string()).collect();
        match Checked::new(config) {
            Ok(checked) if errors.is_empty() => Ok(checked),
            Ok(_) => Err(errors),
            Err(failed) => {
                errors.extend(
                    failed
                        .into_iter()
                        .filter(|e| !unparsed.iter().any(|f| f == e.field())),
                );
                Err(errors)
            }
        }
    }

    /// The page's description of every field (defaults from `default`).
    fn field_infos(default: &Self) -> Vec<FieldInfo> {
        Self::fields().iter().map(|f| f.info(default)).collect()
    }
}

/// A config that has passed its checks, as a type: a `C` whose
/// [`Config::validate_all`] found nothing. Only [`Checked::new`] makes one
/// (and [`Config::from_pairs`], which parses text and then checks through
/// it); every sweep, run and audit a scenario starts takes one, so no sweep
/// runs an unchecked config and none needs to check again. The idea is
/// linfa's parameter guard (unchecked parameters cannot reach an algorithm);
/// here one generic wrapper serves every scenario's config.
///
/// Read it as a `C` (it derefs to one); to change a setting, take the config
/// out ([`Checked::into_inner`]) and check it again.
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
mod checked_tests;
