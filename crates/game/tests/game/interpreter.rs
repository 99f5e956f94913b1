//! The one interpreter (docs/keys.md): the sp18 save/load equivalences, a property test over split
//! points, and the rules for every kind of key.

use byog_game::GameState;
use byog_game::game::{LevelStatus, MAX_SEED};
use byog_game::interpreter::{
    BACKSPACE, Closing, ESCAPE, GameKind, Interpreter, Outcome, Phase, PhaseKind, Refusal, Refused,
};
use byog_game::replay;
use byog_game::rules::Event;
use byog_game::save::{self, MemoryStore, SaveStore};
use byog_tile_engine::Tile;
use byog_worlds::generator::GeneratorSettings;
use proptest::prelude::*;

use crate::common;
use common::keys_to_exit as path_to_exit;

/// Runs each input string in a fresh interpreter (a new program run) against one shared
/// save, and returns the last world's text and every report.
fn run_all(inputs: &[&str]) -> (Option<String>, Vec<Refused>) {
    let mut store = MemoryStore::default();
    let mut reports = Vec::new();
    let mut text = None;
    for input in inputs {
        let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
        replay::replay(&mut interpreter, input, &mut store, false, &mut |r| {
            reports.push(*r)
        })
        .unwrap();
        text = interpreter.game().map(|g| g.world().to_string());
    }
    (text, reports)
}

fn world_of(inputs: &[&str]) -> String {
    run_all(inputs).0.expect("a world was started")
}

fn feed_all(interpreter: &mut Interpreter, input: &str, store: &mut MemoryStore) -> Vec<Outcome> {
    input
        .chars()
        .map(|c| interpreter.feed(c, store).unwrap())
        .collect()
}

#[test]
fn sp18_equivalences_for_seed_999() {
    let expected = world_of(&["N999SDDDWWWDDD"]);
    assert_eq!(world_of(&["N999SDDD:Q", "LWWWDDD"]), expected);
    assert_eq!(world_of(&["N999SDDD:Q", "LWWW:Q", "LDDD:Q"]), expected);
    assert_eq!(world_of(&["N999SDDD:Q", "L:Q", "L:Q", "LWWWDDD"]), expected);
    // And the moves really moved the avatar: the world differs from the one N999S starts.
    assert_ne!(world_of(&["N999S"]), expected);
}

#[test]
fn ending_with_colon_q_does_not_change_the_world() {
    for input in ["N42SDDWWAS", "N1SWWWW", "N9223372036854775807SDDSS"] {
        assert_eq!(world_of(&[input]), world_of(&[&format!("{input}:Q")]));
    }
}

#[test]
fn keys_are_case_insensitive() {
    assert_eq!(world_of(&["n1234swwdd"]), world_of(&["N1234SWWDD"]));
    assert_eq!(
        world_of(&["n999sDdD:q", "lwwwddd"]),
        world_of(&["N999SDDDWWWDDD"])
    );
}

#[test]
fn colon_followed_by_another_key_drops_the_colon_and_says_so() {
    // A user found the colon dropped without a word, even with --strict.
    let (text, reports) = run_all(&["N1234S:W:D::D"]);
    assert_eq!(text.unwrap(), world_of(&["N1234SWDD"]));
    let dropped: Vec<(char, usize, Refusal)> = reports
        .iter()
        .map(|r| (r.key, r.position, r.reason))
        .collect();
    assert_eq!(
        dropped,
        [6, 8, 10, 11].map(|p| (':', p, Refusal::ColonDropped)),
        "each colon not followed by Q is reported at its own position"
    );
    assert!(
        reports[0]
            .to_string()
            .starts_with("key ':' at position 6 ignored: ")
    );
    // --strict refuses the whole string at the first dropped colon; nothing is saved.
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let err = replay::replay(
        &mut interpreter,
        "N1234SW:D:Q",
        &mut store,
        true,
        &mut |_| (),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            replay::ReplayError::Strict(Refused {
                key: ':',
                position: 7,
                ..
            })
        ),
        "{err}"
    );
    assert!(store.load().unwrap().is_none(), "nothing saved");
    // A colon before Q still saves, with no report.
    let (_, reports) = run_all(&["N1234SWD:Q"]);
    assert!(reports.is_empty(), "{reports:?}");
}

