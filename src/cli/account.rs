//! `dp-explorer account`: placeholder until the accountant lands.

#[derive(clap::Args, Debug)]
pub struct AccountArgs {}

pub fn run(_args: &AccountArgs) -> Result<String, String> {
    Err("the accountant is not built yet".into())
}
