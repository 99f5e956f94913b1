//! The keys of a diving player, for the benchmarks that replay them.

use byog_game::game::GameState;
use byog_worlds::generator::GeneratorSettings;

/// A million keys of a diving player over explorations (`E0S`, `E1S`, …): drinks at one
/// heart, strikes a monster beside it, else the explorer's next step; an exploration lost
/// starts the next seed. `benches/byog.rs` replays them.
pub fn diving_keys() -> String {
    use byog_game::Action;
    use byog_game::explore::ExploreSettings;
    use byog_players::explorer as bot;
    let mut keys = String::with_capacity(1_000_100);
    let mut seed = 0u64;
    while keys.len() < 1_000_000 {
        let start = format!("E{seed}S");
        keys.push_str(&start);
        let mut game = GameState::new_exploration(
            seed,
            GeneratorSettings::default(),
            ExploreSettings::default(),
        )
        .unwrap();
        while !game.has_ended() && keys.len() < 1_000_000 {
            let e = game.explore().unwrap();
            let a = e.avatar();
            let beside = byog_tile_engine::Direction::ALL
                .into_iter()
                .find(|d| e.monster_at(a + *d).is_some());
            let action = if e.health() == 1 && e.potions() > 0 {
                Action::Drink
            } else if let Some(d) = beside {
                Action::Move(d)
            } else {
                match bot::next_move(&game) {
                    Some(d) => Action::Move(d),
                    None => break,
                }
            };
            if game.apply(action).changed_game() {
                keys.push(action.key());
                continue;
            }
            // Refused (locked in combat on the way back): strike the monster beside it.
            let e = game.explore().unwrap();
            let a = e.avatar();
            let Some(d) = byog_tile_engine::Direction::ALL
                .into_iter()
                .find(|d| e.monster_at(a + *d).is_some())
            else {
                break;
            };
            game.apply(Action::Move(d));
            keys.push(Action::Move(d).key());
        }
        seed += 1;
    }
    eprintln!("1,000,000 keys over {seed} explorations of the diving player");
    keys
}
