"""byog's games for programs that learn: Gymnasium environments and a native batch.

``import byog`` registers three environments, one a game of byog (docs/python.md):

- ``byog/Classic-v0``: a classic world (``N<seed>S``): find the exit;
- ``byog/Run-v0``: a run (``R<seed>S``): floors B1..B10, chests, traps and a move budget;
- ``byog/Explore-v0``: an exploration (``E<seed>S``): rooms made as you enter them, monsters,
  potions, and a score banked by walking back out.

Each takes the command line's options as keyword arguments (``width``, ``height``,
``floors``, ``generator``, ``monsters``, ...; ``byog.OPTION_NAMES`` lists them) and the
observation's (``view``, ``crop``, ``travel``, ``max_episode_steps``, ``observation_keys``).
``gymnasium.make_vec(ID, num_envs=N, vectorization_mode="vector_entry_point")`` returns the
native batch, :class:`byog.vector.ByogVectorEnv`.
"""

import gymnasium
import numpy as np

from ._byog import (
    ACTION_KEYS,
    GLYPH_CHARS,
    GLYPH_NAMES,
    MESSAGE_BYTES,
    NUM_GLYPHS,
    OBSERVATION_KEYS,
    OPTION_NAMES,
    PALETTE,
    STATS,
    Agent,
    Batch,
)
from .env import ByogEnv
from .vector import ByogVectorEnv

__all__ = [
    "ACTION_KEYS",
    "ENV_IDS",
    "GLYPH_CHARS",
    "GLYPH_NAMES",
    "MESSAGE_BYTES",
    "NUM_GLYPHS",
    "OBSERVATION_KEYS",
    "OPTION_NAMES",
    "PALETTE",
    "STAT",
    "STATS",
    "Agent",
    "Batch",
    "ByogEnv",
    "ByogVectorEnv",
    "message_text",
    "register_envs",
    "render_glyphs",
]

#: Each entry of the ``stats`` vector by name: ``obs["stats"][byog.STAT["health"]]``.
STAT = {name: i for i, name in enumerate(STATS)}

#: The environments ``import byog`` registers, and the mode each plays.
ENV_IDS = {
    "byog/Classic-v0": "classic",
    "byog/Run-v0": "run",
    "byog/Explore-v0": "explore",
}


def message_text(message):
    """The text of a ``message`` observation (its UTF-8 bytes, zero-padded)."""
    return bytes(np.asarray(message, dtype=np.uint8)).rstrip(b"\0").decode("utf-8")


def render_glyphs(glyphs):
    """The text of a ``glyphs`` observation (rows, top first), as ``byog replay`` prints it."""
    chars = GLYPH_CHARS[np.asarray(glyphs)]
    return "\n".join("".join(map(chr, row)) for row in chars)


def register_envs():
    """Registers ``byog/Classic-v0``, ``byog/Run-v0`` and ``byog/Explore-v0`` (once)."""
    for env_id, mode in ENV_IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point="byog.env:ByogEnv",
            vector_entry_point="byog.vector:ByogVectorEnv",
            kwargs={"mode": mode},
        )


register_envs()