#[test]
fn keys_after_colon_q_are_ignored_and_reported() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, "N5SD:QDDN", &mut store);
    assert_eq!(outcomes[5], Outcome::Closed(Closing::SavedAndQuit));
    for (i, o) in outcomes.iter().enumerate().skip(6) {
        assert_eq!(
            *o,
            Outcome::Reported(Refused {
                key: "N5SD:QDDN".chars().nth(i).unwrap(),
                position: i,
                reason: Refusal::AfterQuit
            })
        );
    }
    let saved = save::decode(store.bytes.as_deref().unwrap(), "mem".as_ref()).unwrap();
    assert_eq!(saved.history(), "N5SD");
    assert_eq!(saved.world().to_string(), world_of(&["N5SD"]));
}

#[test]
fn load_with_no_save_stays_at_the_menu_and_replay_ends_there() {
    // The interpreter stays at the menu (the window and the terminal say so and go on)...
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, "LN1S", &mut store);
    assert_eq!(outcomes[0], Outcome::NoSave);
    assert_eq!(outcomes[1], Outcome::Accepted);
    assert_eq!(outcomes[3], Outcome::Started);
    assert!(store.bytes.is_none());
    // ...while replay ends cleanly at the L (sp18: "end with no errors produced").
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let run = replay::replay(&mut interpreter, "LN1S", &mut store, true, &mut |_| {}).unwrap();
    assert!(run.nothing_to_load);
    assert!(interpreter.game().is_none());
    assert_eq!(interpreter.phase(), Phase::Menu);
}

#[test]
fn quit_in_the_menu_saves_nothing() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, "Q", &mut store);
    assert_eq!(outcomes, vec![Outcome::Closed(Closing::Quit)]);
    assert!(store.bytes.is_none());
}

#[test]
fn seed_digits_past_java_long_max_are_refused() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    // MAX_SEED has 19 digits; a 20th digit is refused, the S still starts the world.
    let input = format!("N{MAX_SEED}7S");
    let outcomes = feed_all(&mut interpreter, &input, &mut store);
    assert_eq!(
        outcomes[20],
        Outcome::Reported(Refused {
            key: '7',
            position: 20,
            reason: Refusal::SeedTooLarge
        })
    );
    assert_eq!(outcomes[21], Outcome::Started);
    assert_eq!(interpreter.game().unwrap().seed(), MAX_SEED);

    // One above the maximum at the last digit: 9223372036854775808 → the 8 is refused.
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, "N9223372036854775808", &mut store);
    assert!(matches!(outcomes[19], Outcome::Reported(r) if r.reason == Refusal::SeedTooLarge));
    assert_eq!(
        interpreter.phase(),
        Phase::SeedEntry {
            kind: GameKind::Classic,
            seed: 922337203685477580,
            digits: 18
        }
    );
}

#[test]
fn s_without_digits_is_refused() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, "NS", &mut store);
    assert_eq!(
        outcomes[1],
        Outcome::Reported(Refused {
            key: 'S',
            position: 1,
            reason: Refusal::EmptySeed
        })
    );
    assert!(interpreter.game().is_none());
    // Seed entry goes on: NS5S plays seed 5.
    assert_eq!(world_of(&["NS5S"]), world_of(&["N5S"]));
}

#[test]
fn unknown_keys_are_reported_with_their_positions() {
    let (text, reports) = run_all(&["xN1é2S!W"]);
    assert_eq!(text.unwrap(), world_of(&["N12SW"]));
    let positions: Vec<(char, usize)> = reports.iter().map(|r| (r.key, r.position)).collect();
    assert_eq!(positions, vec![('x', 0), ('é', 3), ('!', 6)]);
    assert!(
        reports
            .iter()
            .all(|r| matches!(r.reason, Refusal::UnknownKey(_)))
    );
    assert_eq!(
        reports[0].to_string(),
        "key 'x' at position 0 ignored: not a menu key (N new game, R run, E exploration, L load, Q quit)"
    );
    // The player's words never name a position.
    assert_eq!(
        reports[0].player_message(),
        "'x': not a menu key (N new game, R run, E exploration, L load, Q quit)"
    );
}

