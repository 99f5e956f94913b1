//! Snapshots of explorations (`E<seed>S`, docs/explore.md): the text `byog replay` prints (the
//! avatar's map over the rectangle of its rooms), what `--view sight` shows and the JSON
//! state, at chosen points of two scripted walks: the start, the first room made, the first
//! chest refilled, a branch retired by the timer and the end. A change to the orchestrator,
//! the room slots or the rules shows up here as a diff to review.

use crate::common;

use byog_game::explore::ExploreSettings;
use byog_game::interpreter::{Interpreter, Outcome};
use byog_game::save::MemoryStore;
use byog_game::{Event, GameState};
use byog_worlds::generator::GeneratorSettings;
use common::{EXPLORE_WALK_7, EXPLORE_WALK_7_FLAGS, EXPLORE_WALK_42, byog_in, stderr, stdout};

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

/// Plays `input` in the library with `explore` settings; the events of every key, and the game.
fn play(input: &str, explore: ExploreSettings) -> (Vec<Vec<Event>>, GameState) {
    let mut it = Interpreter::new(80, 30, GeneratorSettings::default()).with_explore(explore);
    let mut store = MemoryStore::default();
    let mut events = Vec::new();
    for key in input.chars() {
        match it.feed(key, &mut store).unwrap() {
            Outcome::Acted(e) => events.push(e.as_slice().to_vec()),
            _ => events.push(Vec::new()),
        }
    }
    (events, it.into_game().unwrap())
}

/// The length of the prefix of `input` that ends with the first key whose events match.
fn prefix_until(events: &[Vec<Event>], wanted: impl Fn(&Event) -> bool) -> usize {
    1 + events
        .iter()
        .position(|e| e.iter().any(&wanted))
        .expect("the walk has such a step")
}

/// Snapshots the text, the sight view and the JSON of `input` under `name`, and checks the
/// JSON against the library's game.
fn lock(name: &str, input: &str, flags: &[&str], explore: ExploreSettings) {
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["replay"];
        args.extend_from_slice(flags);
        if !explore.monsters {
            args.push("--no-monsters");
        }
        args.extend_from_slice(extra);
        args.push(input);
        let out = byog_in(dir.path(), &args);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        stdout(&out)
    };
    let text = run(&[]);
    let sight = run(&["--view", "sight"]);
    let json: serde_json::Value = serde_json::from_str(&run(&["--format", "json"])).unwrap();
    let (_, game) = play(input, explore);
    let e = game.explore().expect("an exploration");
    assert_eq!(text, game.world().to_string(), "{name}");
    assert_eq!(json["mode"], "explore");
    assert_eq!(
        json["avatar"],
        serde_json::json!([game.avatar().x, game.avatar().y])
    );
    assert_eq!(json["room"], serde_json::json!([e.room().x, e.room().y]));
    assert_eq!(json["branch"], serde_json::json!(e.branch()));
    assert_eq!(json["health"], e.health());
    assert_eq!(json["score"], e.score());
    assert_eq!(json["history"], input);
    insta::assert_snapshot!(format!("{name}_text"), text);
    insta::assert_snapshot!(format!("{name}_sight"), sight);
    insta::assert_snapshot!(
        format!("{name}_json"),
        serde_json::to_string_pretty(&json).unwrap()
    );
}

#[test]
fn explorations_are_locked_along_scripted_walks() {
    // The room graph's walks, written before monsters: played without them.
    let default = ExploreSettings {
        monsters: false,
        ..ExploreSettings::default()
    };
    let (events, end) = play(EXPLORE_WALK_42, default);
    let first_room = prefix_until(&events, |e| matches!(e, Event::Entered { made: true, .. }));
    let refill = prefix_until(&events, |e| matches!(e, Event::Refilled { .. }));
    // The walk is what the snapshots say it is: rooms made, points scored.
    let e = end.explore().unwrap();
    assert!(e.dungeon().branch(0).unwrap().rooms().len() >= 15);
    assert!(e.score() > 0);
    // What the avatar sees now is around it, in its map's frame (not the frame's corner).
    let seen = end.visibility();
    assert!(seen.is_visible(end.avatar()));
    let lit = seen
        .area()
        .positions()
        .filter(|p| seen.is_visible(*p))
        .count();
    assert!(lit > 20, "{lit} tiles in sight");
    for p in seen.area().positions().filter(|p| seen.is_visible(*p)) {
        assert!(end.has_seen(p), "{p} is in sight but not remembered");
    }

    let seven = ExploreSettings {
        max_unexplored: 2,
        branch_timer: 150,
        monsters: false,
    };
    let (events7, end7) = play(EXPLORE_WALK_7, seven);
    let second_branch = prefix_until(&events7, |e| {
        matches!(
            e,
            Event::Entered {
                new_branch: true,
                branch: Some(1),
                ..
            }
        )
    });
    let d7 = end7.explore().unwrap().dungeon();
    assert!(d7.branch(0).unwrap().retired());
    assert!(d7.branches().len() >= 2);

    settings().bind(|| {
        lock("explore_42_start", "E42S", &[], default);
        lock(
            "explore_42_first_room",
            &EXPLORE_WALK_42[..first_room],
            &[],
            default,
        );
        lock(
            "explore_42_first_refill",
            &EXPLORE_WALK_42[..refill],
            &[],
            default,
        );
        lock("explore_42_end", EXPLORE_WALK_42, &[], default);
        lock(
            "explore_7_second_branch",
            &EXPLORE_WALK_7[..second_branch],
            &EXPLORE_WALK_7_FLAGS,
            seven,
        );
        lock(
            "explore_7_end",
            EXPLORE_WALK_7,
            &EXPLORE_WALK_7_FLAGS,
            seven,
        );
    });
}
