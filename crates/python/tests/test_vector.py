"""The native batch: Gymnasium's VectorEnv API, the same games as one env at a time,
next-step autoreset, threads, and bad arguments."""

import random

import gymnasium as gym
import numpy as np
import pytest

import byog
from conftest import stat

SMALL = {"width": 30, "height": 14, "floors": 3}


@pytest.mark.parametrize("env_id", list(byog.ENV_IDS))
def test_make_vec_returns_the_native_batch(env_id):
    envs = gym.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point", **SMALL)
    assert isinstance(envs, byog.ByogVectorEnv)
    assert envs.num_envs == 4
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=10)
    assert envs.observation_space.contains(obs)
    assert envs.single_action_space == gym.spaces.Discrete(6)
    for key, space in envs.single_observation_space.items():
        assert obs[key].shape == (4, *space.shape)
        assert obs[key].dtype == space.dtype
    actions = envs.action_space.sample()
    obs, rewards, terminations, truncations, infos = envs.step(actions)
    assert rewards.shape == (4,) and rewards.dtype == np.float64
    assert terminations.dtype == np.bool_ and truncations.dtype == np.bool_
    assert isinstance(infos, dict)
    assert [envs.seed_of(i) for i in range(4)] == [10, 11, 12, 13]
    envs.close()


def test_the_arrays_are_written_in_place_and_read_only():
    envs = byog.ByogVectorEnv(3, "run", **SMALL)
    obs, _ = envs.reset(seed=1)
    again = envs.step(np.zeros(3, dtype=np.int64))[0]
    assert again["glyphs"] is obs["glyphs"]
    with pytest.raises(ValueError):
        obs["glyphs"][0, 0, 0] = 1
    copied = byog.ByogVectorEnv(3, "run", copy=True, **SMALL)
    first, _ = copied.reset(seed=1)
    assert copied.step([0, 0, 0])[0]["glyphs"] is not first["glyphs"]


@pytest.mark.parametrize("mode", ["classic", "run", "explore"])
@pytest.mark.parametrize("threads", [1, 2])
def test_each_game_is_the_game_alone_with_next_step_autoreset(mode, threads):
    """Game i of the batch plays seed s + i, then s + i + n: the observations, rewards and
    flags of one env stepped alone with the same actions, the step after an ending being
    that env's reset."""
    n, seed = 3, 50
    options = {**SMALL, "travel": True, "max_episode_steps": 150}
    envs = byog.ByogVectorEnv(n, mode, threads=threads, **options)
    obs, _ = envs.reset(seed=seed)
    alone = [byog.ByogEnv(mode, **options) for _ in range(n)]
    seeds = [seed + i for i in range(n)]
    singles = [e.reset(seed=s)[0] for e, s in zip(alone, seeds)]
    done = [False] * n
    rng = random.Random(threads)
    resets = 0
    for _ in range(500):
        actions = np.array([rng.randrange(8) for _ in range(n)])
        obs, rewards, term, trunc, _ = envs.step(actions)
        for i, env in enumerate(alone):
            if done[i]:
                seeds[i] += n
                single, _ = env.reset(seed=seeds[i])
                assert (rewards[i], term[i], trunc[i]) == (0.0, False, False)
                done[i] = False
                resets += 1
            else:
                single, reward, t, u, _ = env.step(actions[i])
                assert (rewards[i], term[i], trunc[i]) == (reward, t, u)
                done[i] = t or u
            for key in single:
                np.testing.assert_array_equal(obs[key][i], single[key], err_msg=key)
            assert envs.seed_of(i) == seeds[i]
    assert resets > 0


def test_threads_change_nothing():
    runs = []
    for threads in (1, 2):
        envs = byog.ByogVectorEnv(16, "explore", threads=threads)
        obs, _ = envs.reset(seed=3)
        rng = np.random.default_rng(0)
        log = []
        for _ in range(200):
            obs, rewards, term, trunc, _ = envs.step(rng.integers(0, 6, 16))
            log.append((obs["glyphs"].copy(), obs["stats"].copy(), rewards.copy(), term.copy()))
        runs.append(log)
    for a, b in zip(*runs):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)


def test_the_episode_keys_of_a_batch_replay_its_games():
    envs = byog.ByogVectorEnv(2, "run", **SMALL)
    obs, _ = envs.reset(seed=8)
    for _ in range(50):
        obs = envs.step([3, 0])[0]
    agent = byog.Agent("run", **SMALL)
    import json

    for i in range(2):
        keys = envs.episode_keys(i)
        got = json.loads(agent.answer(json.dumps({"reset": keys})))
        assert got["moves"] == stat({"stats": obs["stats"][i]}, "moves")
        assert got["avatar"] == [
            stat({"stats": obs["stats"][i]}, "x"),
            stat({"stats": obs["stats"][i]}, "y"),
        ]


def test_a_reward_hook_gets_the_whole_batch():
    calls = []

    def hook(prev, stats, rewards):
        calls.append((prev.shape, stats.shape, rewards.shape))
        return rewards + 1.0

    envs = byog.ByogVectorEnv(4, "run", reward_fn=hook, **SMALL)
    envs.reset(seed=0)
    rewards = envs.step([0, 1, 2, 3])[1]
    assert calls == [((4, len(byog.STATS)), (4, len(byog.STATS)), (4,))]
    assert (rewards >= 1.0).all()


def test_bad_batch_arguments_are_value_errors():
    with pytest.raises(ValueError, match="1 to 1048576 games"):
        byog.ByogVectorEnv(0, "classic")
    with pytest.raises(ValueError, match="1 to 256 threads"):
        byog.ByogVectorEnv(2, "classic", threads=0)
    with pytest.raises(ValueError, match="width takes"):
        gym.make_vec("byog/Run-v0", num_envs=2, vectorization_mode="vector_entry_point", width=1)
    envs = byog.ByogVectorEnv(2, "classic")
    with pytest.raises(RuntimeError, match="reset"):
        envs.step([0, 0])
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="3 actions for 2 games"):
        envs.step([0, 0, 0])
    with pytest.raises(ValueError, match="action 9 of game 1"):
        envs.step([0, 9])
    with pytest.raises(ValueError, match="s, s \\+ 1"):
        envs.reset(seed=[4, 9])
    envs.reset(seed=[4, 5])
    assert envs.seed_of(1) == 5
    with pytest.raises(ValueError, match="game 5"):
        envs.episode_keys(5)


def test_the_batch_space_repeats_one_games_bounds_without_copies():
    """The batched Box bounds are views of one game's (Gymnasium's batch_space made them
    whole: 50 MB for 1,024 games), and the space still tells what it holds."""
    envs = byog.ByogVectorEnv(64, "classic", threads=1)
    obs, _ = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    for key, box in envs.observation_space.spaces.items():
        one = envs.single_observation_space[key]
        for bound in ("low", "high", "bounded_below", "bounded_above"):
            array = getattr(box, bound)
            assert array.shape == (64, *one.shape)
            assert array.strides[0] == 0, f"{key}.{bound} is a copy"
            assert (array == getattr(one, bound)).all()
    outside = {k: v.copy() for k, v in obs.items()}
    outside["stats"][0, 0] = -2
    assert not envs.observation_space.contains(outside)
    envs.close()
