//! The `skirmish` binary: all the work is in the library; see `cli`.
fn main() -> std::process::ExitCode {
    skirmish::cli::main()
}
