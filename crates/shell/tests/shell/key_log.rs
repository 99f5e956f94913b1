//! The shell's key log ([`Shell::take_fed`]) is the game: replayed, it gives the same game,
//! and it holds only keys the interpreter consumed (so `replay --strict` refuses none of
//! them). The web server keeps every game as this log.

use byog_game::GameState;
use byog_game::explore::ExploreSettings;
use byog_game::interpreter::{Interpreter, Phase};
use byog_game::replay::{ReplayError, replay};
use byog_game::save::MemoryStore;
use byog_shell::{FrontEnd, GameOptions, Saves, Shell, ShellOptions};
use byog_worlds::generator::GeneratorSettings;
use proptest::prelude::*;

fn options(one_game: bool) -> ShellOptions {
    ShellOptions {
        game: GameOptions {
            width: 30,
            height: 16,
            settings: GeneratorSettings::default(),
            floors: 3,
            explore: ExploreSettings::default(),
            one_game,
        },
        saves: Saves::None,
        walls: None,
        watch: false,
        front_end: FrontEnd::Browser,
        seed_label: None,
    }
}

/// Types `keys` at time 0, each walk walked to its end before the next key (as `--keys`).
fn type_keys(shell: &mut Shell, keys: &str) {
    for k in keys.chars() {
        shell.key(k, 0.0);
        shell.finish_walk(0.0);
    }
}

/// What a game is, for comparing two: everything but the message log (the words a session
/// said of keys it refused are not part of the game).
fn fingerprint(game: &GameState) -> String {
    format!(
        "{:?} {} {:?} {:?} {:?} {} {:?} {:?}\n{}\n{:?}",
        game.kind(),
        game.seed(),
        game.status(),
        game.score(),
        game.health(),
        game.moves(),
        game.avatar(),
        game.history(),
        game.world(),
        game.rng(),
    )
}

/// The game an interpreter fed `log` strictly ends with; panics on a refused key.
fn strict_replay(log: &str, one_game: bool) -> Interpreter {
    let o = options(one_game);
    let mut i = Interpreter::new(o.game.width, o.game.height, o.game.settings)
        .with_floors(o.game.floors)
        .with_explore(o.game.explore);
    if one_game {
        i = i.with_one_game();
    }
    match replay(&mut i, log, &mut MemoryStore::default(), true, &mut |_| ()) {
        Ok(_) | Err(ReplayError::Unfinished(_)) => i,
        Err(e) => panic!("the key log {log:?} holds a key the interpreter did not consume: {e}"),
    }
}

/// The check: `shell`'s log, replayed by a new shell and strictly by an interpreter, gives
/// `shell`'s game; the rebuilt shell gives none of it again.
fn check(shell: &mut Shell, log: &str, one_game: bool) {
    let mut rebuilt = Shell::replayed(options(one_game), log).unwrap();
    assert_eq!(
        rebuilt.take_fed(),
        "",
        "a rebuilt session gives its keys again"
    );
    let live = shell.shown_game().map(fingerprint);
    assert_eq!(rebuilt.shown_game().map(fingerprint), live, "log {log:?}");
    let strict = strict_replay(log, one_game);
    assert_eq!(
        strict.game().map(fingerprint),
        live,
        "strict replay of {log:?}"
    );
    let phase = |p: Option<Phase>| match p {
        // A `:` waiting for its `Q` is held out of the log until it is answered.
        Some(Phase::Playing { .. }) => Some(Phase::Playing { colon: false }),
        Some(Phase::Ended { .. }) => Some(Phase::Ended { colon: false }),
        p => p,
    };
    assert_eq!(phase(rebuilt.phase()), phase(shell.phase()), "log {log:?}");
}

