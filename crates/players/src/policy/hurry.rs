//! `hurry`: a player of runs who ignores the features. It explores the seen tiles' nearest
//! frontier until the exit is seen, then walks into it (the [`SightPolicy`] with features
//! ignored: passing over one on the way still handles it, as it would for a player).

use super::sight::SightPolicy;

/// The `hurry` policy.
pub fn hurry() -> SightPolicy {
    SightPolicy {
        ignore_features: true,
        ..SightPolicy::default()
    }
}
