//! How the CLI reports refused settings: every error, one a line.

use crate::scenarios::ConfigError;

/// Every error of `errors`, one a line, each naming its setting.
pub(super) fn join_errors(errors: &[ConfigError]) -> String {
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}