#[test]
fn strict_replay_refuses_the_first_report_and_saves_nothing() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let err =
        replay::replay(&mut interpreter, "N1SDZ:Q", &mut store, true, &mut |_| {}).unwrap_err();
    assert!(matches!(err, replay::ReplayError::Strict(r) if r.position == 4 && r.key == 'Z'));
    assert!(store.bytes.is_none());
}

#[test]
fn moves_follow_the_rules() {
    let game = GameState::new(2018, 80, 30, GeneratorSettings::default()).unwrap();
    for (key, (dx, dy)) in [('W', (0, 1)), ('A', (-1, 0)), ('S', (0, -1)), ('D', (1, 0))] {
        let mut store = MemoryStore::default();
        let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
        feed_all(&mut interpreter, &format!("N2018S{key}"), &mut store);
        let after = interpreter.game().unwrap();
        let target = game.avatar().offset(dx, dy);
        let open = game.world().tile(target) == Tile::Floor;
        let expected = if open { target } else { game.avatar() };
        assert_eq!(after.avatar(), expected, "key {key}");
        assert_eq!(after.world().tile(expected), Tile::Player);
        assert_eq!(after.world().count(Tile::Player), 1);
        // A bump into a wall changes nothing and is not a move (docs/keys.md).
        assert_eq!(after.moves(), u64::from(open), "key {key}");
        let history = if open {
            format!("N2018S{key}")
        } else {
            "N2018S".to_owned()
        };
        assert_eq!(after.history(), history);
    }
}

#[test]
fn a_bump_is_an_event_not_a_move_nor_a_report() {
    // Seed 999's avatar cannot go right after DDDWWW (the sp18 walk bumps three times).
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, "N999SDDDWWWDDD", &mut store);
    let game = interpreter.game().unwrap();
    assert_eq!(game.moves(), 6);
    assert_eq!(game.history(), "N999SDDDWWW");
    for o in &outcomes[11..] {
        let Outcome::Acted(events) = o else {
            panic!("a bump is acted on, not reported: {o:?}")
        };
        assert!(matches!(
            events.as_slice(),
            [Event::Blocked {
                tile: Tile::Wall,
                ..
            }]
        ));
    }
}

#[test]
fn walking_into_the_exit_wins_the_level() {
    for seed in [1, 42, 999] {
        let game = GameState::new(seed, 80, 30, GeneratorSettings::default()).unwrap();
        let path = path_to_exit(&game);
        let mut store = MemoryStore::default();
        let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
        let outcomes = feed_all(&mut interpreter, &format!("N{seed}S{path}W:Q"), &mut store);
        let won = interpreter.game().unwrap();
        assert_eq!(won.status(), LevelStatus::Won);
        assert_eq!(won.world().tile(won.exit()), Tile::UnlockedDoor);
        assert_eq!(won.world().count(Tile::LockedDoor), 0);
        // The W after winning is refused; :Q still saves.
        let n = outcomes.len();
        assert!(matches!(outcomes[n - 3], Outcome::Reported(r) if r.reason == Refusal::GameOver));
        assert_eq!(outcomes[n - 1], Outcome::Closed(Closing::SavedAndQuit));
        let loaded = save::decode(store.bytes.as_deref().unwrap(), "mem".as_ref()).unwrap();
        assert_eq!(&loaded, won);
    }
}

#[test]
fn replaying_the_history_reproduces_the_game() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    feed_all(&mut interpreter, "n77s:wzddd:d:Q", &mut store);
    let saved = save::decode(store.bytes.as_deref().unwrap(), "mem".as_ref()).unwrap();
    // The four D's bump into a wall: bumps are not moves, so the history leaves them out.
    assert_eq!(saved.history(), "N77SW");
    let mut again = Interpreter::new(80, 30, GeneratorSettings::default());
    feed_all(&mut again, &saved.history(), &mut MemoryStore::default());
    assert_eq!(again.game().unwrap(), &saved);
}

