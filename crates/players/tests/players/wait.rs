//! The wait key (`docs/keys.md`): `.` passes one turn in every game. It is a key of input
//! strings, written to the history as `.`, counted as a move; a run pays a move for it and an
//! exploration's monsters act. Saves need nothing new (the history is keys): an old save
//! loads and waits on, and a save split at a wait is the whole string. The agent takes it
//! (through `byog_players::agent::Agent`, as a program would).
//!
//! The oracles: the JSON state (`byog_players::json`), the history string, the save's bytes, the
//! monsters' positions read before and after.

use std::path::Path;

use byog_game::explore::{ExploreSettings, MonsterKind};
use byog_game::interpreter::Refusal;
use byog_game::save::{self, MemoryStore};
use byog_game::{Event, Interpreter, Outcome};
use byog_players::agent::{Agent, AgentError, AgentOptions};
use byog_players::json;
use byog_tile_engine::Pos;
use byog_worlds::generator::GeneratorSettings;

fn interpreter() -> Interpreter {
    Interpreter::new(80, 30, GeneratorSettings::default())
}

fn play(input: &str) -> (Interpreter, Vec<Outcome>, MemoryStore) {
    let mut store = MemoryStore::default();
    let mut it = interpreter();
    let outcomes = input
        .chars()
        .map(|k| it.feed(k, &mut store).unwrap())
        .collect();
    (it, outcomes, store)
}

#[test]
fn a_wait_is_a_move_in_the_history_of_every_game() {
    for start in ["N42S", "R42S", "E42S"] {
        let (before, _, _) = play(start);
        let (it, outcomes, _) = play(&format!("{start}D.W."));
        let game = it.game().unwrap();
        assert!(game.history().ends_with('.'), "{}", game.history());
        assert_eq!(game.history().matches('.').count(), 2);
        assert!(
            matches!(outcomes.last(), Some(Outcome::Acted(e)) if e.as_slice().contains(&Event::Waited)),
            "{start}: {:?}",
            outcomes.last()
        );
        // The avatar stayed where the last step left it.
        let (stepped, _, _) = play(&format!("{start}D.W"));
        assert_eq!(game.avatar(), stepped.game().unwrap().avatar());
        assert_eq!(game.moves(), stepped.game().unwrap().moves() + 1);
        assert!(game.moves() >= before.game().unwrap().moves() + 2);
        // The history replays into the same game.
        let (again, _, _) = play(&game.history());
        assert_eq!(json::state(&again), json::state(&it), "{start}");
    }
}

#[test]
fn a_run_pays_a_move_for_a_wait_and_is_lost_on_its_last() {
    let (it, _, _) = play("R42S");
    let left = it.game().unwrap().run().unwrap().moves_left;
    let (it, _, _) = play("R42S...");
    assert_eq!(it.game().unwrap().run().unwrap().moves_left, left - 3);
    // Waiting out every move left loses the run, out of moves, on the last one.
    let waits = ".".repeat(left as usize);
    let (it, outcomes, _) = play(&format!("R42S{waits}"));
    let state = json::state(&it);
    assert_eq!(state["status"], "lost");
    assert_eq!(state["loss"], "out of moves");
    assert!(matches!(outcomes.last(), Some(Outcome::Acted(e)) if e.lost()));
    // A key after the end is refused, a wait as a step.
    let (_, outcomes, _) = play(&format!("R42S{waits}."));
    assert!(
        matches!(outcomes.last(), Some(Outcome::Reported(r)) if r.reason == Refusal::GameOver),
        "{:?}",
        outcomes.last()
    );
}

