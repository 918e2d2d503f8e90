//! Typed configuration errors whose messages a user can act on. Every error
//! names the field it belongs to, so the page can show it next to that field.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum ConfigError {
    #[error("{field} must be a number (got \"{value}\")")]
    NotANumber { field: String, value: String },
    #[error("{field} must be a whole number (got \"{value}\")")]
    NotAnInteger { field: String, value: String },
    #[error("{field} must be {requirement} (got {value})")]
    OutOfRange {
        field: String,
        requirement: String,
        value: String,
    },
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    #[error("unknown setting \"{field}\"{}", if known.is_empty() { String::new() } else { format!("; known settings: {known}") })]
    UnknownField { field: String, known: String },
    #[error("unknown preset \"{name}\"; known presets: {known}")]
    UnknownPreset { name: String, known: String },
}

impl ConfigError {
    /// The config field the error belongs to ("preset" for an unknown preset).
    pub fn field(&self) -> &str {
        match self {
            ConfigError::NotANumber { field, .. }
            | ConfigError::NotAnInteger { field, .. }
            | ConfigError::OutOfRange { field, .. }
            | ConfigError::Invalid { field, .. }
            | ConfigError::UnknownField { field, .. } => field,
            ConfigError::UnknownPreset { .. } => "preset",
        }
    }

    pub fn out_of_range(field: &str, requirement: &str, value: impl ToString) -> Self {
        ConfigError::OutOfRange {
            field: field.to_string(),
            requirement: requirement.to_string(),
            value: readable_number(value.to_string()),
        }
    }

    /// `Err(out_of_range(..))` when `bad`: for validations that stop at the first problem.
    pub fn reject_if(
        bad: bool,
        field: &str,
        requirement: &str,
        value: impl ToString,
    ) -> Result<(), Self> {
        if bad {
            Err(Self::out_of_range(field, requirement, value))
        } else {
            Ok(())
        }
    }

    /// A setting name that is not one of `known` (echoed short and harmless).
    pub fn unknown_field(field: &str, known: &[&str]) -> Self {
        ConfigError::UnknownField {
            field: field.chars().filter(|c| !c.is_control()).take(40).collect(),
            known: known.join(", "),
        }
    }

    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        ConfigError::Invalid {
            field: field.to_string(),
            message: message.into(),
        }
    }
}

/// A number as a person reads it in a message: 1e300, not 301 digits.
fn readable_number(text: String) -> String {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && text.len() > 12 => format!("{x:e}"),
        _ => text.chars().take(60).collect(),
    }
}

/// Why a validated run stopped: the accountant refused a derived quantity,
/// or the results of a worker could not be read back.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RunError {
    #[error("{0}")]
    Accounting(#[from] crate::privacy::AccountingError),
    #[error("{context}: {source}")]
    AccountingAt {
        context: String,
        source: crate::privacy::AccountingError,
    },
    #[error("the results of a worker could not be read: {0}")]
    Part(String),
    /// A merge refused part `part` (shard `part` of the merge; the CLI names
    /// its file): it does not decode, or is not of the plan of the settings.
    #[error("the results of shard {part}: {message}")]
    PartRefused { part: usize, message: String },
    /// A merge whose parts leave jobs of the plan out.
    #[error("{0}")]
    Incomplete(String),
    #[error("{0}")]
    Config(String),
    /// The run's numbers stopped being finite: reported, never shown as results.
    #[error("{method} diverged ({what}); change {field}: {advice}")]
    Diverged {
        method: String,
        what: String,
        field: String,
        advice: String,
    },
}

impl From<Vec<ConfigError>> for RunError {
    /// Settings refused where a run was expected to start (e.g. a merge of parts).
    fn from(errors: Vec<ConfigError>) -> Self {
        RunError::Config(
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; "),
        )
    }
}
