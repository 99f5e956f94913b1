//! byog's software rasteriser (`byog-raster`): the picture the window's `TERenderer` draws
//! (`docs/java-parity.md`, TERenderer), as an RGBA image or a PNG file, without a window or a
//! GPU, for `byog gen --png`. It is a package of its own so that only the programs that draw
//! pictures (the command line; the window draws with macroquad) compile `image` and `fontdue`:
//! the tile engine below it gives it the cells' layout, the built-in font and the tiles, and
//! knows nothing of it.
//!
//! At scale 1 each tile cell is [`TILE_SIZE`] × [`TILE_SIZE`] (16 × 16) pixels: it is filled
//! with the tile's background colour, then the tile's character is drawn in its text colour
//! with the built-in font ([`FONT_BYTES`]) at [`FONT_SIZE`] (14) pixels, placed exactly as
//! `TERenderer` and macroquad 0.4's `measure_text` / `draw_text_ex` place it, and blended the
//! way the GPU blends macroquad's glyph atlas:
//!
//! - the glyph bitmap comes from `fontdue` 0.9 (the rasteriser macroquad uses): `w × h`
//!   pixels, `xmin` pixels right of the pen, measured `advance` pixels wide;
//! - its quad's top-left corner is at `(left + (16 − advance) / 2 + xmin, top + (16 − h) / 2)`
//!   pixels from the cell's top-left `(left, top)`, usually a fractional position;
//! - a pixel is drawn when its centre lies in the quad (a centre exactly on an edge, as glyphs
//!   of odd height have, counts for the bottom edge, not the top one, as OpenGL decides), with
//!   the bilinear sample of the atlas at its centre (macroquad's linear filter, 8-bit weights
//!   in 1/256ths as the GPU computes them); texels outside the glyph are the atlas's
//!   transparent black gap, so edges fade in both colour and alpha;
//! - the sample's grey level times the text colour is blended over the pixel with
//!   `src × α + dst × (1 − α)` in 8-bit arithmetic, rounded to nearest.
//!
//! Tiles are drawn in the window's order (`TERenderer::draw_world`): every cell's background,
//! then every glyph, row-major from the bottom row; so a glyph taller than its cell (`█`, `▒`,
//! 18 and 17 pixels) reaches one pixel row into the cells above and below it, as on screen.
//!
//! Measured against the window's own frame (`byog play --screenshot` under Xvfb, Mesa
//! llvmpipe): every world pixel equal (`tests/png.rs`, `png_matches_window_screenshot`). A
//! hardware GPU may round its filtering or blending by a unit here and there.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use image::codecs::png::PngEncoder;
use image::{ImageEncoder, Rgba, RgbaImage};

use byog_tile_engine::autotile::{self, WallStyle};
use byog_tile_engine::files;
use byog_tile_engine::layout::{FONT_BYTES, FONT_SIZE, Geometry, TILE_SIZE};
use byog_tile_engine::{Rgb, Tile, World};

/// The largest picture [`try_rasterize`] draws, in pixels (1 GiB of RGBA): an 80 × 30 world
/// is 1280 × 512 = 655,360 pixels; a 1000 × 1000 world, 256 million.
pub const MAX_PIXELS: u64 = 1 << 28;

