//! What is shown: the game on screen, sight and walls, the camera, the frame and its screen.

use byog_game::GameState;
use byog_game::interpreter::Phase;
use byog_tile_engine::{Camera, Pos, WallStyle};

use super::options::slot_chosen;
use super::{Overlay, Shell, Showing, State};
use crate::frame::{Frame, FrameRequest, Look, Scene, view_of};
use crate::screens::{self, Context, Line, SaveState, Screen, Style, TextScreen};

impl Shell {
    /// The game on screen: the one watched, else the interpreter's (also after it ended);
    /// none while busy.
    pub fn shown_game(&self) -> Option<&GameState> {
        match &self.state {
            State::Ready {
                view: Showing::Watching { watch, .. },
                ..
            } => watch.game(),
            State::Ready { session, .. } => session.interpreter.game(),
            State::Busy(_) => None,
        }
    }

    /// Whether the world is on screen (a game in play, or a watch) rather than a text screen;
    /// the front-ends' own game keys (the window's zoom) work only then.
    pub fn shows_world(&self) -> bool {
        match &self.state {
            State::Ready { session, view } => match view {
                Showing::Watching { .. } => true,
                Showing::Plain | Showing::Walking(_) | Showing::Confirm { .. } => {
                    matches!(session.interpreter.phase(), Phase::Playing { .. })
                }
                Showing::Overlay(_)
                | Showing::Floor { .. }
                | Showing::Song
                | Showing::Closing { .. } => false,
            },
            State::Busy(_) => false,
        }
    }

    /// Whether `game` is drawn in sight: a run and an exploration always, a classic game
    /// when Tab says so.
    pub fn in_sight(&self, game: &GameState) -> bool {
        game.run().is_some() || game.explore().is_some() || self.classic_sight
    }

    /// How `game`'s walls are drawn: `--walls`, else box walls in runs and explorations and
    /// the Java `#` in the classic game.
    pub(crate) fn walls(&self, game: &GameState) -> WallStyle {
        self.options
            .walls
            .unwrap_or(if game.run().is_some() || game.explore().is_some() {
                WallStyle::Box
            } else {
                WallStyle::Java
            })
    }

    /// Whether the shown world is drawn at a fixed tile size, the camera scrolling, rather
    /// than scaled to fit: an exploration's world grows room by room.
    pub fn fixed_tile_size(&self) -> bool {
        self.shown_game().is_some_and(|g| g.explore().is_some())
    }

    /// Whether the tile at `pos` may be named under the pointer: in sight, only one seen.
    pub(crate) fn names(&self, game: &GameState, pos: Pos) -> bool {
        !self.in_sight(game) || game.has_seen(pos)
    }

    /// The camera over the shown world for a view of `cols × rows` tiles, following the
    /// avatar: recentred for a new scene (or after a new game, a load, a new floor, a watch
    /// started or left), kept on the same tiles when the scene's frame moved. `None` when no
    /// world is shown.
    pub(crate) fn follow(&mut self, cols: u32, rows: u32) -> Option<Camera> {
        let game = self.shown_game().filter(|_| self.shows_world())?;
        let scene = Scene::of(game);
        let (w, h, at) = (scene.width, scene.height, game.avatar());
        // In sight, nothing lit is ever off the view: the light's radius and one round the
        // avatar stay in it.
        let keep = if self.in_sight(game) {
            byog_game::game::SIGHT_RADIUS + 1
        } else {
            0
        };
        let camera = match self.camera {
            Some((s, camera)) if s == scene => camera.follow_keeping(cols, rows, w, h, at, keep),
            Some((s, mut camera)) if s.is_moved(&scene) => {
                camera.origin.x += s.origin.x - scene.origin.x;
                camera.origin.y += s.origin.y - scene.origin.y;
                camera.follow_keeping(cols, rows, w, h, at, keep)
            }
            _ => Camera::centred(cols, rows, w, h, at),
        };
        self.camera = Some((scene, camera));
        Some(camera)
    }

