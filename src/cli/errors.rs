//! The CLI's one error type: what went wrong, with the flag, the settings or
//! the file at fault. Its `Display` is the message `dp-explorer` prints after
//! "error: ", and [`CliError::exit_code`] the process's exit status (2: what
//! was given is refused; 1: the work failed).

use crate::bench::BenchError;
use crate::privacy::AccountingError;
use crate::scenarios::{ConfigError, RunError};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What the CLI was doing to a file when the file system refused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    Read,
    Write,
    Create,
}

impl FileAction {
    fn verb(self) -> &'static str {
        match self {
            FileAction::Read => "read",
            FileAction::Write => "write",
            FileAction::Create => "create",
        }
    }
}

#[derive(Debug, Error)]
pub enum CliError {
    /// A command-line argument refused; `flag` is the argument at fault
    /// (`--threads`, `--set`, …) and the message names it.
    #[error("{message}")]
    Argument { flag: &'static str, message: String },
    /// The settings refused: the scenario's errors, one a line, each naming
    /// its setting.
    #[error("{}", join_errors(.0))]
    Config(Vec<ConfigError>),
    /// The file system refused to read, write or create `path`.
    #[error("cannot {} {}: {source}", .action.verb(), .path.display())]
    Io {
        action: FileAction,
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file that was read is refused (a `--config` file that is not a JSON
    /// object of settings, a file that is not an intact shard file):
    /// `problem` follows the file's name (" is …" or ": …").
    #[error("{}{problem}", .path.display())]
    File { path: PathBuf, problem: String },
    /// `merge` refused its shard files: the message names the file at fault
    /// (`file`, when one file is), or every file given.
    #[error("{message}")]
    MergeRefused {
        file: Option<PathBuf>,
        message: String,
    },
    /// A run stopped before its end (it diverged, the accountant refused).
    #[error(transparent)]
    Run(#[from] RunError),
    /// `account`: the accountant refused the question.
    #[error(transparent)]
    Accounting(#[from] AccountingError),
    /// `bench`: a benchmark failed or is unknown.
    #[error(transparent)]
    Bench(#[from] BenchError),
    /// What the user cannot cause (a thread that panicked, a chart that could
    /// not be drawn, JSON that could not be written).
    #[error("{0}")]
    Internal(String),
}

impl CliError {
    pub fn argument(flag: &'static str, message: impl Into<String>) -> Self {
        CliError::Argument {
            flag,
            message: message.into(),
        }
    }

    pub fn io(action: FileAction, path: &Path, source: std::io::Error) -> Self {
        CliError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }

    pub fn file(path: &Path, problem: impl Into<String>) -> Self {
        CliError::File {
            path: path.to_path_buf(),
            problem: problem.into(),
        }
    }

    /// A refused merge whose message names `file`.
    pub fn merge_at(file: &Path, message: impl Into<String>) -> Self {
        CliError::MergeRefused {
            file: Some(file.to_path_buf()),
            message: message.into(),
        }
    }

    /// The process's exit status: 2 when what was given is refused (an
    /// argument, the settings, a file's content, the shards), 1 when the work
    /// itself failed (the file system, a run, a benchmark, an internal error).
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Argument { .. }
            | CliError::Config(_)
            | CliError::File { .. }
            | CliError::MergeRefused { .. }
            | CliError::Accounting(_) => 2,
            CliError::Io { .. } | CliError::Run(_) | CliError::Bench(_) | CliError::Internal(_) => {
                1
            }
        }
    }
}

impl From<Vec<ConfigError>> for CliError {
    fn from(errors: Vec<ConfigError>) -> Self {
        CliError::Config(errors)
    }
}

impl From<ConfigError> for CliError {
    fn from(error: ConfigError) -> Self {
        CliError::Config(vec![error])
    }
}

/// Every error of `errors`, one a line, each naming its setting.
fn join_errors(errors: &[ConfigError]) -> String {
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages are those the CLI printed as strings, field or file first.
    #[test]
    fn messages_name_what_is_at_fault() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = CliError::io(FileAction::Create, Path::new("out/x"), io);
        assert_eq!(e.to_string(), "cannot create out/x: gone");
        let e = CliError::file(Path::new("c.json"), " is not UTF-8 text");
        assert_eq!(e.to_string(), "c.json is not UTF-8 text");
        // Two refused settings (the CLI names no scenario: the errors are built here).
        let errors = vec![
            crate::scenarios::error::ConfigError::out_of_range("n", "at least 2", 0),
            crate::scenarios::error::ConfigError::out_of_range("d", "at least 1", 0),
        ];
        let e = CliError::from(errors.clone());
        assert_eq!(e.to_string().lines().count(), errors.len());
        assert!(e.to_string().starts_with(&errors[0].to_string()));
        assert_eq!(e.exit_code(), 2);
    }
}