#[test]
fn backspace_deletes_the_last_digit() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let keys = format!("N12{BACKSPACE}3S");
    let outcomes = feed_all(&mut interpreter, &keys, &mut store);
    assert_eq!(outcomes[3], Outcome::Accepted);
    assert_eq!(interpreter.game().unwrap().seed(), 13);
    assert_eq!(world_of(&[&keys]), world_of(&["N13S"]));
    // With no digit left, Backspace is refused and seed entry goes on.
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(
        &mut interpreter,
        &format!("N4{BACKSPACE}{BACKSPACE}"),
        &mut store,
    );
    assert!(matches!(outcomes[3], Outcome::Reported(r) if r.reason == Refusal::NothingToDelete));
    assert_eq!(
        interpreter.phase(),
        Phase::SeedEntry {
            kind: GameKind::Classic,
            seed: 0,
            digits: 0
        }
    );
    // Deleting the 20th digit of a too-large seed is not needed: it was never taken.
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    feed_all(
        &mut interpreter,
        &format!("N{MAX_SEED}9{BACKSPACE}S"),
        &mut store,
    );
    assert_eq!(interpreter.game().unwrap().seed(), MAX_SEED / 10);
}

#[test]
fn escape_leaves_seed_entry_for_the_menu_saving_nothing() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, &format!("N12{ESCAPE}"), &mut store);
    assert_eq!(outcomes[3], Outcome::Accepted);
    assert_eq!(interpreter.phase(), Phase::Menu);
    assert!(interpreter.game().is_none());
    // Back at the menu the keys are menu keys again; Escape is not one.
    let outcomes = feed_all(&mut interpreter, &format!("{ESCAPE}N5S"), &mut store);
    assert!(
        matches!(outcomes[0], Outcome::Reported(r) if r.reason == Refusal::UnknownKey(PhaseKind::Menu))
    );
    assert_eq!(interpreter.game().unwrap().seed(), 5);
    assert!(store.bytes.is_none());
    // The window's "back to the menu" from a finished game: N, then Escape.
    let path = path_to_exit(&GameState::new(3, 80, 30, GeneratorSettings::default()).unwrap());
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    feed_all(&mut interpreter, &format!("N3S{path}N{ESCAPE}"), &mut store);
    assert_eq!(interpreter.phase(), Phase::Menu);
    assert_eq!(
        interpreter.game().unwrap().status(),
        LevelStatus::Won,
        "kept as it was"
    );
    // docs/keys.md: Escape on the ended game itself goes back to the menu too, saving nothing.
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, &format!("N3S{path}{ESCAPE}"), &mut store);
    assert_eq!(outcomes.last(), Some(&Outcome::Accepted));
    assert_eq!(interpreter.phase(), Phase::Menu);
    assert_eq!(interpreter.game().unwrap().status(), LevelStatus::Won);
    assert!(store.bytes.is_none());
}

#[test]
fn an_ended_game_takes_n_for_a_new_game_and_colon_q_to_save() {
    let seed = 42;
    let path = path_to_exit(&GameState::new(seed, 80, 30, GeneratorSettings::default()).unwrap());
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    feed_all(&mut interpreter, &format!("N{seed}S{path}"), &mut store);
    assert_eq!(interpreter.phase(), Phase::Ended { colon: false });
    // Moves and other keys are refused; `:` then another key drops the colon.
    let outcomes = feed_all(&mut interpreter, "WX:D", &mut store);
    assert!(matches!(outcomes[0], Outcome::Reported(r) if r.reason == Refusal::GameOver));
    assert!(
        matches!(outcomes[1], Outcome::Reported(r) if r.reason == Refusal::UnknownKey(PhaseKind::Ended))
    );
    assert!(matches!(outcomes[3], Outcome::Reported(r) if r.reason == Refusal::GameOver));
    // N starts seed entry for a new game; the won one is left as it was.
    let outcomes = feed_all(&mut interpreter, "N7S", &mut store);
    assert_eq!(
        outcomes,
        vec![Outcome::Accepted, Outcome::Accepted, Outcome::Started]
    );
    assert_eq!(interpreter.game().unwrap().seed(), 7);
    assert!(
        store.bytes.is_none(),
        "nothing was saved by leaving the won game"
    );
    assert_eq!(
        world_of(&[&format!("N{seed}S{path}N7S")]),
        world_of(&["N7S"])
    );
    // :Q in the ended state saves the won game.
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    feed_all(&mut interpreter, &format!("N{seed}S{path}:Q"), &mut store);
    let saved = save::decode(store.bytes.as_deref().unwrap(), "mem".as_ref()).unwrap();
    assert_eq!(saved.status(), LevelStatus::Won);
    assert_eq!(saved.history(), format!("N{seed}S{path}"));
}

