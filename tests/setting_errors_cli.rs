//! The generator's settings and requirements out of range on the command line, named by their
//! flags. The library's messages are tested in the game's `setting_errors.rs`.

use crate::common::{byog, stderr};

#[test]
fn the_command_line_names_the_flags() {
    for (args, needle) in [
        (
            &["gen", "--seed", "1", "--min-rooms", "9", "--max-rooms", "3"][..],
            "byog: error: --min-rooms 9 is above --max-rooms 3: no world can meet both",
        ),
        (
            &[
                "gen",
                "--seed",
                "7",
                "--min-openness",
                "99",
                "--max-tries",
                "2",
            ],
            "seed 7: no world met the requirements in 2 tries (--max-tries); --min-openness failed most often (2 of 2 tries)",
        ),
        (
            &[
                "stats",
                "--run",
                "3",
                "--min-openness",
                "99",
                "--max-tries",
                "2",
            ],
            "(--max-tries); --min-openness failed most often",
        ),
    ] {
        let out = byog(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("invalid generator setting"),
            "{}",
            stderr(&out)
        );
        assert!(
            !stderr(&out).contains("minimum openness"),
            "{}",
            stderr(&out)
        );
    }
}
