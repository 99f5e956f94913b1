"""The Gymnasium environments: the API, the spaces, determinism, `byog agent`'s observation,
replays, every ending, and bad arguments."""

import json
import random
import subprocess

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import byog
from conftest import answer, byog_binary, check_against_agent, stat

IDS = list(byog.ENV_IDS)
SMALL = {"width": 30, "height": 14, "floors": 3}


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasiums_checker_passes(env_id):
    env = gym.make(env_id, render_mode="ansi")
    check_env(env.unwrapped)
    check_env(env)
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_spaces_and_dtypes(env_id):
    env = gym.make(env_id)
    obs, info = env.reset(seed=3)
    space = env.observation_space
    assert isinstance(space, gym.spaces.Dict)
    assert set(obs) == {"glyphs", "chars", "colors", "stats", "message"}
    for key, dtype in [
        ("glyphs", np.uint16),
        ("chars", np.uint32),
        ("colors", np.uint8),
        ("stats", np.int64),
        ("message", np.uint8),
    ]:
        assert obs[key].dtype == dtype and space[key].dtype == dtype, key
        assert obs[key].shape == space[key].shape, key
    assert space.contains(obs)
    assert info == {"seed": 3}
    assert env.action_space == gym.spaces.Discrete(6)
    assert obs["stats"].shape == (len(byog.STATS),)
    assert obs["message"].shape == (byog.MESSAGE_BYTES,)
    mode = stat(obs, "mode")
    assert mode == {"byog/Classic-v0": 0, "byog/Run-v0": 1, "byog/Explore-v0": 2}[env_id]
    shape = (21, 21) if env_id == "byog/Explore-v0" else (30, 80)
    assert obs["glyphs"].shape == shape
    # The avatar is drawn where the stats say (in a crop: its centre).
    glyphs = obs["glyphs"]
    player = byog.GLYPH_NAMES.index("player")
    if env.unwrapped.cropped:
        assert glyphs[10, 10] == player
    else:
        h = stat(obs, "world_height")
        assert glyphs[h - 1 - stat(obs, "y"), stat(obs, "x")] == player
    assert (glyphs == player).sum() == 1


def test_the_options_shape_the_spaces():
    env = gym.make("byog/Run-v0", crop=(9, 15), travel=True, observation_keys=["glyphs", "stats"])
    obs, _ = env.reset(seed=1)
    assert set(obs) == {"glyphs", "stats"}
    assert obs["glyphs"].shape == (9, 15)
    assert env.action_space == gym.spaces.Discrete(8)
    assert env.unwrapped.action_keys == "WASD.UX>"
    env = gym.make("byog/Classic-v0", width=40, height=20)
    obs, _ = env.reset(seed=1)
    assert obs["glyphs"].shape == (20, 40)
    assert (stat(obs, "world_width"), stat(obs, "world_height")) == (40, 20)


def play(env, seed, actions):
    obs, _ = env.reset(seed=seed)
    seen = [obs]
    for a in actions:
        obs, reward, terminated, truncated, _ = env.step(a)
        seen.append((obs, reward, terminated, truncated))
        if terminated or truncated:
            break
    return seen


def same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize("env_id", IDS)
def test_the_same_seed_and_actions_give_the_same_observations(env_id):
    rng = random.Random(5)
    actions = [rng.randrange(6) for _ in range(400)]
    one = play(gym.make(env_id, copy=True, **SMALL), 11, actions)
    two = play(gym.make(env_id, copy=True, **SMALL), 11, actions)
    assert len(one) == len(two) and all(same(a, b) for a, b in zip(one, two))
    other = play(gym.make(env_id, copy=True, **SMALL), 12, actions)
    assert not same(one[0], other[0]), "another seed, another game"
    # reset() without a seed draws the next seed from the generator the first seed set.
    env = gym.make(env_id, **SMALL)
    env.reset(seed=4)
    a = env.reset()[1]["seed"]
    env.reset(seed=4)
    assert env.reset()[1]["seed"] == a


