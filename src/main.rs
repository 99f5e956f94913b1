fn main() -> std::process::ExitCode {
    byog::cli::main()
}
