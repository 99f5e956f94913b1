//! Travel where it needs more than the game and the players: a run's travel as the shell's
//! HUD shows it, and `replay --strict` through the binary. Travel's own tests are the players'
//! (`crates/players/tests/players/travel.rs`), whose repro helpers these are copies of.

use byog_game::Outcome;
use byog_players::json;

use crate::repros::{done_and_found, play_default, policy_prefix};

/// A run where the known way round the armed traps into the exit is longer than one through
/// one or two of them, with moves to spare for both and hearts for the way through.
fn traps_repro() -> String {
    policy_prefix(byog_players::policy::Policy::Sight, |game| {
        let run = game.run().unwrap();
        byog_game::travel::exit_ways(game).is_some_and(|w| {
            matches!((w.around, w.through), (Some(a), Some(t))
                if a.steps > t.steps + 2
                    && (1..3).contains(&t.traps)
                    && t.traps < run.health
                    && u64::from(t.steps) + 2 <= run.moves_left)
        })
    })
}

#[test]
fn travel_in_a_run_crosses_traps_when_only_that_fits() {
    let prefix = traps_repro();
    let (it, _) = play_default(&prefix);
    let state = json::state(&it);
    let (floor, start_left) = (
        state["floor"].as_u64().unwrap(),
        state["moves_left"].as_u64().unwrap(),
    );
    let ways = byog_game::travel::exit_ways(it.game().unwrap()).unwrap();
    let around = ways.around.unwrap();
    let through = ways.through.unwrap();
    assert!(
        around.steps > through.steps && (1..3).contains(&through.traps),
        "{ways:?}"
    );
    // The HUD shows both ways, as the player needs them to choose.
    let hud = byog_shell::screens::run_progress(it.game().unwrap());
    let traps = if through.traps == 1 { "trap" } else { "traps" };
    assert!(
        hud.ends_with(&format!(
            " · exit {} · {} through {} {traps}",
            around.steps, through.steps, through.traps
        )),
        "{hud}"
    );
    // Waits (a move each in a run) until the moves left fit only the way through.
    let left = u64::from(through.steps) + 2;
    assert!(u64::from(around.steps) > left);
    let waits = ".".repeat((start_left - left) as usize);
    let (it, _) = play_default(&format!("{prefix}{waits}"));
    let state = json::state(&it);
    assert_eq!(state["moves_left"], left);
    assert_eq!(
        byog_game::travel::exit_ways(it.game().unwrap()).unwrap(),
        ways,
        "waiting changes no way"
    );
    let moves = state["moves"].as_u64().unwrap();
    let health = state["health"].as_u64().unwrap();
    let (it, outcomes) = play_default(&format!("{prefix}{waits}>"));
    let state = json::state(&it);
    assert!(
        matches!(outcomes.last(), Some(Outcome::Acted(_))),
        "{:?}",
        outcomes.last()
    );
    assert_eq!(state["status"], "playing");
    assert_eq!(state["floor"], floor + 1, "down a floor");
    assert_eq!(
        state["health"],
        health - u64::from(through.traps),
        "a heart a trap crossed"
    );
    assert_eq!(state["moves"], moves + u64::from(through.steps));
}

/// `replay --strict` refuses a walk that takes no step (the key is reported).
#[test]
fn strict_replay_refuses_a_walk_that_takes_no_step() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("{}X", done_and_found().0);
    let out = crate::common::byog_in(dir.path(), &["replay", "--strict", &input]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        crate::common::stderr(&out)
    );
    assert!(
        crate::common::stderr(&out).contains("nothing left to find"),
        "{}",
        crate::common::stderr(&out)
    );
}
