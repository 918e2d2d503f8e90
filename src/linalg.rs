//! Small helpers over nalgebra.
