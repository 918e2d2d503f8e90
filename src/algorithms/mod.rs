//! One file per algorithm. Each is a state machine with `step()`, so a run can
//! be observed round by round and stopped between rounds.

/// The read side of a run that keeps a representation B (d×k), the clients'
/// heads W (k×M, one column per client) and a round counter against
/// `params.rounds`: FLUTE and gradient FedRep keep the same state and read it
/// the same way. Expands to `is_done`, `round`, `b` and `w` inside the type's `impl`.
macro_rules! factored_run_accessors {
    () => {
        pub fn is_done(&self) -> bool {
            self.round >= self.params.rounds
        }

        pub fn round(&self) -> usize {
            self.round
        }

        /// The representation B (d×k).
        pub fn b(&self) -> &DMatrix<f64> {
            &self.b
        }

        /// The heads, one column per client (each kept on its client).
        pub fn w(&self) -> &DMatrix<f64> {
            &self.w
        }
    };
}

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
