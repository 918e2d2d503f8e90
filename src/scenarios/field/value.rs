//! How a setting's text becomes its value and back ([`FieldValue`]): numbers,
//! lists, switches and choices ([`Choice`]), each with the numbers its field's
//! rules read.

use super::rules::Numbers;
use crate::scenarios::error::ConfigError;
use crate::scenarios::text::{
    parse_bool, parse_f64, parse_f64_list, parse_u64, parse_usize, parse_usize_list,
};

/// How a setting is written (the page picks its input from this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FieldKind {
    /// A whole number ≥ 0.
    Integer,
    /// A finite real number.
    Real,
    /// A seed: any whole number in 0..2⁶⁴.
    Seed,
    /// A list of reals ("1,2,4" or a range "1:8:1").
    RealList,
    /// A list of whole numbers.
    IntegerList,
    /// on / off.
    Switch,
    /// One of the listed choices.
    Choice,
}

/// One choice of a choice setting, as the page lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceInfo {
    /// The text the setting takes (URL, CLI, config file).
    pub value: String,
    /// What the page shows.
    pub label: &'static str,
}

/// An enum setting: its values carry their names through serde; this adds the
/// page's labels (in the page's order) and any older names still accepted.
pub trait Choice: Copy + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// Every value with the label the page shows, in the page's order.
    const CHOICES: &'static [(Self, &'static str)];
    /// Other names accepted on input (e.g. an older spelling).
    const ALIASES: &'static [(&'static str, Self)] = &[];
}

/// The text name of a choice (its serde name).
pub fn choice_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        // Every Choice is a unit enum variant: serde gives its name as a string.
        other => format!("{other:?}"),
    }
}

/// A choice from its text: any listed name or alias, in any case.
pub fn parse_choice<T: Choice>(field: &str, text: &str) -> Result<T, ConfigError> {
    let names: Vec<String> = T::CHOICES.iter().map(|(v, _)| choice_name(v)).collect();
    let wanted = text.trim();
    if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(wanted)) {
        return Ok(T::CHOICES[i].0);
    }
    if let Some((_, v)) = T::ALIASES
        .iter()
        .find(|(a, _)| a.eq_ignore_ascii_case(wanted))
    {
        return Ok(*v);
    }
    let listed: Vec<&str> = names.iter().map(String::as_str).collect();
    Err(crate::scenarios::text::not_one_of(field, text, &listed))
}

use serde::de::DeserializeOwned;
use serde::Serialize;
/// A setting's value type: read from and written to text.
pub trait FieldValue: Sized {
    const KIND: FieldKind;
    fn parse(field: &str, text: &str) -> Result<Self, ConfigError>;
    fn print(&self) -> String;
    fn choices() -> Vec<ChoiceInfo> {
        Vec::new()
    }
    /// The numbers the field's rules read (none for switches and choices).
    fn numbers(&self) -> Option<Numbers> {
        None
    }
}

/// A count as a number a rule compares (exact below 2⁵³; above it, far
/// beyond every bound a rule states).
pub(super) fn count(x: usize) -> f64 {
    x as f64
}

fn list<T: std::fmt::Display>(v: &[T]) -> String {
    v.iter()
        .map(|x| format!("{x}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The settings that hold one number: `type: kind, parser, the number its
/// rules compare (none for a seed, which any value in 0..2⁶⁴ is)`.
macro_rules! number_values {
    ($($t:ty: $kind:ident, $parse:ident, $number:expr;)*) => {
        $(impl FieldValue for $t {
            const KIND: FieldKind = FieldKind::$kind;
            fn parse(field: &str, text: &str) -> Result<Self, ConfigError> {
                $parse(field, text)
            }
            fn print(&self) -> String {
                self.to_string()
            }
            fn numbers(&self) -> Option<Numbers> {
                ($number)(*self).map(Numbers::One)
            }
        })*
    };
}

number_values! {
    usize: Integer, parse_usize, |x| Some(count(x));
    u64: Seed, parse_u64, |_| None;
    f64: Real, parse_f64, Some;
}

/// A number a list setting holds ("1,2,4" or a range "1:8:1"): how a list
/// of them is read, and the number a rule compares for each entry. One
/// [`FieldValue`] serves every list of them.
pub trait ListItem: Copy + std::fmt::Display + 'static {
    const LIST_KIND: FieldKind;
    fn parse_list(field: &str, text: &str) -> Result<Vec<Self>, ConfigError>;
    fn number(self) -> f64;
}

impl ListItem for f64 {
    const LIST_KIND: FieldKind = FieldKind::RealList;
    fn parse_list(field: &str, text: &str) -> Result<Vec<Self>, ConfigError> {
        parse_f64_list(field, text)
    }
    fn number(self) -> f64 {
        self
    }
}

impl ListItem for usize {
    const LIST_KIND: FieldKind = FieldKind::IntegerList;
    fn parse_list(field: &str, text: &str) -> Result<Vec<Self>, ConfigError> {
        parse_usize_list(field, text)
    }
    fn number(self) -> f64 {
        count(self)
    }
}

impl<T: ListItem> FieldValue for Vec<T> {
    const KIND: FieldKind = T::LIST_KIND;
    fn parse(field: &str, text: &str) -> Result<Self, ConfigError> {
        T::parse_list(field, text)
    }
    fn print(&self) -> String {
        list(self)
    }
    fn numbers(&self) -> Option<Numbers> {
        Some(Numbers::List(self.iter().map(|&x| x.number()).collect()))
    }
}

/// A list that may be empty (of widths; of attack risks): written "none".
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct OptionalList<T = usize>(pub Vec<T>);

impl<T> std::ops::Deref for OptionalList<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T: ListItem> FieldValue for OptionalList<T> {
    const KIND: FieldKind = T::LIST_KIND;
    fn parse(field: &str, text: &str) -> Result<Self, ConfigError> {
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("none") {
            Ok(OptionalList(Vec::new()))
        } else {
            T::parse_list(field, text).map(OptionalList)
        }
    }
    fn print(&self) -> String {
        if self.0.is_empty() {
            "none".into()
        } else {
            list(&self.0)
        }
    }
    fn numbers(&self) -> Option<Numbers> {
        self.0.numbers()
    }
}

impl FieldValue for bool {
    const KIND: FieldKind = FieldKind::Switch;
    fn parse(field: &str, text: &str) -> Result<Self, ConfigError> {
        parse_bool(field, text)
    }
    fn print(&self) -> String {
        if *self { "on" } else { "off" }.into()
    }
    fn choices() -> Vec<ChoiceInfo> {
        vec![
            ChoiceInfo {
                value: "on".into(),
                label: "on",
            },
            ChoiceInfo {
                value: "off".into(),
                label: "off",
            },
        ]
    }
}

impl<T: Choice> FieldValue for T {
    const KIND: FieldKind = FieldKind::Choice;
    fn parse(field: &str, text: &str) -> Result<Self, ConfigError> {
        parse_choice(field, text)
    }
    fn print(&self) -> String {
        choice_name(self)
    }
    fn choices() -> Vec<ChoiceInfo> {
        T::CHOICES
            .iter()
            .map(|(v, label)| ChoiceInfo {
                value: choice_name(v),
                label,
            })
            .collect()
    }
}
