#!/usr/bin/env python3
"""byog's agent step side by side with the NetHack Learning Environment's, in one sitting.

Times, on one core and alternating them round by round:

- NLE's raw step: ``nle.nethack.Nethack.step`` with random actions among MORE and the 16
  compass moves, a new game when one ends or after 1,000 steps (the loop of NLE's own
  ``nle/scripts/check_nethack_speed.py``); resets are not timed;
- NLE's Gymnasium environment: ``gym.make("NetHackScore-v0").step`` with random actions of
  its action space (resets not timed);
- byog's in-process step: ``Agent::step`` of one key with its observation built, timed by
  ``cargo run --release --example agent_speed`` (examples/agent_speed.rs);
- byog from Python (the ``byog`` package, docs/python.md), when it is installed:
  ``ByogEnv.step`` of one game of each mode with random moves, its observation copied (as
  Gymnasium asks) and not (``copy=False``, as NLE's own step returns its buffers), and through
  ``gym.make``; then, on every core, the native batch ``ByogVectorEnv`` (256 games a call,
  every observation array filled), a reset, and the memory a game of the batch takes.

It prints each round and then the medians and the ratios (NLE's time a step / byog's).
docs/performance.md keeps its output. Not part of CI: NLE is installed from
``benches/peers/requirements.txt``, byog's package from ``crates/python``:

    python3 -m venv /tmp/nle-venv
    /tmp/nle-venv/bin/pip install -r benches/peers/requirements.txt ./crates/python
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


def time_byog_env(mode, steps, seed, copy=True, make=False):
    """Seconds a step of one byog game from Python (resets excluded): random moves."""
    import byog  # noqa: F401  (registers the environments)
    import gymnasium as gym

    if make:
        env = gym.make(f"byog/{mode.capitalize()}-v0", copy=copy)
    else:
        env = byog.ByogEnv(mode, copy=copy)
    env.reset(seed=seed)
    rng = random.Random(seed)
    plan = [rng.randrange(4) for _ in range(steps)]
    spent = 0.0
    start = time.perf_counter()
    for action in plan:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            spent += time.perf_counter() - start
            env.reset()
            start = time.perf_counter()
    spent += time.perf_counter() - start
    return spent / steps


def time_byog_batch(mode, num_envs, calls, seed, threads=None):
    """Seconds a game's step in byog's native batch (steps of all games / wall time)."""
    import numpy as np

    import byog

    envs = byog.ByogVectorEnv(num_envs, mode, threads=threads)
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    plans = [rng.integers(0, 4, num_envs) for _ in range(64)]
    for k in range(8):
        envs.step(plans[k])
    start = time.perf_counter()
    for k in range(calls):
        envs.step(plans[k % 64])
    return (time.perf_counter() - start) / (calls * num_envs)


def time_byog_reset(mode, resets, seed, **options):
    """Seconds a reset of one byog game from Python, observation included."""
    import byog

    env = byog.ByogEnv(mode, **options)
    env.reset(seed=seed)
    start = time.perf_counter()
    for s in range(resets):
        env.reset(seed=seed + s)
    return (time.perf_counter() - start) / resets


def batch_memory(mode, num_envs, calls):
    """Bytes a game of the batch adds to the process (resident memory), after `calls` steps."""
    import numpy as np

    import byog

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    before = rss()
    envs = byog.ByogVectorEnv(num_envs, mode)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(calls):
        envs.step(rng.integers(0, 4, num_envs))
    return (rss() - before) / num_envs


def byog_python(args, cpus, cpu, nle_raw, nle_gym):
    """Times byog's Python package; prints it beside NLE's figures (None: not measured)."""
    try:
        import byog
    except ImportError:
        print("byog's Python package is not installed: pip install ./crates/python")
        return
    import byog._byog as native

    modes = ["classic", "run", "explore"]
    one = {m: [] for m in modes}
    bare = {m: [] for m in modes}
    made = {m: [] for m in modes}
    for r in range(args.rounds):
        for m in modes:
            one[m].append(time_byog_env(m, args.py_steps, seed=r))
            bare[m].append(time_byog_env(m, args.py_steps, seed=r, copy=False))
            made[m].append(time_byog_env(m, args.py_steps, seed=r, make=True))
        print(
            f"round {r + 1}: byog from Python, one env: "
            + ", ".join(f"{m} {one[m][-1] * 1e6:.2f} us" for m in modes)
            + f"; load {load()}"
        )
    med = statistics.median
    print(f"medians of {args.rounds} rounds, one core, one game from Python (us a step):")
    print("  mode      copied  copy=False  gym.make   steps/s (copied)")
    for m in modes:
        print(
            f"  {m:8} {med(one[m]) * 1e6:7.2f} {med(bare[m]) * 1e6:11.2f} "
            f"{med(made[m]) * 1e6:9.2f} {1 / med(one[m]):14,.0f}"
        )
    classic = med(one["classic"])
    if nle_raw:
        print(
            f"  one classic env (copied) is {nle_raw / classic:.1f} x NLE's raw step and "
            f"{nle_gym / classic:.1f} x its Gymnasium env"
        )
    resets = {
        "classic 80x30": time_byog_reset("classic", args.resets, 0),
        "run B1 (80x30 run)": time_byog_reset("run", args.resets, 0),
        "explore": time_byog_reset("explore", args.resets, 0),
    }
    floors = {
        "classic 80x30": native.time_new_game("classic", args.resets),
        "run B1 (80x30 run)": native.time_new_game("run", args.resets),
        "explore": native.time_new_game("explore", args.resets),
    }
    print("a reset from Python (observation included) against the game's own start:")
    for k, v in resets.items():
        print(f"  {k:20} {v * 1e6:8.1f} us   game alone {floors[k] * 1e6:8.1f} us   "
              f"ratio {v / floors[k]:.2f}")
    os.sched_setaffinity(0, set(cpus))
    try:
        print(f"the native batch, {args.num_envs} games a call, on {len(cpus)} cores "
              f"(every observation array filled; load {load()}):")
        for m in modes:
            times = [
                time_byog_batch(m, args.num_envs, args.batch_calls, seed=r)
                for r in range(args.rounds)
            ]
            one_thread = time_byog_batch(m, args.num_envs, args.batch_calls, 0, threads=1)
            t = med(times)
            line = (f"  {m:8} {1 / t:12,.0f} steps/s ({t * 1e9:6.0f} ns a game's step; "
                    f"one thread {1 / one_thread:,.0f} steps/s)")
            if nle_raw:
                line += f"; {nle_raw / t:.0f} x NLE's raw step, {nle_gym / t:.0f} x its Gymnasium env"
            print(line)
        for m in modes:
            kib = batch_memory(m, 4096, 200) / 1024
            print(f"  memory: {kib:.1f} KiB a {m} game (4,096 games, 200 steps)")
    finally:
        os.sched_setaffinity(0, {cpu})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--raw-steps", type=int, default=100_000)
    parser.add_argument("--gym-steps", type=int, default=20_000)
    parser.add_argument("--byog-steps", type=int, default=2_000_000)
    parser.add_argument("--py-steps", type=int, default=200_000, help="steps of one env")
    parser.add_argument("--num-envs", type=int, default=256, help="games of the batch")
    parser.add_argument("--batch-calls", type=int, default=2_000, help="steps of the batch")
    parser.add_argument("--resets", type=int, default=2_000)
    parser.add_argument(
        "--without-agent-example",
        action="store_true",
        help="skip the Rust example (its release build of the whole command line is long)",
    )
    parser.add_argument(
        "--without-nle",
        action="store_true",
        help="time byog alone (where NLE cannot be installed)",
    )
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
        if not args.without_nle:
            sys.exit(
                "nle_speed.py: the NetHack Learning Environment is not installed: "
                "pip install -r benches/peers/requirements.txt (or --without-nle)"
            )
        nle = None
    cpus = sorted(os.sched_getaffinity(0))
    cpu = cpus[-1] if args.cpu is None else args.cpu
    os.sched_setaffinity(0, {cpu})  # children (the byog example) inherit it
    if not args.without_agent_example:
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "--example", "agent_speed"],
            cwd=ROOT,
            check=True,
        )
    example = ROOT / "target" / "release" / "examples" / "agent_speed"
    print(
        f"nle {nle.__version__ if nle else '(not installed)'}, Python {platform.python_version()}, "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"pinned to core {cpu}; load average {load()}"
    )
    raw, gym, byog = [], [], []
    for r in range(args.rounds):
        if nle:
            raw.append(time_raw(args.raw_steps, seed=r))
            gym.append(time_gym(args.gym_steps, seed=r))
        if not args.without_agent_example:
            byog.append(time_byog(example, args.byog_steps))
        nle_text = (
            f"NLE raw {raw[-1] * 1e6:.2f} us, NLE Gymnasium {gym[-1] * 1e6:.2f} us, " if nle else ""
        )
        byog_text = f"byog {byog[-1] * 1e6:.3f} us a step; " if byog else ""
        print(f"round {r + 1}: {nle_text}{byog_text}load {load()}")
    byog_m = statistics.median(byog) if byog else None
    raw_m = gym_m = None
    print(f"medians of {args.rounds} rounds, one core:")
    if nle:
        raw_m, gym_m = statistics.median(raw), statistics.median(gym)
        print(f"  NLE nethack.Nethack.step     {raw_m * 1e6:9.2f} us  {1 / raw_m:12,.0f} steps/s")
        print(f"  NLE NetHackScore-v0 .step    {gym_m * 1e6:9.2f} us  {1 / gym_m:12,.0f} steps/s")
    if byog_m:
        print(f"  byog Agent::step             {byog_m * 1e6:9.3f} us  {1 / byog_m:12,.0f} steps/s")
    if nle and byog_m:
        print(f"  byog is {raw_m / byog_m:.1f} x NLE's raw step and {gym_m / byog_m:.1f} x its Gymnasium env")
    byog_python(args, cpus, cpu, raw_m, gym_m)

if __name__ == "__main__":
    main()
