//! One file per algorithm. Each is a state machine with `step()`, so a run can
//! be observed round by round and stopped between rounds.

pub mod dp_gd_kernel;
pub mod dp_gd_random_features;
pub mod dp_rgrad;
pub mod dp_spectral_init;
pub mod fedrep;
pub mod fedrep_gd;
pub mod flute;
pub mod jl_exponential;
pub mod local_gd;
pub mod low_rank_erm;
pub mod min_norm;
pub mod priv_altmin;
pub mod private_init;
pub mod stepwise;
