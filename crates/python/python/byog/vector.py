"""N byog games stepped in Rust in one call: Gymnasium's ``VectorEnv`` (docs/python.md)."""

import os

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._byog import OBSERVATION_KEYS, Batch
from .env import MAX_SEED
from .spaces import observation_space


def _cores():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _shared_bounds(batched, single, num_envs):
    """``batched`` with each ``Box``'s bounds (``low``, ``high`` and their two masks) read-only
    views of one game's, repeated ``num_envs`` times without a copy.

    Gymnasium's ``batch_space`` makes them whole for the batch: four arrays the size of the
    observation's, 50 MB for 1,024 games of an 80 × 30 world, more than the games and their
    arrays together (a heap profile, docs/performance.md)."""
    for key, box in batched.spaces.items():
        one = single.spaces[key]
        for bound in ("low", "high", "bounded_below", "bounded_above"):
            setattr(box, bound, np.broadcast_to(getattr(one, bound), box.shape))
    return batched


class ByogVectorEnv(VectorEnv):
    """``num_envs`` games of one mode, stepped in Rust in one call with the GIL released,
    spread over ``threads`` threads (default: one a core).

    The observation is a dict of arrays of shape ``(num_envs, ...)`` made once and written in
    place by every step (only what changed is written): the same arrays each step, read-only,
    no copy (``copy=True`` returns copies). Autoreset is Gymnasium's ``NEXT_STEP``: the step
    that ends an episode returns its last observation with ``terminated`` or ``truncated``
    set; the next step of that game ignores its action and returns the first observation of
    its next episode (reward 0, neither flag set). ``reset(seed=s)`` plays seed ``s + i`` in
    game ``i``; game ``i``'s later episodes play ``s + i + k * num_envs``.

    The options are :class:`byog.ByogEnv`'s; ``reward_fn(prev_stats, stats, rewards)``
    receives ``(num_envs, len(STATS))`` arrays and the ``(num_envs,)`` rewards and returns the
    rewards to use.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs=1,
        mode="classic",
        threads=None,
        observation_keys=None,
        reward_fn=None,
        copy=False,
        render_mode=None,
        **options,
    ):
        if render_mode is not None:
            raise ValueError(f"render_mode={render_mode!r}: the batch does not render")
        keys = list(OBSERVATION_KEYS if observation_keys is None else observation_keys)
        if reward_fn is not None and "stats" not in keys:
            raise ValueError("reward_fn reads the stats: keep 'stats' in observation_keys")
        if threads is None:
            threads = max(1, min(_cores(), int(num_envs) if isinstance(num_envs, int) else 1))
        self._batch = Batch(mode, num_envs, threads, keys, **options)
        self.mode = mode
        self.num_envs = int(num_envs)
        self.threads = threads
        self.render_mode = None
        self._copy = copy
        self._reward_fn = reward_fn
        self.single_observation_space = observation_space(keys, self._batch.view_shape)
        self.observation_space = _shared_bounds(
            batch_space(self.single_observation_space, self.num_envs),
            self.single_observation_space,
            self.num_envs,
        )
        self.single_action_space = spaces.Discrete(self._batch.num_actions)
        self.action_space = spaces.MultiDiscrete([self._batch.num_actions] * self.num_envs)
        self._obs = {}
        for k in keys:
            view = getattr(self._batch, k).view()
            view.flags.writeable = False
            self._obs[k] = view
        self._rewards = self._batch.rewards.view()
        self._terminated = self._batch.terminated.view()
        self._truncated = self._batch.truncated.view()
        for a in (self._rewards, self._terminated, self._truncated):
            a.flags.writeable = False
        self._prev_stats = None
        self._started = False

    def _observation(self):
        if self._copy:
            return {k: v.copy() for k, v in self._obs.items()}
        return self._obs

    def reset(self, *, seed=None, options=None):
        """Starts every game: game ``i`` on seed ``seed + i`` (a seed drawn from the
        environment's generator when ``seed`` is None). A list of seeds is taken when it is
        ``[s, s + 1, ...]``. ``options`` is not used."""
        if isinstance(seed, (list, tuple)):
            if list(seed) != list(range(seed[0], seed[0] + self.num_envs)):
                raise ValueError(
                    "seed: a batch plays the seeds s, s + 1, ..., s + num_envs - 1: "
                    "pass one int s"
                )
            seed = seed[0]
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
            self._prev_stats = self._batch.stats.copy()
        return self._observation(), {}

    def step(self, actions):
        """Plays ``actions[i]`` in game ``i``; returns ``(observations, rewards, terminations,
        truncations, infos)``, ``infos`` empty (the seeds: :meth:`seed_of`)."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.dtype != np.int64:
            actions = actions.astype(np.int64)
        self._batch.step(actions.reshape(-1))
        rewards = self._rewards
        if self._reward_fn is not None:
            stats = self._batch.stats
            rewards = np.asarray(self._reward_fn(self._prev_stats, stats, rewards.copy()))
            self._prev_stats[:] = stats
        if self._copy:
            return (
                self._observation(),
                rewards.copy(),
                self._terminated.copy(),
                self._truncated.copy(),
                {},
            )
        return self._observation(), rewards, self._terminated, self._truncated, {}

    def seed_of(self, i):
        """The seed of game ``i``'s episode in play."""
        return self._batch.seed(i)

    def episode_keys(self, i):
        """Game ``i``'s episode so far as an input string (``None`` with
        ``record_keys=False``)."""
        return self._batch.episode_keys(i)

    def replay_flags(self):
        """The flags ``byog replay`` needs to make the same games."""
        return self._batch.flags()

    def message_text(self, i):
        """Game ``i``'s message after its last action, as text."""
        return self._batch.message_text(i)