/// Why a picture could not be drawn or written.
#[derive(Debug, thiserror::Error)]
pub enum RasterReason {
    /// The picture would have more than [`MAX_PIXELS`] pixels.
    #[error(
        "the picture would be {width} × {height} pixels, more than the {MAX_PIXELS} pixels \
         allowed (use a smaller world)"
    )]
    TooLarge {
        /// Picture width in pixels.
        width: u64,
        /// Picture height in pixels.
        height: u64,
    },
    /// The built-in font could not be parsed.
    #[error("the built-in font cannot be read: {0}")]
    Font(String),
    /// Creating, writing or renaming the file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// What stands at the path is not written over: a folder, a FIFO, a device, a link that
    /// is not followed ([`files`]).
    #[error("{0}")]
    Refused(#[from] files::Refusal),
    /// The PNG encoder failed.
    #[error("{0}")]
    Encode(#[from] image::ImageError),
}

/// [`write_png`] failed: the file it was writing and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the PNG {}: {reason}", path.display())]
pub struct RasterError {
    /// The PNG's path as given.
    pub path: PathBuf,
    /// What went wrong.
    pub reason: RasterReason,
}

/// Draws `world` as the window would at scale 1, with no HUD text: an image of
/// `cols × 16` by `rows × 16` pixels ([`Geometry::window_size`]), world tile `(x, y)` in cell
/// `(x + x_offset, y + y_offset)` counted in tiles from the bottom-left, y up, and every
/// other cell black (docs/java-parity.md, TERenderer). Tiles falling outside the cells are clipped.
///
/// Never panics: when the picture would exceed [`MAX_PIXELS`] the result is an empty 0 × 0
/// image (use [`try_rasterize`] to get the reason), and if the built-in font could not be
/// read the cells are drawn with their background colours only.
pub fn rasterize(world: &World, geometry: Geometry) -> RgbaImage {
    rasterize_styled(world, geometry, WallStyle::Java)
}

/// [`rasterize`] with walls drawn in `style` (box lines: [`autotile`]).
pub fn rasterize_styled(world: &World, geometry: Geometry, style: WallStyle) -> RgbaImage {
    match draw(world, geometry, style) {
        Ok((image, _)) => image,
        Err(_) => RgbaImage::new(0, 0),
    }
}

/// [`rasterize`], but an error when the picture would exceed [`MAX_PIXELS`] or the built-in
/// font cannot be read (instead of an empty or glyph-less picture).
pub fn try_rasterize(world: &World, geometry: Geometry) -> Result<RgbaImage, RasterReason> {
    try_rasterize_styled(world, geometry, WallStyle::Java)
}

/// [`try_rasterize`] with walls drawn in `style`.
pub fn try_rasterize_styled(
    world: &World,
    geometry: Geometry,
    style: WallStyle,
) -> Result<RgbaImage, RasterReason> {
    let (image, font) = draw(world, geometry, style)?;
    font.map(|()| image)
}

/// Draws `world` ([`try_rasterize`]) and writes it as an RGBA PNG at `path`. The file is
/// written next to its destination, synced and renamed over it, so `path` never holds half a
/// PNG. What stands at `path` is treated as saves treat theirs ([`files`]): a link the
/// user owns to a regular file is written through, anything else that is not a regular file
/// is refused ([`RasterReason::Refused`]) before anything is drawn or opened.
pub fn write_png(world: &World, geometry: Geometry, path: &Path) -> Result<(), RasterError> {
    write_png_styled(world, geometry, WallStyle::Java, path)
}

/// [`write_png`] with walls drawn in `style`.
pub fn write_png_styled(
    world: &World,
    geometry: Geometry,
    style: WallStyle,
    path: &Path,
) -> Result<(), RasterError> {
    let fail = |reason: RasterReason| RasterError {
        path: path.to_path_buf(),
        reason,
    };
    files::write_target(path).map_err(|e| fail(e.into()))?;
    let image = try_rasterize_styled(world, geometry, style).map_err(fail)?;
    encode_to(&image, path).map_err(fail)
}

fn encode_to(image: &RgbaImage, path: &Path) -> Result<(), RasterReason> {
    // A folder, a FIFO or a device is refused before anything is opened; a link the user
    // owns to a regular file is written through (the file replaced, the link kept).
    let target = files::write_target(path)?;
    let dir = files::folder_of(&target);
    let mut file = tempfile::Builder::new()
        .prefix(".byog-png")
        .suffix(".tmp")
        .tempfile_in(&dir)?;
    {
        let mut out = BufWriter::new(file.as_file_mut());
        PngEncoder::new(&mut out).write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            image::ColorType::Rgba8,
        )?;
        out.flush()?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A picture, not a secret: the usual rw-r--r-- rather than the temporary file's 0600.
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    file.as_file().sync_all()?;
    file.persist(&target)
        .map_err(|e| RasterReason::Io(e.error))?;
    Ok(())
}

/// The picture, and `Err` in the second place when glyphs could not be drawn (font failure).
type Drawn = (RgbaImage, Result<(), RasterReason>);

fn draw(world: &World, geometry: Geometry, style: WallStyle) -> Result<Drawn, RasterReason> {
    let side = u64::from(TILE_SIZE);
    let (width, height) = (
        u64::from(geometry.cols) * side,
        u64::from(geometry.rows) * side,
    );
    if width.saturating_mul(height) > MAX_PIXELS {
        return Err(RasterReason::TooLarge { width, height });
    }
    // Both fit in u32: each is at most MAX_PIXELS when the other is non-zero, and at most
    // u32::MAX × 16 only when the other is 0 (then nothing is drawn and the size is 0 × 0).
    let (Ok(w), Ok(h)) = (u32::try_from(width), u32::try_from(height)) else {
        return Ok((RgbaImage::new(0, 0), Ok(())));
    };
    let mut canvas = Canvas {
        image: RgbaImage::from_pixel(w, h, Rgba([0, 0, 0, 255])),
    };
    let glyphs = glyphs();
    let rows = i64::from(geometry.rows);
    // The top-left pixel of world tile `i`'s cell.
    let origin = |i: usize| {
        let pos = world.pos_of(i);
        let cx = i64::from(pos.x) + i64::from(geometry.x_offset);
        let cy = i64::from(pos.y) + i64::from(geometry.y_offset);
        (cx * side as i64, (rows - 1 - cy) * side as i64)
    };
    // As `TERenderer::draw_world`: every background, then every glyph, each in row-major
    // order from the bottom row.
    for (i, tile) in world.tiles().iter().enumerate() {
        let (left, top) = origin(i);
        let color = autotile::background(*tile, style);
        canvas.fill(left, top, side as i64, side as i64, color);
    }
    if let Ok(glyphs) = glyphs {
        for (i, tile) in world.tiles().iter().enumerate() {
            let (left, top) = origin(i);
            if style == WallStyle::Box && *tile == Tile::Wall {
                let mask = autotile::wall_mask_in(world, world.pos_of(i));
                let color = tile.tetile().text_color();
                for (x, y, w, h) in autotile::strokes(mask, TILE_SIZE) {
                    canvas.fill(
                        left + i64::from(x),
                        top + i64::from(y),
                        i64::from(w),
                        i64::from(h),
                        color,
                    );
                }
                continue;
            }
            let glyph = &glyphs[usize::from(tile.id())];
            canvas.stamp(left, top, glyph, tile.tetile().text_color());
        }
    }
    // Everything outside the world's cells is black, as the window's cleared background and
    // HUD rows are (no HUD text here): this also trims glyph overhang into those cells.
    let world_left = i64::from(geometry.x_offset) * side as i64;
    let world_right = world_left + world.width() as i64 * side as i64;
    let world_bottom = (rows - i64::from(geometry.y_offset)) * side as i64;
    let world_top = world_bottom - world.height() as i64 * side as i64;
    for (x, y, px) in canvas.image.enumerate_pixels_mut() {
        let (x, y) = (i64::from(x), i64::from(y));
        if x < world_left || x >= world_right || y < world_top || y >= world_bottom {
            *px = Rgba([0, 0, 0, 255]);
        }
    }
    let font = glyphs
        .map(|_| ())
        .map_err(|e| RasterReason::Font(e.clone()));
    Ok((canvas.image, font))
}

struct Canvas {
    image: RgbaImage,
}

impl Canvas {
    /// Fills `w × h` pixels from `(left, top)` (pixels from the top-left), clipped.
    fn fill(&mut self, left: i64, top: i64, w: i64, h: i64, color: Rgb) {
        let (iw, ih) = (
            i64::from(self.image.width()),
            i64::from(self.image.height()),
        );
        let px = Rgba([color.r, color.g, color.b, 255]);
        for y in top.max(0)..(top + h).min(ih) {
            for x in left.max(0)..(left + w).min(iw) {
                self.image.put_pixel(x as u32, y as u32, px);
            }
        }
    }

    /// Blends `glyph` in `color` over the cell whose top-left pixel is `(left, top)`, clipped.
    fn stamp(&mut self, left: i64, top: i64, glyph: &Glyph, color: Rgb) {
        let (iw, ih) = (
            i64::from(self.image.width()),
            i64::from(self.image.height()),
        );
        let text = [color.r, color.g, color.b];
        for (j, row) in glyph.ink.chunks(glyph.width.max(1)).enumerate() {
            let y = top + glyph.top + j as i64;
            if y < 0 || y >= ih {
                continue;
            }
            for (i, ink) in row.iter().enumerate() {
                let x = left + glyph.left + i as i64;
                if x < 0 || x >= iw || ink.alpha == 0 {
                    continue;
                }
                let dst = self.image.get_pixel_mut(x as u32, y as u32);
                for (d, t) in dst.0.iter_mut().zip(text) {
                    // The text colour times the sample, blended src × α + dst × (1 − α).
                    let src = mul(t, ink.white) as u8;
                    *d = (mul(src, ink.alpha) + mul(*d, 255 - ink.alpha)).min(255) as u8;
                }
            }
        }
    }
}

/// One pixel of a drawn glyph: the bilinear atlas sample at the pixel's centre.
#[derive(Debug, Clone, Copy, Default)]
struct Ink {
    /// The sample's grey level, 0..=255 (below 255 where it mixes in the atlas's transparent
    /// black gap).
    white: u8,
    /// The sample's alpha (glyph coverage), 0..=255.
    alpha: u8,
}

/// `a + (b - a) × w / 256`, rounded: one step of an 8-bit bilinear filter.
fn lerp(a: i32, b: i32, w: i32) -> i32 {
    a + (((b - a) * w + 128) >> 8)
}

/// `a × b / 255`, rounded to the nearest integer.
fn mul(a: u8, b: u8) -> u32 {
    (2 * u32::from(a) * u32::from(b) + 255) / 510
}

/// A character as drawn in a cell at scale 1: `width × height` pixels of [`Ink`], row-major
/// from the top, its top-left pixel `(left, top)` pixels from the cell's top-left (negative
/// or past 16 where the glyph overhangs its cell).
#[derive(Debug, Clone, Default)]
struct Glyph {
    left: i64,
    top: i64,
    width: usize,
    ink: Vec<Ink>,
}

/// The font, parsed once.
fn font() -> Result<&'static fontdue::Font, &'static String> {
    static FONT: OnceLock<Result<fontdue::Font, String>> = OnceLock::new();
    FONT.get_or_init(|| {
        fontdue::Font::from_bytes(FONT_BYTES, fontdue::FontSettings::default())
            .map_err(|e| e.to_string())
    })
    .as_ref()
}

/// Every tile kind's glyph, indexed by [`Tile::id`], rasterised once.
fn glyphs() -> Result<&'static [Glyph; Tile::COUNT], &'static String> {
    static GLYPHS: OnceLock<Result<[Glyph; Tile::COUNT], String>> = OnceLock::new();
    GLYPHS
        .get_or_init(|| {
            let font = font().map_err(Clone::clone)?;
            Ok(Tile::ALL.map(|t| layout(font, t.character())))
        })
        .as_ref()
}

/// Places `c` in a cell as `TERenderer`'s glyph drawing and macroquad's `draw_text_ex` do,
/// and samples the glyph atlas at each covered pixel's centre.
fn layout(font: &fontdue::Font, c: char) -> Glyph {
    if c == ' ' {
        return Glyph::default();
    }
    let (m, coverage) = font.rasterize(c, f32::from(FONT_SIZE));
    let (gw, gh) = (m.width, m.height);
    if gw == 0 || gh == 0 || coverage.len() != gw * gh {
        return Glyph::default();
    }
    let side = TILE_SIZE as f32;
    // measure_text: width = advance, height = glyph height, offset_y = height + ymin.
    let (dims_w, dims_h) = (m.advance_width, gh as f32);
    let offset_y = dims_h + m.ymin as f32;
    // TERenderer: the pen position, from the cell's top-left (centred with measure_text).
    let tx = (side - dims_w) / 2.0;
    let ty = (side - dims_h) / 2.0 + offset_y;
    // draw_text_ex: the glyph quad's top-left.
    let qx = m.xmin as f32 + tx;
    let qy = (-dims_h - m.ymin as f32) + ty;
    // The pixels drawn are those whose centres lie in the quad; a centre exactly on an edge
    // (glyphs of odd height sit on half pixels) counts for the left and bottom edges, not
    // the right and top ones, as the window's rasteriser (OpenGL, y up) decides.
    let from_left = |q: f32| (q - 0.5).ceil() as i64; // first centre at or right of q
    let from_top = |q: f32| (q - 0.5).floor() as i64 + 1; // first centre strictly below q
    let (left, right) = (from_left(qx), from_left(qx + gw as f32));
    let (top, bottom) = (from_top(qy), from_top(qy + gh as f32));
    let (width, height) = (
        (right - left).max(0) as usize,
        (bottom - top).max(0) as usize,
    );
    // A texel: (white, coverage), 0..=255; the transparent black gap around the glyph.
    let texel = |i: i64, j: i64| -> [i32; 2] {
        if i < 0 || j < 0 || i >= gw as i64 || j >= gh as i64 {
            [0, 0]
        } else {
            [255, i32::from(coverage[j as usize * gw + i as usize])]
        }
    };
    // Bilinear weights in 1/256ths, as a GPU's 8-bit texture filter computes them.
    let split = |t: f32| {
        let floor = t.floor();
        (floor as i64, ((t - floor) * 256.0).round() as i32)
    };
    let mut ink = Vec::with_capacity(width * height);
    for py in top..bottom {
        // The pixel centre in texel-centre coordinates.
        let (j0, wy) = split(py as f32 + 0.5 - qy - 0.5);
        for px in left..right {
            let (i0, wx) = split(px as f32 + 0.5 - qx - 0.5);
            let mut sample = [0u8; 2];
            for (k, s) in sample.iter_mut().enumerate() {
                let above = lerp(texel(i0, j0)[k], texel(i0 + 1, j0)[k], wx);
                let below = lerp(texel(i0, j0 + 1)[k], texel(i0 + 1, j0 + 1)[k], wx);
                *s = lerp(above, below, wy).clamp(0, 255) as u8;
            }
            ink.push(Ink {
                white: sample[0],
                alpha: sample[1],
            });
        }
    }
    Glyph {
        left,
        top,
        width,
        ink,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_but_nothing_has_ink() {
        let glyphs = glyphs().unwrap();
        for t in Tile::ALL {
            let g = &glyphs[usize::from(t.id())];
            let total: u32 = g.ink.iter().map(|i| u32::from(i.alpha)).sum();
            assert_eq!(total > 255, t != Tile::Nothing, "{t:?}: {total}");
        }
    }

    #[test]
    fn every_box_wall_character_is_in_the_embedded_font() {
        // Pictures draw box walls as strokes, but terminals and text use the characters.
        let font = font().unwrap();
        for mask in 0..16 {
            let c = autotile::box_char(mask);
            assert_ne!(font.lookup_glyph_index(c), 0, "{c:?} (mask {mask})");
        }
    }

    #[test]
    fn every_tile_glyph_is_in_the_embedded_font() {
        // A missing glyph would draw the font's empty box (glyph 0) instead.
        let font = font().unwrap();
        for t in Tile::ALL.into_iter().filter(|&t| t != Tile::Nothing) {
            assert_ne!(font.lookup_glyph_index(t.character()), 0, "{t:?}");
        }
    }
}
