//! The worlds' tests through the public API, one test binary (a module a file).

mod common;

mod fov;
