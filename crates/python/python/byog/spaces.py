"""The observation and action spaces of byog's environments (docs/python.md)."""

import numpy as np
from gymnasium import spaces

from ._byog import GLYPH_CHARS, MESSAGE_BYTES, NUM_GLYPHS, PALETTE, STATS


def observation_space(keys, view_shape):
    """The ``Dict`` of one game's observation: the arrays of ``keys`` for a view of
    ``view_shape`` = ``(rows, cols)`` tiles."""
    rows, cols = view_shape
    i64 = np.iinfo(np.int64)
    every = {
        "glyphs": spaces.Box(0, NUM_GLYPHS - 1, (rows, cols), np.uint16),
        "chars": spaces.Box(0, int(GLYPH_CHARS.max()), (rows, cols), np.uint32),
        "colors": spaces.Box(0, len(PALETTE) - 1, (rows, cols), np.uint8),
        "stats": spaces.Box(-1, i64.max, (len(STATS),), np.int64),
        "message": spaces.Box(0, 255, (MESSAGE_BYTES,), np.uint8),
    }
    return spaces.Dict({k: every[k] for k in keys})
