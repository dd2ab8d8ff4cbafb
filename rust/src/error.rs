//! One error type for the whole core. Every variant but `Internal` is the caller's bad input; the
//! JNI, C and Python faces map those to `IllegalArgumentException` / `ValueError`.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum TierproofError {
    #[error("invalid name {name:?}: {reason}")]
    InvalidName { name: String, reason: String },

    #[error("{what} {value} is outside INT [-2147483648, 2147483647]")]
    OutOfRange { what: String, value: String },

    #[error("{what}: {value:?} is not an integer")]
    NotAnInteger { what: String, value: String },

    #[error("invalid option {key:?}: {reason}")]
    InvalidOption { key: String, reason: String },

    #[error("unknown row kind code {code} at change #{index} (expected 0=+I, 1=-U, 2=+U, 3=-D)")]
    UnknownRowKind { index: usize, code: i32 },

    #[error("the DDL is refused: {0}")]
    RefusedDdl(String),

    #[error("invalid input: {0}")]
    InvalidInput(String),

    #[error("internal error: {0}")]
    Internal(String),
}

impl TierproofError {
    /// The message without its kind's prefix, for an error that adds where it happened.
    pub fn detail(&self) -> String {
        match self {
            TierproofError::InvalidInput(m) => m.clone(),
            other => other.to_string(),
        }
    }

    /// True when the caller can fix the problem by changing its input.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, TierproofError::Internal(_))
    }
}

pub type Result<T> = std::result::Result<T, TierproofError>;
