"""A random agent: plays byog/Run-v0 with random actions and prints each episode's end.

    python crates/python/examples/random_agent.py [EPISODES]

Each episode is a seed; its input string replays it with `byog replay`.
"""

import sys

import gymnasium as gym

import byog

STAT = byog.STAT


def main():
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    env = gym.make("byog/Run-v0", travel=True, max_episode_steps=2000)
    for episode in range(episodes):
        obs, info = env.reset(seed=episode)
        total, steps = 0.0, 0
        while True:
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            total += reward
            steps += 1
            if terminated or truncated:
                break
        stats = obs["stats"]
        status = {0: "playing", 1: "won", 2: "lost", 3: "banked"}[int(stats[STAT["status"]])]
        end = "truncated" if truncated else status
        keys = env.unwrapped.episode_keys()
        print(
            f"seed {info['seed']}: {end} on B{stats[STAT['floor']]} after {steps} steps, "
            f"reward {total:.0f}, score {stats[STAT['score']]}; "
            f"byog replay {keys[:12]}… ({len(keys)} keys)"
        )


if __name__ == "__main__":
    main()
