//! The seed catalog's tests through its public API, one test binary (a module a file).

mod catalog;