#[test]
fn monsters_act_while_the_avatar_waits() {
    // The same fight set up by hand as benches do: a rat that hunts the avatar.
    let mut game = byog_game::GameState::new_exploration(
        7,
        GeneratorSettings::default(),
        ExploreSettings::default(),
    )
    .unwrap();
    for k in "WWWWWWW".chars() {
        game.apply(byog_game::Action::from_key(k).unwrap());
    }
    let e = game.explore_mut().unwrap();
    let a = e.avatar();
    let room = byog_game::explore::plot::plot_of(a);
    assert!(!room.is_start(), "the avatar left the start room");
    let spot = [
        Pos::new(a.x + 2, a.y),
        Pos::new(a.x - 2, a.y),
        Pos::new(a.x, a.y + 2),
    ]
    .into_iter()
    .find(|&p| e.tile_at(p) == byog_tile_engine::Tile::Floor && e.monster_at(p).is_none())
    .expect("a floor tile two steps off");
    e.add_monsters(&[(spot, MonsterKind::Rat)]).unwrap();
    let distance = |g: &byog_game::GameState| {
        let e = g.explore().unwrap();
        let m = e
            .monster_at(spot)
            .copied()
            .or_else(|| e.monsters().next().copied())
            .unwrap();
        (m.pos.x - e.avatar().x).abs() + (m.pos.y - e.avatar().y).abs()
    };
    assert_eq!(distance(&game), 2);
    let events = game.apply(byog_game::Action::Wait);
    assert!(events.as_slice().contains(&Event::Waited));
    // The rat spent its turn arriving: beside the avatar now, no blow struck yet.
    assert_eq!(distance(&game), 1);
    assert!(
        !events
            .as_slice()
            .iter()
            .any(|e| matches!(e, Event::Struck { .. }))
    );
    // Waiting again, the rat strikes (a blow lands or misses).
    let events = game.apply(byog_game::Action::Wait);
    assert!(
        events
            .as_slice()
            .iter()
            .any(|e| matches!(e, Event::Struck { .. })),
        "{events:?}"
    );
}

#[test]
fn a_save_split_at_a_wait_is_the_whole_string() {
    for (prefix, rest) in [
        ("N42SDD.", "WW.D"),
        ("R42SDD.", ".WWDX"),
        ("E42SWWWWW.", "..DDX"),
        ("E7SWWWWWWW.", "..SX."),
    ] {
        let (whole, _, _) = play(&format!("{prefix}{rest}"));
        let mut store = MemoryStore::default();
        let mut it = interpreter();
        for k in format!("{prefix}:Q").chars() {
            it.feed(k, &mut store).unwrap();
        }
        let bytes = store.bytes.clone().expect("saved");
        let mut loaded = interpreter();
        for k in format!("L{rest}").chars() {
            loaded.feed(k, &mut store).unwrap();
        }
        assert_eq!(json::state(&loaded), json::state(&whole), "{prefix}|{rest}");
        assert_eq!(
            save::encode(loaded.game().unwrap()),
            save::encode(whole.game().unwrap()),
            "{prefix}|{rest}: save bytes"
        );
        // The save holds the wait in its history.
        let game = save::decode(&bytes, Path::new("save.bin")).unwrap();
        assert!(game.history().ends_with('.'), "{}", game.history());
    }
}

#[test]
fn every_old_save_loads_and_waits_on() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures"));
    let mut loaded = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "bin") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let mut game = save::decode(&bytes, &path).unwrap();
        if game.has_ended() {
            continue;
        }
        let moves = game.moves();
        let events = game.apply(byog_game::Action::Wait);
        assert!(events.changed_game(), "{}", path.display());
        assert_eq!(game.moves(), moves + 1);
        // Saved and loaded with its wait, it is the same game.
        let again = save::decode(&save::encode(&game), &path).unwrap();
        assert_eq!(again, game, "{}", path.display());
        loaded += 1;
    }
    assert!(loaded >= 8, "{loaded} fixtures");
}

#[test]
fn the_agent_takes_the_wait_key() {
    let mut agent = Agent::new(AgentOptions {
        record_keys: true,
        ..AgentOptions::default()
    });
    let first = agent.reset("R42S").unwrap();
    let left = first.game.unwrap().run.unwrap().moves_left;
    let after = agent.step("..").unwrap().game.unwrap();
    assert_eq!(after.run.unwrap().moves_left, left - 2);
    assert_eq!(after.moves, 2);
    assert_eq!(agent.keys(), "R42S..");
    let e = agent.reset("E42S").unwrap();
    assert_eq!(e.game.unwrap().moves, 0);
    let after = agent.step("W.").unwrap().game.unwrap();
    assert_eq!(after.moves, 2);
    // At the menu the wait is no key: the agent refuses the line, unplayed.
    let mut agent = Agent::new(AgentOptions::default());
    assert!(matches!(agent.step("."), Err(AgentError::Refused { .. })));
}
