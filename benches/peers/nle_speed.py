#!/usr/bin/env python3
"""byog's agent step side by side with the NetHack Learning Environment's, in one sitting.

Times, on one core and alternating them round by round:

- NLE's raw step: ``nle.nethack.Nethack.step`` with random actions among MORE and the 16
  compass moves, a new game when one ends or after 1,000 steps (the loop of NLE's own
  ``nle/scripts/check_nethack_speed.py``); resets are not timed;
- NLE's Gymnasium environment: ``gym.make("NetHackScore-v0").step`` with random actions of
  its action space (resets not timed);
- byog's in-process step: ``Agent::step`` of one key with its observation built, timed by
  ``cargo run --release --example agent_speed`` (examples/agent_speed.rs).

It prints each round and then the medians and the ratios (NLE's time a step / byog's).
docs/performance.md keeps its output. Not part of CI: NLE is installed from
``benches/peers/requirements.txt``.

    python3 -m venv /tmp/nle-venv
    /tmp/nle-venv/bin/pip install -r benches/peers/requirements.txt
    /tmp/nle-venv/bin/python benches/peers/nle_speed.py            # from the repository's root
    /tmp/nle-venv/bin/python benches/peers/nle_speed.py --rounds 5 --raw-steps 200000
"""

import argparse
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def time_raw(steps, seed):
    """Seconds a step of nle.nethack.Nethack (resets excluded)."""
    from nle import nethack

    actions = [nethack.MiscAction.MORE]
    actions += list(nethack.CompassDirection)
    actions += list(nethack.CompassDirectionLonger)
    rng = random.Random(seed)
    plan = [int(rng.choice(actions)) for _ in range(steps)]
    game = nethack.Nethack(ttyrec=None)
    game.reset()
    done, in_game, spent = False, 0, 0.0
    start = time.perf_counter()
    for action in plan:
        if done or in_game >= 1000:
            spent += time.perf_counter() - start
            game.reset()
            done, in_game = False, 0
            start = time.perf_counter()
        _, done = game.step(action)
        in_game += 1
    spent += time.perf_counter() - start
    game.close()
    return spent / steps


def time_gym(steps, seed):
    """Seconds a step of NLE's Gymnasium environment NetHackScore-v0 (resets excluded)."""
    import gymnasium as gym
    import nle  # noqa: F401  (registers the NetHack environments)

    env = gym.make("NetHackScore-v0")
    env.reset(seed=seed)
    env.action_space.seed(seed)
    plan = [env.action_space.sample() for _ in range(steps)]
    spent = 0.0
    start = time.perf_counter()
    for action in plan:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            spent += time.perf_counter() - start
            env.reset()
            start = time.perf_counter()
    spent += time.perf_counter() - start
    env.close()
    return spent / steps


def time_byog(example, steps):
    """Seconds a step of byog's Agent::step, from examples/agent_speed.rs."""
    out = subprocess.run(
        [str(example), str(steps), "3"], check=True, capture_output=True, text=True
    ).stdout
    match = re.search(r"us_per_step=([0-9.]+)", out)
    if not match:
        sys.exit(f"nle_speed.py: unexpected output of {example}: {out!r}")
    return float(match.group(1)) / 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--raw-steps", type=int, default=100_000)
    parser.add_argument("--gym-steps", type=int, default=20_000)
    parser.add_argument("--byog-steps", type=int, default=2_000_000)
    parser.add_argument(
        "--cpu",
        type=int,
        default=None,
        help="the core to pin everything to (default: the last one)",
    )
    args = parser.parse_args()
    try:
        import nle
    except ImportError:
        sys.exit(
            "nle_speed.py: the NetHack Learning Environment is not installed: "
            "pip install -r benches/peers/requirements.txt"
        )
    cpus = sorted(os.sched_getaffinity(0))
    cpu = cpus[-1] if args.cpu is None else args.cpu
    os.sched_setaffinity(0, {cpu})  # children (the byog example) inherit it
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--example", "agent_speed"],
        cwd=ROOT,
        check=True,
    )
    example = ROOT / "target" / "release" / "examples" / "agent_speed"
    print(
        f"nle {nle.__version__}, Python {platform.python_version()}, "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"pinned to core {cpu}; load average {load()}"
    )
    raw, gym, byog = [], [], []
    for r in range(args.rounds):
        raw.append(time_raw(args.raw_steps, seed=r))
        gym.append(time_gym(args.gym_steps, seed=r))
        byog.append(time_byog(example, args.byog_steps))
        print(
            f"round {r + 1}: NLE raw {raw[-1] * 1e6:.2f} us, NLE Gymnasium "
            f"{gym[-1] * 1e6:.2f} us, byog {byog[-1] * 1e6:.3f} us a step; "
            f"load {load()}"
        )
    raw_m, gym_m, byog_m = (statistics.median(x) for x in (raw, gym, byog))
    print(f"medians of {args.rounds} rounds, one core:")
    print(f"  NLE nethack.Nethack.step     {raw_m * 1e6:9.2f} us  {1 / raw_m:12,.0f} steps/s")
    print(f"  NLE NetHackScore-v0 .step    {gym_m * 1e6:9.2f} us  {1 / gym_m:12,.0f} steps/s")
    print(f"  byog Agent::step             {byog_m * 1e6:9.3f} us  {1 / byog_m:12,.0f} steps/s")
    print(f"  byog is {raw_m / byog_m:.1f} x NLE's raw step and {gym_m / byog_m:.1f} x its Gymnasium env")


if __name__ == "__main__":
    main()
