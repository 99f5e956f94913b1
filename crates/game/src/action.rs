//! Actions: what a player can do in a game, apart from the keys that ask for it. The
//! interpreter turns keys into actions; [`rules`](super::rules) applies them. A game's
//! history is its list of actions, and a save stores them as their canonical keys.

use byog_tile_engine::Direction;

/// One thing the player does in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Step one tile in a direction (keys `W` `A` `S` `D`, and the arrow keys); into a
    /// monster, an attack.
    Move(Direction),
    /// Drink a potion (key `U`; explorations only: `docs/monsters.md`).
    Drink,
    /// Wait a turn (key `.`, the numpad's 5 in the front-ends; Brogue's and NetHack's rest):
    /// the monsters act, a run pays a move (`docs/keys.md`).
    Wait,
}

impl Action {
    /// The canonical key of the action, upper case: `W` up, `A` left, `S` down, `D` right
    /// (the sp18 spec's movement keys), `U` drink, `.` wait. A save's history is these keys.
    pub const fn key(self) -> char {
        match self {
            Action::Move(Direction::Up) => 'W',
            Action::Move(Direction::Left) => 'A',
            Action::Move(Direction::Down) => 'S',
            Action::Move(Direction::Right) => 'D',
            Action::Drink => 'U',
            Action::Wait => '.',
        }
    }

    /// The action of a canonical key (either case); `None` for any other character. `U`
    /// (drink) is an action of explorations only: the interpreter ignores it elsewhere; `.`
    /// (wait) is one of every game.
    pub fn from_key(key: char) -> Option<Action> {
        match key.to_ascii_uppercase() {
            'W' => Some(Action::Move(Direction::Up)),
            'A' => Some(Action::Move(Direction::Left)),
            'S' => Some(Action::Move(Direction::Down)),
            'D' => Some(Action::Move(Direction::Right)),
            'U' => Some(Action::Drink),
            '.' => Some(Action::Wait),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip() {
        for d in Direction::ALL {
            let a = Action::Move(d);
            assert_eq!(Action::from_key(a.key()), Some(a));
            assert_eq!(Action::from_key(a.key().to_ascii_lowercase()), Some(a));
        }
        assert_eq!(Action::from_key('Q'), None);
        assert_eq!(Action::from_key('u'), Some(Action::Drink));
        assert_eq!(Action::Drink.key(), 'U');
        assert_eq!(Action::from_key('.'), Some(Action::Wait));
        assert_eq!(Action::Wait.key(), '.');
    }
}
