//! The shell's tests through its public API, one test binary (a module a file).

mod key_log;
mod scenarios;
mod words;