#[test]
fn ignored_keys_are_not_logged() {
    let mut s = Shell::new(options(true)).unwrap().on_this_thread();
    type_keys(&mut s, "R42S");
    assert_eq!(s.take_fed(), "R42S");
    // Unknown keys, a space, Esc, a lone colon dropped by Esc, a `:` dropped by a move.
    type_keys(&mut s, "i \u{1b}:\u{1b}:D");
    assert_eq!(s.take_fed(), "D", "only the move was consumed");
}

#[test]
fn a_colon_waits_for_its_q_across_batches() {
    let mut s = Shell::new(options(false)).unwrap().on_this_thread();
    type_keys(&mut s, "N7SD:");
    assert_eq!(s.take_fed(), "N7SD", "the colon is held");
    type_keys(&mut s, "Q");
    assert_eq!(s.take_fed(), ":Q");
    let mut s = Shell::new(options(false)).unwrap().on_this_thread();
    type_keys(&mut s, "N7S:");
    assert_eq!(s.take_fed(), "N7S");
    type_keys(&mut s, "W");
    assert_eq!(s.take_fed(), "W", "the colon was dropped by the move");
}

#[test]
fn a_rebuilt_session_writes_nothing_until_new_keys() {
    let mut s = Shell::new(options(true)).unwrap().on_this_thread();
    type_keys(&mut s, "R42SDDSSW");
    let log = s.take_fed();
    let mut again = Shell::replayed(options(true), &log).unwrap();
    assert_eq!(again.take_fed(), "");
    type_keys(&mut again, "A");
    assert_eq!(
        again.take_fed(),
        "A",
        "only the new key, not the replayed log before it"
    );
}

#[test]
fn one_game_takes_no_key_after_its_end() {
    // A classic game of seed 5 on a 30 × 16 world, won by exploring to the exit.
    let mut s = Shell::new(options(true)).unwrap().on_this_thread();
    type_keys(&mut s, "N5S");
    for _ in 0..40 {
        if s.shown_game().is_some_and(GameState::has_ended) {
            break;
        }
        type_keys(&mut s, ">X");
    }
    assert!(
        s.shown_game().is_some_and(GameState::has_ended),
        "the game ends"
    );
    let log = s.take_fed();
    type_keys(&mut s, "NRE\u{1b}:QWASD12S");
    assert_eq!(s.take_fed(), "", "nothing after the end is consumed");
    assert!(s.shown_game().is_some_and(GameState::has_ended));
    check(&mut s, &log, true);
}

/// Keys a player might type: moves, the wait, travel, the potion, junk, the colon and its
/// answers, view keys, Esc, digits.
fn key() -> impl Strategy<Value = char> {
    prop::sample::select(vec![
        'W', 'A', 'S', 'D', 'W', 'A', 'S', 'D', 'w', 'd', 'h', 'j', 'k', 'l', '.', 'X', '>', 'U',
        'Y', 'i', ' ', ':', 'Q', '\u{1b}', '\t', '?', 'P', 'M', '1', 'N', 'R', 'E', 'L', 'Z',
    ])
}

proptest! {
    /// Any keys, taken in batches: the log replays to the live game, strictly.
    #[test]
    fn the_key_log_replays_to_the_game(
        start in prop::sample::select(vec!["N", "R", "E"]),
        seed in 0u64..1000,
        batches in prop::collection::vec(prop::collection::vec(key(), 0..12), 1..8),
        one_game in any::<bool>(),
    ) {
        let mut s = Shell::new(options(one_game)).unwrap().on_this_thread();
        type_keys(&mut s, &format!("{start}{seed}S"));
        let mut log = s.take_fed();
        for batch in &batches {
            let keys: String = batch.iter().collect();
            type_keys(&mut s, &keys);
            log.push_str(&s.take_fed());
            if matches!(s.phase(), Some(Phase::Closed(_))) {
                // `:Q` closed the session; its log ends there (the server keeps it
                // without the `:Q`).
                break;
            }
            let upto = log.strip_suffix(":Q").unwrap_or(&log).to_owned();
            check(&mut s, &upto, one_game);
        }
    }
}
