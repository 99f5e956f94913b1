"""One byog game as a Gymnasium environment (docs/python.md)."""

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._byog import ACTION_KEYS, OBSERVATION_KEYS, STATS, Batch
from .spaces import observation_space

#: The largest seed byog plays (its seeds are 0..2^63-1).
MAX_SEED = 2**63 - 1

_STAT = {name: i for i, name in enumerate(STATS)}
_STATUS = {0: "playing", 1: "won", 2: "lost", 3: "banked"}


class ByogEnv(gym.Env):
    """One game of byog: ``mode`` is ``"classic"``, ``"run"`` or ``"explore"``.

    Observation: a ``Dict`` of fixed-shape arrays of what the player sees, never a tile it did
    not see (``observation_keys`` chooses among ``glyphs``, ``chars``, ``colors``, ``stats``,
    ``message``; all by default). Actions: ``Discrete(6)``, the keys ``W A S D . U`` (up, left,
    down, right, wait, drink), or ``Discrete(8)`` with ``travel=True`` (then ``X`` explore and
    ``>`` travel to the exit). Reward: the score's change (a classic game: 1 for the win), or
    ``reward_fn(prev_stats, stats, reward)``. ``terminated`` when the game is won, lost or
    banked; ``truncated`` after ``max_episode_steps`` steps (default 5,000; ``None``: never).

    ``reset(seed=s)`` plays seed ``s`` (the game ``byog replay N<s>S`` starts); ``reset()``
    draws the next seed from the environment's generator. Every observation is a fresh copy,
    as Gymnasium asks; ``copy=False`` makes ``step`` return the environment's own arrays
    instead, as NLE does: read-only, overwritten by the next step (copy one to keep it).

    Every other keyword argument is one of the command line's options (``byog.OPTION_NAMES``):
    ``width``, ``height``, ``floors``, ``generator``, ``monsters``, ``view`` (``"world"`` or
    ``"crop"``), ``crop`` (a side or ``(rows, cols)``), ``travel``, ``record_keys``...
    A bad one raises ``ValueError`` saying what it takes.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 30}

    def __init__(
        self,
        mode="classic",
        render_mode=None,
        observation_keys=None,
        reward_fn=None,
        copy=True,
        **options,
    ):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode={render_mode!r}: byog renders as text, 'ansi' or 'human'"
            )
        keys = list(OBSERVATION_KEYS if observation_keys is None else observation_keys)
        if reward_fn is not None and "stats" not in keys:
            raise ValueError("reward_fn reads the stats: keep 'stats' in observation_keys")
        self.mode = mode
        self.render_mode = render_mode
        self._batch = Batch(mode, 1, 1, keys, False, **options)
        self._keys = keys
        self._copy = copy
        self._reward_fn = reward_fn
        self.observation_space = observation_space(keys, self._batch.view_shape)
        self.action_space = spaces.Discrete(self._batch.num_actions)
        # One game's rows of the batch's arrays, read-only: the batch writes only what changed
        # from one step to the next.
        self._views = {}
        for k in keys:
            view = getattr(self._batch, k)[0]
            view.flags.writeable = False
            self._views[k] = view
        self._stats = getattr(self._batch, "stats", None)
        self._prev_stats = None
        self._started = False

    def _observation(self, copy=False):
        if copy or self._copy:
            return {k: v.copy() for k, v in self._views.items()}
        return dict(self._views)

    def reset(self, *, seed=None, options=None):
        """Starts an episode: seed ``seed`` if given, else the next of the environment's
        generator. ``options`` is not used. Returns the observation and ``{"seed": seed}``."""
        if seed is not None and (
            isinstance(seed, bool)
            or not isinstance(seed, (int, np.integer))
            or not 0 <= seed <= MAX_SEED
        ):
            raise ValueError(f"seed={seed!r}: a seed is a whole number in 0..2^63-1")
        super().reset(seed=None if seed is None else int(seed))
        if seed is None:
            seed = int(self.np_random.integers(0, MAX_SEED, endpoint=True))
        self._batch.reset(int(seed))
        self._started = True
        if self._reward_fn is not None:
            self._prev_stats = self._stats[0].copy()
        # A reset costs a world's generation: its observation is always a copy.
        return self._observation(copy=True), {"seed": int(seed)}

    def step(self, action):
        """Plays one action; returns ``(observation, reward, terminated, truncated, info)``.
        ``info`` is empty: whether the action was refused (it changed nothing: ``U`` outside
        an exploration, ``>`` before the exit is seen...) is ``stats[STAT["refused"]]`` and
        why is the message."""
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        reward, terminated, truncated = self._batch.step_one(int(action))
        if self._reward_fn is not None:
            stats = self._stats[0]
            reward = float(self._reward_fn(self._prev_stats, stats, reward))
            self._prev_stats[:] = stats
        return self._observation(), reward, terminated, truncated, {}

    def render(self):
        """The view as text (the glyphs' characters, rows top first) and the HUD's numbers:
        returned for ``"ansi"``, printed for ``"human"``."""
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode: make the env with render_mode='ansi'")
            return None
        text = self.text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def text(self):
        """The view as text and a line of the HUD's numbers."""
        from . import render_glyphs

        lines = []
        if "glyphs" in self._views:
            lines.append(render_glyphs(self._views["glyphs"]))
        if self._stats is not None:
            s = self._stats[0]
            shown = ["moves", "health", "score", "moves_left", "floor", "depth", "potions"]
            hud = ", ".join(f"{k} {s[_STAT[k]]}" for k in shown if s[_STAT[k]] >= 0)
            lines.append(f"{_STATUS.get(int(s[_STAT['status']]), '?')}: {hud}")
        message = self._batch.message_text(0)
        if message:
            lines.append(message)
        return "\n".join(lines)

    @property
    def view_shape(self):
        """The glyph arrays' ``(rows, cols)``."""
        return tuple(self._batch.view_shape)

    @property
    def cropped(self):
        """Whether the view is a crop centred on the avatar (else the whole world)."""
        return self._batch.cropped

    @property
    def seed_played(self):
        """The seed of the episode in play."""
        return self._batch.seed(0)

    def episode_keys(self):
        """The episode so far as an input string (``R42SDDW...``; refused actions left out):
        ``byog replay`` of it, with :meth:`replay_flags`, makes the same game. ``None`` with
        ``record_keys=False``."""
        return self._batch.episode_keys(0)

    def replay_flags(self):
        """The flags ``byog replay`` needs to make the same games (those not at their
        defaults), e.g. ``["--width", "40"]``."""
        return self._batch.flags()

    def replay_command(self):
        """``byog replay`` of the episode so far, as an argument list."""
        return ["byog", "replay", *self.replay_flags(), self.episode_keys()]

    def agent(self):
        """A ``byog agent`` session (:class:`byog.Agent`) making its games as this environment
        does: ``answer(line)`` answers one line of the protocol."""
        return self._batch.agent()

    @property
    def action_keys(self):
        """The key of each action: ``"WASD.U"``, ``"WASD.UX>"`` with the travel keys."""
        return ACTION_KEYS[: self.action_space.n]
