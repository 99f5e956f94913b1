//! The camera: which world tiles a view of `cols × rows` cells shows, for worlds larger than
//! the screen (`docs/sight.md`). The window and the terminal share it; it is
//! integer arithmetic on tiles and knows no pixels.
//!
//! Per axis, a world that fits in the view is centred in it (as the Java skeleton's offsets
//! do) and never scrolls. A world larger than the view scrolls to keep the followed tile (the
//! avatar) inside a *dead zone*, the middle of the view: the avatar walks freely inside it,
//! and when it steps out the view moves by just as much as brings it back to the zone's edge,
//! so the world does not jitter under every step. The view never shows past the world's
//! edges. This is the "camera window" of platformer cameras (Itay Keren, "Scroll Back: The
//! Theory and Practice of Cameras in Side-Scrollers", 2015).

use super::geometry::{Pos, Rect};

/// The dead zone's margin on each side, as a fraction of the view: 1/`DEAD_ZONE_DIVISOR` of
/// the view's side on each edge is outside the zone. Larger divisors push the camera to move
/// later (a larger dead zone); 2 would keep the avatar exactly centred.
pub const DEAD_ZONE_DIVISOR: i32 = 4;

/// A view of `cols × rows` cells onto a world: the world tile shown in the view's
/// bottom-left cell. Tile `p` is drawn in view cell `p - origin` (cells from the view's
/// bottom-left, y up); a negative origin centres a world smaller than the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Camera {
    /// The world tile in the view's bottom-left cell (may lie outside the world).
    pub origin: Pos,
    /// The view's width in cells (tiles).
    pub cols: u32,
    /// The view's height in cells (tiles).
    pub rows: u32,
}

impl Camera {
    /// A camera for a `cols × rows` view of a `world_w × world_h` world, centred on `focus`
    /// (then kept inside the world's edges).
    pub fn centred(cols: u32, rows: u32, world_w: usize, world_h: usize, focus: Pos) -> Self {
        let centre = |view: u32, world: usize, at: i32| {
            clamp_axis(at - view as i32 / 2, view as i32, world as i32)
        };
        Camera {
            origin: Pos::new(
                centre(cols, world_w, focus.x),
                centre(rows, world_h, focus.y),
            ),
            cols,
            rows,
        }
    }

    /// The camera after the view became `cols × rows` and the followed tile moved to `focus`:
    /// the least scroll that puts `focus` back inside the dead zone, kept inside the world's
    /// edges; a world that fits on an axis is centred on it.
    #[must_use]
    pub fn follow(self, cols: u32, rows: u32, world_w: usize, world_h: usize, focus: Pos) -> Self {
        self.follow_keeping(cols, rows, world_w, world_h, focus, 0)
    }

    /// As [`Camera::follow`], with the dead zone's margin at least `keep` tiles (as far as
    /// the view allows: at most half of it), so that the `keep` tiles round `focus` stay in
    /// view: the light's radius and one, in sight, so that nothing lit is ever off the view.
    #[must_use]
    pub fn follow_keeping(
        self,
        cols: u32,
        rows: u32,
        world_w: usize,
        world_h: usize,
        focus: Pos,
        keep: u32,
    ) -> Self {
        let keep = keep as i32;
        Camera {
            origin: Pos::new(
                follow_axis(self.origin.x, cols as i32, world_w as i32, focus.x, keep),
                follow_axis(self.origin.y, rows as i32, world_h as i32, focus.y, keep),
            ),
            cols,
            rows,
        }
    }

    /// The world tiles the view covers (some may lie outside the world; intersect with the
    /// world's rectangle for the ones to draw).
    pub fn view(&self) -> Rect {
        Rect::new(
            self.origin.x,
            self.origin.y,
            self.cols as i32,
            self.rows as i32,
        )
    }

    /// The view cell (from its bottom-left, y up) that shows world tile `pos`, or `None` when
    /// it is off the view.
    pub fn cell_of(&self, pos: Pos) -> Option<(u32, u32)> {
        self.view().contains(pos).then(|| {
            (
                (pos.x - self.origin.x) as u32,
                (pos.y - self.origin.y) as u32,
            )
        })
    }

    /// The world tile shown in view cell `(cx, cy)` (from the view's bottom-left, y up); it
    /// may lie outside the world.
    pub fn tile_in(&self, cx: u32, cy: u32) -> Pos {
        Pos::new(self.origin.x + cx as i32, self.origin.y + cy as i32)
    }

    /// Whether the whole `world_w × world_h` world is in the view.
    pub fn shows_all(&self, world_w: usize, world_h: usize) -> bool {
        world_w as u64 <= u64::from(self.cols) && world_h as u64 <= u64::from(self.rows)
    }
}

/// One axis of [`Camera::follow_keeping`]: the new origin on an axis of `view` cells over a
/// `world` of tiles, following `focus` with a margin of at least `keep` (at most half the
/// view).
fn follow_axis(origin: i32, view: i32, world: i32, focus: i32, keep: i32) -> i32 {
    if world <= view {
        return clamp_axis(origin, view, world);
    }
    let margin = (view / DEAD_ZONE_DIVISOR).max(keep.min((view - 1) / 2));
    let low = origin + margin;
    let high = origin + view - 1 - margin;
    let origin = if focus < low {
        focus - margin
    } else if focus > high {
        focus - (view - 1 - margin)
    } else {
        origin
    };
    clamp_axis(origin, view, world)
}

