"""Rollouts over several processes as Ray actors, each holding a native batch of games.

    pip install ./crates/python "ray[default]"
    python crates/python/examples/ray_rollouts.py [ACTORS] [GAMES_PER_ACTOR] [STEPS]

`ray.init()` starts Ray on this machine; on a cluster, `ray.init(address="auto")` spreads the
same actors over its machines. Each actor steps its batch with random actions (put a policy
in `act`) and returns the episodes it finished; the driver prints the steps a second of all
actors together. The seeds of actor `a` start at `a * 1_000_000_000`, so no two actors play
the same game and every episode can be replayed from its seed and keys.
"""

import sys
import time

import numpy as np
import ray

import byog


@ray.remote
class Rollouts:
    """A batch of `num_envs` games in one process (one thread: Ray spreads the processes)."""

    def __init__(self, index, num_envs, mode="run", **options):
        self.envs = byog.ByogVectorEnv(num_envs, mode, threads=1, **options)
        self.obs, _ = self.envs.reset(seed=index * 1_000_000_000)
        self.rng = np.random.default_rng(index)

    def act(self, obs):
        return self.rng.integers(0, self.envs.single_action_space.n, self.envs.num_envs)

    def rollout(self, steps):
        """Plays `steps` steps of every game; returns (steps, episodes ended, their reward)."""
        ended, reward = 0, 0.0
        returns = np.zeros(self.envs.num_envs)
        for _ in range(steps):
            self.obs, r, term, trunc, _ = self.envs.step(self.act(self.obs))
            returns += r
            done = term | trunc
            ended += int(done.sum())
            reward += float(returns[done].sum())
            returns[done] = 0.0
        return steps * self.envs.num_envs, ended, reward


def main():
    actors = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 2_000
    ray.init()
    workers = [Rollouts.remote(i, games) for i in range(actors)]
    ray.get([w.rollout.remote(10) for w in workers])  # started and warm
    start = time.perf_counter()
    results = ray.get([w.rollout.remote(steps) for w in workers])
    wall = time.perf_counter() - start
    total = sum(r[0] for r in results)
    ended = sum(r[1] for r in results)
    reward = sum(r[2] for r in results)
    print(f"{actors} actors x {games} games: {total:,} steps in {wall:.2f} s = "
          f"{total / wall:,.0f} steps/s; {ended:,} episodes, mean reward "
          f"{reward / max(ended, 1):.1f}")
    ray.shutdown()


if __name__ == "__main__":
    main()
