//! Metrics: principal-angle distance, population risk.
