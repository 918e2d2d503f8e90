//! The native command-line front end: `dp-explorer --help`.

fn main() -> std::process::ExitCode {
    #[cfg(not(target_arch = "wasm32"))]
    {
        dp_explorer::cli::main()
    }
    // The CLI is native only; the wasm build compiles this stub so that
    // the wasm tests' cargo build can build the package's targets.
    #[cfg(target_arch = "wasm32")]
    {
        std::process::ExitCode::FAILURE
    }
}
