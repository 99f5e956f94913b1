//! What the player has seen of the things whose first sighting stops a walk.

use super::known::knows;
use super::stop::Thing;
use crate::game::GameState;
use crate::run::FeatureKind;
use byog_tile_engine::Pos;

/// What the player has seen of the things whose first sighting stops a walk: each with its
/// dungeon tile. The hook for new kinds of things (monsters): add them in [`sighting`] and
/// [`Sighting::update`] reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sighting(Vec<(Pos, Thing)>);

/// The things `game`'s player knows so far (a feature or the exit on a known tile) and the
/// monsters it sees now.
pub fn sighting(game: &GameState) -> Sighting {
    let o = game.origin();
    let abs = |p: Pos| Pos::new(p.x + o.x, p.y + o.y);
    let mut things: Vec<(Pos, Thing)> = game
        .features()
        .iter()
        .filter(|f| knows(game, f.pos))
        .map(|f| {
            let thing = match f.kind {
                FeatureKind::Chest => Thing::Chest,
                FeatureKind::Trap => Thing::Trap,
            };
            (abs(f.pos), thing)
        })
        .collect();
    if knows(game, game.exit()) {
        things.push((abs(game.exit()), Thing::Exit));
    }
    // Monsters in sight now, by id (they move: a monster is new when its id is).
    if let Some(e) = game.explore() {
        let sight = e.sight();
        things.extend(
            e.monsters()
                .filter(|m| sight.contains(m.pos))
                .map(|m| (Pos::new(m.id as i32, i32::MIN), Thing::Monster)),
        );
    }
    Sighting(things)
}

impl Sighting {
    /// The first thing `game` shows that this sighting did not hold (what is newly in sight),
    /// and then this sighting made what the walk has seen so far: the things of `game` and
    /// the monsters seen before that are out of sight now. A monster that leaves sight and comes
    /// back within one walk (a bat flitting at the edge of sight) stops it once, not each
    /// time it comes back.
    pub fn update(&mut self, game: &GameState) -> Option<Thing> {
        let mut now = sighting(game).0;
        let new = now
            .iter()
            .find(|t| !self.0.contains(t))
            .map(|&(_, thing)| thing);
        let gone: Vec<(Pos, Thing)> = self
            .0
            .iter()
            .filter(|t| t.1 == Thing::Monster && !now.contains(t))
            .copied()
            .collect();
        now.extend(gone);
        self.0 = now;
        new
    }
}
