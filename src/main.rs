//! The `byog` program: the command line (`byog --help`), all of it in the library's `cli`.

fn main() -> std::process::ExitCode {
    byog::cli::main()
}
