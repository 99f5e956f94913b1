//! The catalog's identities: a world's hash, the check of a seed's failed tries and the
//! parameter set a world belongs to (`docs/catalog.md`).

use byog_worlds::generator::{GeneratorSettings, Level};

/// The world hash of a level: 64-bit FNV-1a (Fowler, Noll and Vo; offset basis
/// `0xcbf29ce484222325`, prime `0x100000001b3`) over, in this order: the width and the height
/// as 4-byte little-endian numbers; every tile's character (its [`byog_tile_engine::Tile`]
/// glyph, fixed by the Java tileset) in UTF-8, in storage order (row by row from y = 0, x
/// from 0); then the avatar's and the exit's x and y as 4-byte little-endian signed numbers.
/// It depends only on what a player sees, never on in-memory ids, so it is the same on every
/// platform and build. Shown as 16 lowercase hex digits ([`hash_hex`]).
pub fn world_hash(level: &Level) -> u64 {
    let mut h = FNV_OFFSET;
    let mut eat = |bytes: &[u8]| h = fnv1a(h, bytes);
    let world = &level.world;
    eat(&(world.width() as u32).to_le_bytes());
    eat(&(world.height() as u32).to_le_bytes());
    let mut buf = [0u8; 4];
    for tile in world.tiles() {
        eat(tile.character().encode_utf8(&mut buf).as_bytes());
    }
    for v in [level.avatar.x, level.avatar.y, level.exit.x, level.exit.y] {
        eat(&v.to_le_bytes());
    }
    h
}

/// FNV-1a's 64-bit offset basis.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a of `bytes`, continuing from `h` (start at [`FNV_OFFSET`]).
pub(crate) fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The check of a seed's failed tries (`seeds.failed_hash`): 64-bit FNV-1a over their
/// `unmet` JSON texts in try order, each followed by a newline. A failure edited without it
/// makes the entry stale.
pub(crate) fn failures_hash<'a>(unmets: impl IntoIterator<Item = &'a str>) -> u64 {
    unmets
        .into_iter()
        .fold(FNV_OFFSET, |h, u| fnv1a(fnv1a(h, u.as_bytes()), b"\n"))
}

/// A world hash as the catalog stores it: 16 lowercase hex digits.
pub fn hash_hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// The parameter set of a world: the JSON encoding (serde, fields in declaration order, so
/// canonical) of the generator settings without `max_tries`. Every setting that shapes a try
/// is in it, whatever fields [`GeneratorSettings`] has (the requirements included: they decide
/// which try passes); `max_tries` is not, since a try's world does not depend on it (a
/// remembered pass beyond `max_tries` is simply not used). Width and height are columns of
/// their own.
pub fn parameter_set(settings: &GeneratorSettings) -> String {
    let mut v = serde_json::to_value(settings).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.remove("max_tries");
    }
    v.to_string()
}