/// Keeps an origin inside a world's edges: a world that fits is centred (a negative origin),
/// a larger one's view never passes its edges.
fn clamp_axis(origin: i32, view: i32, world: i32) -> i32 {
    if world <= view {
        -((view - world) / 2)
    } else {
        origin.clamp(0, world - view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_world_that_fits_is_centred_and_never_scrolls() {
        // Java's offsets: (view - world) / 2 cells left and below.
        let cam = Camera::centred(80, 30, 60, 20, Pos::new(59, 19));
        assert_eq!(cam.origin, Pos::new(-10, -5));
        let moved = cam.follow(80, 30, 60, 20, Pos::new(0, 0));
        assert_eq!(moved.origin, Pos::new(-10, -5));
        assert!(cam.shows_all(60, 20));
        assert_eq!(cam.cell_of(Pos::new(0, 0)), Some((10, 5)));
        assert_eq!(cam.tile_in(10, 5), Pos::new(0, 0));
    }

    #[test]
    fn the_avatar_moves_freely_inside_the_dead_zone() {
        // A 40-cell view over 1000 tiles: margins of 10, the zone is cells 10..=29.
        let cam = Camera {
            origin: Pos::new(100, 0),
            cols: 40,
            rows: 40,
        };
        for x in 110..=129 {
            assert_eq!(
                cam.follow(40, 40, 1000, 1000, Pos::new(x, 20)).origin.x,
                100
            );
        }
        // One step past the zone's right edge scrolls by one; past the left edge likewise.
        assert_eq!(
            cam.follow(40, 40, 1000, 1000, Pos::new(130, 20)).origin.x,
            101
        );
        assert_eq!(
            cam.follow(40, 40, 1000, 1000, Pos::new(109, 20)).origin.x,
            99
        );
        // A jump (a load) scrolls just enough to bring it to the zone's edge.
        assert_eq!(
            cam.follow(40, 40, 1000, 1000, Pos::new(500, 20)).origin.x,
            471
        );
    }

    #[test]
    fn the_view_never_passes_the_world_edges() {
        let cam = Camera::centred(40, 20, 100, 50, Pos::new(0, 0));
        assert_eq!(cam.origin, Pos::new(0, 0));
        let cam = Camera::centred(40, 20, 100, 50, Pos::new(99, 49));
        assert_eq!(cam.origin, Pos::new(60, 30));
        assert_eq!(
            cam.follow(40, 20, 100, 50, Pos::new(99, 49)).origin,
            cam.origin
        );
    }

    /// Walks over a large world and checks, step by step, what the camera promises: the
    /// avatar is always on the view, inside the dead zone unless the world's edge stops the
    /// view, and the view stays inside the world.
    #[test]
    fn random_walks_keep_the_avatar_in_view() {
        let (w, h) = (300usize, 120usize);
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as i32
        };
        let mut at = Pos::new(150, 60);
        let mut cam = Camera::centred(50, 24, w, h, at);
        for _ in 0..20_000 {
            let step = [(1, 0), (-1, 0), (0, 1), (0, -1)][(next() % 4) as usize];
            at = Pos::new(
                (at.x + step.0).clamp(0, w as i32 - 1),
                (at.y + step.1).clamp(0, h as i32 - 1),
            );
            cam = cam.follow(50, 24, w, h, at);
            let (cx, cy) = cam.cell_of(at).expect("the avatar is on the view");
            let view = cam.view();
            assert!(view.x >= 0 && view.right() <= w as i32);
            assert!(view.y >= 0 && view.top() <= h as i32);
            let in_zone_x = (12..=37).contains(&cx);
            let in_zone_y = (6..=17).contains(&cy);
            assert!(in_zone_x || view.x == 0 || view.right() == w as i32, "{cx}");
            assert!(in_zone_y || view.y == 0 || view.top() == h as i32, "{cy}");
        }
    }

    /// Issue 31, problem 16: in sight the camera keeps the light's radius round the avatar
    /// in view, so no lit tile is ever off the view's top (or any) edge, however the avatar
    /// walks; a view too small for it centres the avatar.
    #[test]
    fn the_light_stays_in_view_when_the_camera_keeps_it() {
        let (w, h) = (200usize, 120usize);
        let keep = 9;
        for (cols, rows) in [(51u32, 19u32), (40, 24), (17, 11)] {
            let mut at = Pos::new(100, 60);
            let mut camera = Camera::centred(cols, rows, w, h, at);
            let mut state = 7u64;
            for _ in 0..2000 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let (dx, dy) = [(1, 0), (-1, 0), (0, 1), (0, -1)][(state >> 33) as usize % 4];
                at = Pos::new(
                    (at.x + dx).clamp(0, w as i32 - 1),
                    (at.y + dy).clamp(0, h as i32 - 1),
                );
                camera = camera.follow_keeping(cols, rows, w, h, at, keep);
                let view = camera.view();
                let room = |v: u32| (keep as i32).min((v as i32 - 1) / 2);
                // Round the avatar, `keep` tiles (or half the view) are in view, unless the
                // world's edge is nearer.
                for (lo, hi, p, v, world) in [
                    (view.x, view.right(), at.x, cols, w as i32),
                    (view.y, view.top(), at.y, rows, h as i32),
                ] {
                    let need = room(v);
                    assert!(
                        p - need >= lo || lo == 0,
                        "{cols}x{rows}: {p} in {lo}..{hi}"
                    );
                    assert!(
                        p + need < hi || hi == world,
                        "{cols}x{rows}: {p} in {lo}..{hi}"
                    );
                }
            }
        }
    }
}
