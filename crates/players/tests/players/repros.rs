//! Repros found by playing: the keys of a policy's run up to a state a test needs. Shared by
//! the players' test binary and the root's (`tests/travel_cli.rs`), which includes this file.

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
