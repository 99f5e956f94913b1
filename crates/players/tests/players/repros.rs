//! Repros found by playing: the keys of a policy's run up to a state a test needs, and the
//! interpreter that plays them. Shared by the players' test binary and the root's
//! (`tests/travel_cli.rs`), which includes this file.

use byog_game::save::MemoryStore;
use byog_game::{Interpreter, Outcome};
use byog_worlds::generator::GeneratorSettings;

/// `R<seed>S` and the first keys of `policy`'s run (`byog stats --runs --policy`) up to the
/// first state where `found` holds, for the first seed from 1 that has one (the repros these
/// tests were written from, a player's `R1S…` on B2 and `R7S…` on B4, no longer arise under
/// rules version 4: the runs had fewer moves and were lost before they got there).
pub fn policy_prefix(
    policy: byog_players::policy::Policy,
    found: impl Fn(&byog_game::GameState) -> bool,
) -> String {
    let setup = byog_players::policy::RunSetup::default();
    for seed in 1..60u64 {
        let mut keys = Vec::new();
        byog_players::policy::play_run(seed, policy, &setup, &mut |d| keys.push(d)).unwrap();
        let mut game = setup.start(seed).unwrap();
        let mut input = format!("R{seed}S");
        for d in keys {
            let action = byog_game::Action::Move(d);
            game.apply(action);
            input.push(action.key());
            if game.has_ended() {
                break;
            }
            if found(&game) {
                return input;
            }
        }
    }
    panic!("no run of seeds 1..60 reaches the state on {policy}'s way");
}

/// Feeds `keys` and returns the outcome of each.
pub fn feed(it: &mut Interpreter, keys: &str, store: &mut MemoryStore) -> Vec<Outcome> {
    keys.chars()
        .map(|k| it.feed(k, store).expect("no key fails here"))
        .collect()
}

/// Feeds `input` to a default interpreter (80 × 30, 10 floors), returning it and the
/// outcome of each key.
pub fn play_default(input: &str) -> (Interpreter, Vec<Outcome>) {
    let mut store = MemoryStore::default();
    let mut it = Interpreter::new(80, 30, GeneratorSettings::default());
    let outcomes = feed(&mut it, input, &mut store);
    (it, outcomes)
}

/// A run where every chest and trap of the floor is handled and the exit seen, but no seen
/// way leads into it yet.
pub fn done_repro() -> String {
    policy_prefix(byog_players::policy::Policy::Sight, |game| {
        byog_game::travel::nothing_left(game)
            && byog_game::travel::exit_ways(game)
                .is_some_and(|w| w.around.is_none() && w.through.is_none())
    })
}

/// [`done_repro`] and then the `X`s (a leg a key in a run) until a way into the exit is
/// known: the keys, and how many `X`s that took.
pub fn done_and_found() -> (String, usize) {
    let prefix = done_repro();
    for n in 1..=12 {
        let input = format!("{prefix}{}", "X".repeat(n));
        let (it, _) = play_default(&input);
        let ways = byog_game::travel::exit_ways(it.game().unwrap()).unwrap();
        if ways.around.is_some() {
            return (input, n);
        }
    }
    panic!("12 legs of X found no way into the exit: {prefix}");
}
