//! Surveys: the metrics measured over many worlds ([`batch`]: a range of seeds, the
//! generator's expressive range) and over a run's floors ([`run`]). They sit above the
//! generator, the runs' floors and the metrics they combine (none of which knows them), and
//! below the command line that prints them.

pub mod batch;
pub mod run;