def test_observations_are_copies_unless_asked_not_to_be():
    env = gym.make("byog/Classic-v0")
    first, _ = env.reset(seed=2)
    kept = first["glyphs"].copy()
    env.step(3)
    env.step(3)
    assert np.array_equal(first["glyphs"], kept)
    first["glyphs"][0, 0] = 1  # a copy is the caller's
    env = gym.make("byog/Classic-v0", copy=False)
    first, _ = env.reset(seed=2)
    second = env.step(3)[0]
    third = env.step(1)[0]
    assert not np.shares_memory(first["glyphs"], second["glyphs"]), "a reset's is a copy"
    assert np.shares_memory(second["glyphs"], third["glyphs"])
    with pytest.raises(ValueError, match="read-only"):
        second["glyphs"][0, 0] = 1


@pytest.mark.parametrize(
    "mode,options",
    [
        ("classic", {"width": 30, "height": 14}),
        ("classic", {"width": 30, "height": 14, "crop": 9}),
        ("run", SMALL),
        ("run", {**SMALL, "crop": (7, 11)}),
        ("explore", {}),
        ("explore", {"crop": (15, 31), "max_unexplored": 2}),
    ],
)
def test_every_observation_is_byog_agents(mode, options):
    """Random actions (travel keys included) in the environment and the same keys, one a
    line, to `byog agent` in process: each answer shows what the arrays show, and a key the
    agent refuses is an action the environment refuses (the arrays unchanged)."""
    env = byog.ByogEnv(mode, travel=True, max_episode_steps=None, copy=True, **options)
    agent = env.agent()
    # A string seeds `random` the same in every process (a tuple's hash does not: PYTHONHASHSEED).
    rng = random.Random(f"{mode}-{len(options)}")
    seed = rng.randrange(1000)
    obs, _ = env.reset(seed=seed)
    start = f"{'NRE'[stat(obs, 'mode')]}{seed}S"
    check_against_agent(env, obs, answer(agent, {"reset": start}), start)
    refused = ended = 0
    for step in range(1500):
        action = rng.randrange(8) if rng.random() < 0.25 else rng.randrange(4)
        key = byog.ACTION_KEYS[action]
        before = obs
        obs, reward, terminated, truncated, _ = env.step(action)
        got = answer(agent, key)
        if key == ">" and terminated and stat(obs, "status") == 3:
            # The env's `>` that banked answered the way up's question (`Y`) itself.
            got = answer(agent, "Y")
        what = f"{start} step {step} key {key}"
        if "error" in got:
            assert stat(obs, "refused") == 1, f"{what}: {got['error']}"
            assert np.array_equal(obs["glyphs"], before["glyphs"]), what
            assert reward == 0
            refused += 1
            continue
        assert stat(obs, "refused") == 0, f"{what}: {byog.message_text(obs['message'])}"
        check_against_agent(env, obs, got, what)
        if terminated:
            ended += 1
            # The episode's input string is the game: the agent reset with it shows the same.
            keys = env.unwrapped.episode_keys()
            check_against_agent(env, obs, answer(agent, {"reset": keys}), f"{what}: replayed")
            seed += 1
            obs, _ = env.reset(seed=seed)
            start = f"{start[0]}{seed}S"
            check_against_agent(env, obs, answer(agent, {"reset": start}), start)
    if mode != "explore":
        # Explorations' random keys may refuse nothing (a walk there seldom has no step):
        # the next test refuses one on purpose.
        assert refused > 0


def test_a_travel_key_the_agent_refuses_is_an_action_the_environment_refuses():
    """Exploration 100, `X` pressed until `byog agent` refuses it (the 15th under rules
    version 9: a rat stands beside the avatar, and `X` never fights): the environment
    refuses it alike, the arrays unchanged; every `X` before it the two play alike."""
    env = byog.ByogEnv("explore", travel=True, max_episode_steps=None, copy=True)
    agent = env.agent()
    obs, _ = env.reset(seed=100)
    check_against_agent(env, obs, answer(agent, {"reset": "E100S"}), "E100S")
    x = byog.ACTION_KEYS.index("X")
    for step in range(40):
        before = obs
        obs, reward, _, _, _ = env.step(x)
        got = answer(agent, "X")
        if "error" in got:
            break
        what = f"E100S step {step}"
        assert stat(obs, "refused") == 0, what
        check_against_agent(env, obs, got, what)
    else:
        pytest.fail("40 X and none refused")
    assert step > 0, "the first X was refused"
    assert "the rat is beside you" in got["error"], got
    assert stat(obs, "refused") == 1
    assert np.array_equal(obs["glyphs"], before["glyphs"])
    assert reward == 0