    /// What to show now (`now` in front-end seconds), as one [`Frame`] for a view of
    /// `request`'s size: the camera follows the avatar, the HUD names the tile under the
    /// pointer, and the view's cells and the minimap are composed (only the tiles on screen).
    pub fn frame(&mut self, now: f64, request: &FrameRequest) -> Frame {
        let camera = self.follow(request.view_cols, request.view_rows);
        let under = request.pointer.and_then(|(c, r)| self.tile_under(c, r));
        let screen = self.screen(now, under);
        let mut frame = Frame {
            screen,
            view: None,
            minimap: None,
        };
        if !matches!(frame.screen, Screen::Game(_)) {
            return frame;
        }
        let (Some(camera), Some(game)) = (camera, self.shown_game()) else {
            return frame;
        };
        let sight = self.in_sight(game);
        let look = Look {
            walls: self.walls(game),
            sight,
        };
        let view = view_of(game, &camera, look, self.route().unwrap_or(&[]));
        if let Some(max) = request.minimap {
            let scene = Scene::of(game);
            let shown = match &self.state {
                State::Ready {
                    view: Showing::Watching { watch, .. },
                    ..
                } => watch.game(),
                State::Ready { session, .. } => session.interpreter.game(),
                State::Busy(_) => None,
            };
            if let Some(game) = shown {
                // Kept up to date whether shown or not, so that `M` shows it current.
                let map = self
                    .minimap
                    .frame(game, scene, sight, (&camera, &view), max);
                frame.minimap = map.filter(|_| self.minimap_wanted);
            }
        }
        frame.view = Some(view);
        frame
    }

    /// What to show now as a screen (`now` in front-end seconds), with `under_mouse` the
    /// world tile under the pointer (already checked: in sight, only a tile seen is named): the busy
    /// screen, an overlay, the screen between floors, the watch's HUD, or the interpreter's
    /// screen.
    pub fn screen(&mut self, now: f64, under_mouse: Option<Pos>) -> Screen {
        let (session, view) = match &self.state {
            State::Busy(busy) => {
                let progress = busy.progress.lock().ok().and_then(|last| *last);
                return Screen::Text(screens::busy_screen(
                    &busy.what,
                    now - busy.since,
                    progress,
                    self.options.front_end.quit_now(),
                ));
            }
            State::Ready { session, view } => (session, view),
        };
        match view {
            Showing::Overlay(Overlay::Help { page }) => {
                let phase = session.interpreter.phase();
                let kind = session.interpreter.game().map(GameState::kind);
                Screen::Text(screens::help_screen(
                    kind.filter(|_| phase != Phase::Menu),
                    *page,
                ))
            }
            Showing::Song => Screen::Text(screens::tutorial_screen()),
            Showing::Overlay(Overlay::Log { back }) => {
                let log: Vec<String> = session
                    .interpreter
                    .game()
                    .map(|g| g.log().iter().cloned().collect())
                    .unwrap_or_default();
                Screen::Text(screens::log_screen(&log, *back))
            }
            Showing::Overlay(Overlay::Slots(slots)) => {
                Screen::Text(screens::slots_screen(slots, &session.store.slot_name()))
            }
            Showing::Overlay(Overlay::Replace(replaced)) => Screen::Text(screens::replace_screen(
                replaced,
                &session.store.slot_name(),
            )),
            Showing::Floor { screen, .. } => Screen::Text(screen.clone()),
            Showing::Watching { watch, .. } => {
                match screens::watch_hud(watch, under_mouse, &self.message) {
                    Some(hud) => Screen::Game(hud),
                    None => Screen::Text(TextScreen {
                        lines: vec![Line::new(self.message.clone(), Style::Heading)],
                        message: None,
                    }),
                }
            }
            Showing::Plain
            | Showing::Walking(_)
            | Showing::Confirm { .. }
            | Showing::Closing { .. } => {
                // Only the menu shows the save: the files are looked at only there.
                let menu = session.interpreter.phase() == Phase::Menu;
                let save = if menu {
                    self.save_check.state_of(&session.store)
                } else {
                    SaveState::Missing
                };
                let others = if menu && !slot_chosen(&self.options.saves) {
                    self.save_check.others(&session.store)
                } else {
                    0
                };
                let mut screen = screens::screen(
                    &session.interpreter,
                    Context {
                        save: &save,
                        others,
                        message: &self.message,
                        under_mouse,
                        seed_label: self.options.seed_label.as_deref(),
                        end_note: self.end_note.as_deref(),
                        front_end: self.options.front_end,
                    },
                );
                // A free message line says what a HUD number shown for the first time means.
                if let (Screen::Game(hud), Some(game)) = (&mut screen, session.interpreter.game())
                    && hud.rows[1].left.is_empty()
                    && let Some(words) =
                        self.explainer
                            .message(hud, game.kind(), self.options.seed_label.as_deref())
                {
                    hud.rows[1].left = words;
                }
                screen
            }
        }
    }
}
