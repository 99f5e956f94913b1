"""A short PPO run on byog/Run-v0 with stable-baselines3 (docs/python.md shows its curve).

    pip install ./crates/python stable-baselines3
    python crates/python/examples/ppo_sb3.py [TIMESTEPS]      # default 200,000

The agent sees a 9 x 9 crop round the avatar (each glyph one-hot) and three HUD numbers
(health, moves left, floor); its reward is the score's change. Runs of 3 floors of at most
30 x 14 tiles. Every 10,000 steps it prints the mean reward of the last 100 episodes, the
steps a second so far and, at the end, a random agent's mean on the same seeds' kind.
"""

import sys
import time

import gymnasium as gym
import numpy as np
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import byog

OPTIONS = {"width": 30, "height": 14, "floors": 3, "crop": 9, "max_episode_steps": 1000}
HEALTH, MOVES_LEFT, FLOOR = (byog.STAT[k] for k in ("health", "moves_left", "floor"))


class OneHotView(gym.ObservationWrapper):
    """The crop's glyphs one-hot, and health, moves left and floor scaled near 0..1."""

    def __init__(self, env):
        super().__init__(env)
        rows, cols = env.observation_space["glyphs"].shape
        size = byog.NUM_GLYPHS * rows * cols + 3
        self.observation_space = gym.spaces.Box(0.0, np.inf, (size,), np.float32)
        self.eye = np.eye(byog.NUM_GLYPHS, dtype=np.float32)

    def observation(self, obs):
        s = obs["stats"]
        hud = np.array([s[HEALTH] / 3, s[MOVES_LEFT] / 200, s[FLOOR] / 3], np.float32)
        return np.concatenate([self.eye[obs["glyphs"]].ravel(), hud])


def make_env():
    return OneHotView(gym.make("byog/Run-v0", observation_keys=["glyphs", "stats"], **OPTIONS))


class Curve(BaseCallback):
    """Prints the learning curve: timesteps, mean episode reward (last 100), steps a second."""

    def __init__(self, every=10_000):
        super().__init__()
        self.every, self.start = every, time.perf_counter()

    def _on_step(self):
        if self.num_timesteps % self.every < self.training_env.num_envs:
            rewards = [e["r"] for e in self.model.ep_info_buffer]
            mean = np.mean(rewards) if rewards else float("nan")
            rate = self.num_timesteps / (time.perf_counter() - self.start)
            print(f"{self.num_timesteps:8d} steps  mean reward {mean:6.1f}  {rate:7.0f} steps/s",
                  flush=True)
        return True


def random_mean(episodes=200):
    env = make_env()
    total = []
    for seed in range(episodes):
        env.reset(seed=10_000 + seed)
        env.action_space.seed(seed)
        score, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            score += reward
            done = terminated or truncated
        total.append(score)
    return float(np.mean(total))


def main():
    timesteps = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    envs = make_vec_env(make_env, n_envs=8, seed=0)
    model = PPO("MlpPolicy", envs, n_steps=256, batch_size=512, learning_rate=3e-4,
                ent_coef=0.01, seed=0, verbose=0, device="cpu")
    model.learn(total_timesteps=timesteps, callback=Curve())
    print(f"random agent: mean reward {random_mean():.1f} (200 episodes)")


if __name__ == "__main__":
    main()