def test_the_byog_binary_answers_as_the_agent_in_process(byog_bin):
    """`byog agent`, the process, against the in-process session the tests compare with."""
    env = byog.ByogEnv("run", travel=True, **SMALL)
    agent = env.agent()
    rng = random.Random(8)
    lines = [{"reset": "R21S"}] + [byog.ACTION_KEYS[rng.randrange(8)] for _ in range(300)]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    out = subprocess.run(
        [byog_bin, "agent", *env.replay_flags()],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert out == [agent.answer(json.dumps(line)) for line in lines]


@pytest.mark.parametrize("mode", ["classic", "run", "explore"])
def test_an_episode_is_an_input_string_byog_replay_plays(mode, byog_bin):
    env = byog.ByogEnv(mode, travel=True, **SMALL)
    obs, _ = env.reset(seed=77)
    rng = random.Random(1)
    for _ in range(300):
        obs, _, terminated, truncated, _ = env.step(rng.randrange(8))
        if terminated or truncated:
            break
    keys = env.episode_keys()
    assert keys.startswith("NRE"[stat(obs, "mode")] + "77S")
    out = subprocess.run(
        [byog_bin, "replay", "--format", "json", "--view", "sight", *env.replay_flags(), keys],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    check_against_agent(env, obs, json.loads(out), keys)
    assert env.replay_command()[-1] == keys


def test_a_classic_game_is_won_and_pays_one():
    env = gym.make("byog/Classic-v0", travel=True)
    obs, _ = env.reset(seed=9)
    # In a classic game the whole map is known: `>` walks to the exit at once.
    obs, reward, terminated, truncated, _ = env.step(7)
    assert terminated and not truncated
    assert reward == 1.0
    assert stat(obs, "status") == 1
    # The game is over: any action is refused until a reset.
    obs, reward, terminated, _, _ = env.step(0)
    assert stat(obs, "refused") == 1 and reward == 0
    assert "over" in byog.message_text(obs["message"])


def test_a_run_is_lost_out_of_moves():
    env = gym.make("byog/Run-v0", **SMALL, max_episode_steps=None)
    obs, _ = env.reset(seed=5)
    score = 0.0
    for _ in range(100_000):
        obs, reward, terminated, truncated, _ = env.step(4)  # wait: a run pays a move
        score += reward
        if terminated:
            break
    assert terminated and stat(obs, "status") == 2
    assert stat(obs, "loss") == 1  # out of moves
    assert stat(obs, "moves_left") == 0
    assert score == stat(obs, "score")


def sight_policy(obs):
    """Travel to the exit once seen, else explore."""
    return 7 if stat(obs, "exit_x") >= 0 else 6


def test_a_run_is_won_and_its_rewards_add_up_to_its_score():
    wins = 0
    for seed in range(20):
        env = gym.make("byog/Run-v0", width=40, height=16, floors=2, travel=True)
        obs, _ = env.reset(seed=seed)
        total = 0.0
        for _ in range(2000):
            obs, reward, terminated, truncated, _ = env.step(sight_policy(obs))
            total += reward
            if stat(obs, "refused"):
                obs, reward, terminated, truncated, _ = env.step(random.Random(seed).randrange(4))
                total += reward
            if terminated or truncated:
                break
        assert total == stat(obs, "score")
        if terminated and stat(obs, "status") == 1:
            wins += 1
            assert stat(obs, "floor") == 2
            break
    assert wins == 1


def test_an_exploration_is_banked():
    env = gym.make("byog/Explore-v0", travel=True)
    obs, _ = env.reset(seed=3)
    # The way up is in the start room: step away, then `>` walks back onto it.
    for action in (0, 1, 2, 3):
        obs, *_ = env.step(action)
        if stat(obs, "moves") > 0:
            break
    obs, reward, terminated, truncated, _ = env.step(7)
    assert terminated and stat(obs, "status") == 3, byog.message_text(obs["message"])


def test_an_exploration_is_lost_to_a_monster():
    """Deep rooms have monsters; an avatar that walks on and never fights back loses."""
    for seed in range(40):
        env = gym.make("byog/Explore-v0", travel=True, max_episode_steps=4000)
        obs, _ = env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(4000):
            action = 6 if rng.random() < 0.5 else rng.randrange(5)
            obs, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
        if terminated and stat(obs, "status") == 2:
            assert stat(obs, "health") == 0
            assert byog.GLYPH_NAMES[stat(obs, "loss")] in (
                "rat",
                "bat",
                "goblin",
                "zombie",
                "orc",
                "troll",
            )
            return
    pytest.fail("no exploration of 40 was lost")


def test_an_episode_is_truncated_at_its_step_limit():
    env = gym.make("byog/Classic-v0", max_episode_steps=10)
    env.reset(seed=1)
    for i in range(10):
        _, _, terminated, truncated, _ = env.step(4)
        assert not terminated
        assert truncated == (i == 9)
    assert env.unwrapped.text()


def test_a_reward_hook_replaces_the_reward():
    moved = byog.STAT["moves"]

    def per_move(prev, stats, reward):
        return reward - 0.01 * (stats[moved] - prev[moved])

    env = gym.make("byog/Run-v0", reward_fn=per_move, **SMALL)
    env.reset(seed=2)
    rewards = [env.step(3)[1] for _ in range(5)]
    assert any(r < 0 for r in rewards)


@pytest.mark.parametrize(
    "kwargs,says",
    [
        ({"width": 3}, "width takes a whole number in 5..=16384"),
        ({"floors": 0}, "floors takes"),
        ({"generator": "caves"}, "lootquest"),
        ({"flooors": 3}, "did you mean floors?"),
        ({"crop": 0}, "crop takes"),
        ({"crop": (3, 4, 5)}, "not a value byog takes"),
        ({"view": "all"}, '"world" or "crop"'),
        ({"max_episode_steps": 0}, "or None"),
        ({"monsters": "yes"}, "True or False"),
        ({"requirements": {"min_roms": 2}}, "is not a requirement"),
        ({"width": 2**70}, "not a value byog takes"),
        ({"observation_keys": ["glyphs", "map"]}, '"map" is not an observation'),
        ({"render_mode": "rgb_array"}, "renders as text"),
        ({"generator": "lootquest", "critical_path": 100, "width": 20, "height": 10}, "fit"),
    ],
)
def test_bad_arguments_are_a_clear_value_error(kwargs, says):
    # gym.make keeps max_episode_steps for its own TimeLimit wrapper: give it to the env.
    make = byog.ByogEnv if "max_episode_steps" in kwargs else gym.make
    with pytest.raises(ValueError) as e:
        make("byog/Run-v0" if make is gym.make else "run", **kwargs)
    assert says in str(e.value)


def test_bad_modes_seeds_and_actions_are_value_errors():
    with pytest.raises(ValueError, match="not a mode"):
        byog.ByogEnv("caves")
    with pytest.raises(ValueError, match='an exploration has no fixed world'):
        gym.make("byog/Explore-v0", view="world")
    env = gym.make("byog/Classic-v0")
    with pytest.raises(ValueError, match="0..2"):
        env.reset(seed=-1)
    env.reset(seed=1)
    for bad in (6, -1, 99):
        with pytest.raises(ValueError, match="not one of the 6 actions"):
            env.step(bad)
    with pytest.raises(gym.error.ResetNeeded):
        byog.ByogEnv("classic").step(0)


def test_the_message_says_what_happened():
    env = gym.make("byog/Run-v0", **SMALL)
    env.reset(seed=1)
    obs = env.step(5)[0]  # U outside an exploration
    assert stat(obs, "refused") == 1
    assert "U" in byog.message_text(obs["message"])
    texts = set()
    for a in [0, 1, 2, 3] * 30:
        obs = env.step(a)[0]
        texts.add(byog.message_text(obs["message"]))
    assert any(t.startswith("blocked by") for t in texts), texts


def test_render_shows_the_view():
    env = gym.make("byog/Classic-v0", render_mode="ansi", width=20, height=10)
    obs, _ = env.reset(seed=4)
    text = env.render()
    assert byog.render_glyphs(obs["glyphs"]) in text
    assert "@" in text


def test_the_binary_is_found_when_ci_requires_it():
    """CI sets BYOG_REQUIRE_BIN=1: the comparisons with the `byog` process must run there."""
    found = byog_binary()
    assert found is None or found.endswith("byog")
