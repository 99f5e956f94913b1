//! `TETile`: one drawable tile (Java `byog.TileEngine.TETile`).

use std::borrow::Cow;

#[cfg(feature = "java-parity")]
use rand::{Rng, RngExt};

/// A 24-bit colour, one byte per channel (Java `java.awt.Color` without alpha).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Rgb {
    /// Red, 0..=255.
    pub r: u8,
    /// Green, 0..=255.
    pub g: u8,
    /// Blue, 0..=255.
    pub b: u8,
}

impl Rgb {
    /// A colour from its three channels.
    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Rgb { r, g, b }
    }

    /// The colour at two fifths of its brightness: how every front-end draws a remembered
    /// tile (seen before, out of sight now).
    pub const fn dimmed(self) -> Self {
        Rgb::new(self.r / 5 * 2, self.g / 5 * 2, self.b / 5 * 2)
    }
}

/// One tile: a character, a text colour, a background colour, a description and an optional
/// image path, as in the CS 61B sp18 skeleton's `TETile`.
///
/// Tiles are values; the world itself stores compact [`Tile`](super::Tile) ids (1 byte per
/// tile) and looks the `TETile` up in the [`Tileset`](super::Tileset) table when drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TETile {
    character: char,
    text_color: Rgb,
    background_color: Rgb,
    description: Cow<'static, str>,
    filepath: Option<Cow<'static, str>>,
}

impl TETile {
    /// Java `new TETile(character, textColor, backgroundColor, description)`.
    pub fn new(
        character: char,
        text_color: Rgb,
        background_color: Rgb,
        description: impl Into<Cow<'static, str>>,
    ) -> Self {
        TETile {
            character,
            text_color,
            background_color,
            description: description.into(),
            filepath: None,
        }
    }

    /// The `const` form of [`TETile::new`], used by the [`Tileset`](super::Tileset) table.
    pub const fn new_static(
        character: char,
        text_color: Rgb,
        background_color: Rgb,
        description: &'static str,
    ) -> Self {
        TETile {
            character,
            text_color,
            background_color,
            description: Cow::Borrowed(description),
            filepath: None,
        }
    }

    #[cfg(feature = "java-parity")]
    /// Java `new TETile(character, textColor, backgroundColor, description, filepath)`: a tile
    /// that a renderer may draw as the image at `filepath` (the character is the fallback).
    pub fn with_filepath(self, filepath: impl Into<Cow<'static, str>>) -> Self {
        TETile {
            filepath: Some(filepath.into()),
            ..self
        }
    }

    /// The character drawn for this tile (and used by [`TETile::to_string`]).
    pub fn character(&self) -> char {
        self.character
    }

    /// The human-readable description shown by the HUD, e.g. `"wall"`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The colour the character is drawn in.
    pub fn text_color(&self) -> Rgb {
        self.text_color
    }

    /// The colour the tile's cell is filled with.
    pub fn background_color(&self) -> Rgb {
        self.background_color
    }

    /// The optional image path given with [`TETile::with_filepath`].
    pub fn filepath(&self) -> Option<&str> {
        self.filepath.as_deref()
    }

    #[cfg(feature = "java-parity")]
    /// Java `TETile.colorVariant(t, dr, dg, db, random)`: a copy of `tile` whose text colour
    /// has each channel shifted by a uniform amount in `[-d, d]` and clamped to `0..=255`.
    /// Draws exactly three values from `rng` (red, green, blue, in that order).
    pub fn color_variant<R: Rng + ?Sized>(
        tile: &TETile,
        dr: u8,
        dg: u8,
        db: u8,
        rng: &mut R,
    ) -> TETile {
        let mut shift = |value: u8, d: u8| -> u8 {
            let d = i32::from(d);
            let delta = rng.random_range(-d..=d);
            (i32::from(value) + delta).clamp(0, 255) as u8
        };
        let c = tile.text_color;
        let text_color = Rgb::new(shift(c.r, dr), shift(c.g, dg), shift(c.b, db));
        TETile {
            text_color,
            ..tile.clone()
        }
    }
}