#[test]
fn e_starts_an_exploration_and_r_starts_a_run() {
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, "E2SWD", &mut store);
    assert_eq!(outcomes[2], Outcome::Started);
    let game = interpreter.game().unwrap();
    assert_eq!(game.kind(), GameKind::Exploration);
    assert_eq!(game.history(), "E2SWD");
    assert_eq!(game.moves(), 2);
    let e = game.explore().expect("an exploration");
    assert_eq!(e.room(), byog_game::explore::RoomPos::START);
    assert_eq!(e.branch(), None);
    // R, digits and S start a run on B1.
    let mut store = MemoryStore::default();
    let mut interpreter = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed_all(&mut interpreter, "R1S", &mut store);
    assert_eq!(outcomes[2], Outcome::Started);
    let game = interpreter.game().unwrap();
    assert_eq!(game.run().map(|r| (r.floor, r.floors)), Some((1, 10)));
    assert_eq!(game.history(), "R1S");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// docs/keys.md: split anywhere after the seed: prefix + ":Q", then "L" + rest equals the
    /// unsplit string; several saves and loads in a row change nothing either.
    #[test]
    fn save_and_load_anywhere_changes_nothing(
        seed in 0..=MAX_SEED,
        moves in "[WASDwasd]{0,40}",
        cuts in proptest::collection::vec(0usize..=40, 1..4),
    ) {
        let whole = format!("N{seed}S{moves}");
        let expected = world_of(&[&whole]);
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(moves.len())).collect();
        cuts.sort_unstable();
        let mut parts = Vec::new();
        let mut from = 0;
        for (i, &cut) in cuts.iter().enumerate() {
            let head = if i == 0 { format!("N{seed}S") } else { "L".to_owned() };
            parts.push(format!("{head}{}:Q", &moves[from..cut]));
            from = cut;
        }
        parts.push(format!("L{}", &moves[from..]));
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        prop_assert_eq!(world_of(&parts), expected);
    }
}

#[test]
fn saving_over_another_games_save_says_what_it_replaced() {
    use byog_game::save::{Replaced, SaveSummary};
    let mut store = MemoryStore::default();
    let run = |store: &mut MemoryStore, input: &str| {
        let mut i = Interpreter::new(80, 30, GeneratorSettings::default());
        replay::replay(&mut i, input, store, false, &mut |_| ()).unwrap();
        i
    };
    // The first save replaces nothing; a later save of the same game neither.
    assert_eq!(run(&mut store, "R7SDD:Q").replaced(), None);
    let first = store.load().unwrap().unwrap();
    assert_eq!(run(&mut store, "LSS:Q").replaced(), None);
    // Another game's save is named: kind, seed, floor, moves.
    let after = store.load().unwrap().unwrap();
    let i = run(&mut store, "N42SW:Q");
    let Some(Replaced::Other(summary)) = i.replaced() else {
        panic!("{:?}", i.replaced());
    };
    assert_eq!(*summary, SaveSummary::of(&after));
    assert_eq!(summary.kind, GameKind::Run);
    assert_eq!((summary.seed, summary.floor), (7, Some((1, 10))));
    assert!(after.moves() > first.moves());
    assert_eq!(
        i.replaced().unwrap().to_string(),
        format!(
            "it replaced the save of the run R7S (B1/10, {} moves)",
            after.moves()
        )
    );
    // A damaged save is named as unreadable.
    store.bytes.as_mut().unwrap()[30] ^= 0xFF;
    let i = run(&mut store, "E1S:Q");
    assert!(
        matches!(i.replaced(), Some(Replaced::Unreadable(_))),
        "{:?}",
        i.replaced()
    );
}
