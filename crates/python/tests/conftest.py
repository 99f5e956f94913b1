"""Shared helpers of the Python package's tests (run with pytest from anywhere)."""

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

import byog

ROOT = Path(__file__).resolve().parents[3]


def byog_binary():
    """The `byog` command to compare with: $BYOG_BIN, else a build in the repository's
    target/, else one on PATH; None when there is none (the tests that need it then skip,
    unless $BYOG_REQUIRE_BIN=1, as CI sets, makes them fail)."""
    candidates = [os.environ.get("BYOG_BIN")]
    candidates += [str(ROOT / "target" / p / "byog") for p in ("debug", "release")]
    candidates.append(shutil.which("byog"))
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return c
    if os.environ.get("BYOG_REQUIRE_BIN") == "1":
        pytest.fail("no byog binary: build it (cargo build) or set BYOG_BIN")
    return None


@pytest.fixture
def byog_bin():
    found = byog_binary()
    if found is None:
        pytest.skip("no byog binary (cargo build, or BYOG_BIN)")
    return found


def stat(obs, name):
    return int(obs["stats"][byog.STAT[name]])


def rows_of(answer):
    """The `rows` of an agent's answer as lists of characters."""
    return [list(r) for r in answer["rows"]]


def check_against_agent(env, obs, answer, what=""):
    """The arrays of `obs` show exactly what `answer` (a `byog agent` line, parsed) shows."""
    rows = rows_of(answer)
    h = len(rows)
    w = len(rows[0]) if rows else 0
    assert stat(obs, "world_width") == w, what
    assert stat(obs, "world_height") == h, what
    ax, ay = answer["avatar"]
    assert (stat(obs, "x"), stat(obs, "y")) == (ax, ay), what
    chars = obs["chars"]
    vr, vc = chars.shape
    assert (vr, vc) == env.unwrapped.view_shape
    for r in range(vr):
        for c in range(vc):
            if env.unwrapped.cropped:
                x, y = ax - vc // 2 + c, ay + vr // 2 - r
            else:
                x, y = c, h - 1 - r
            want = rows[h - 1 - y][x] if 0 <= x < w and 0 <= y < h else " "
            got = chr(chars[r, c])
            assert got == want, f"{what}: row {r} col {c}: {got!r} != {want!r}"
    np.testing.assert_array_equal(byog.GLYPH_CHARS[obs["glyphs"]], chars)
    exit_ = answer["exit"] or [-1, -1]
    assert (stat(obs, "exit_x"), stat(obs, "exit_y")) == tuple(exit_), what
    assert stat(obs, "moves") == answer["moves"], what
    status = {"playing": 0, "won": 1, "lost": 2}[answer["status"]]
    if status == 1 and answer["mode"] == "explore":
        status = 3
    assert stat(obs, "status") == status, what
    for key in (
        "health",
        "moves_left",
        "floor",
        "floors",
        "depth",
        "potions",
        "perfect_floors",
        "chests_total",
        "traps_total",
        "chest_moves",
        "trap_moves",
    ):
        assert stat(obs, key) == answer.get(key, -1), f"{what}: {key}"
    assert stat(obs, "score") == answer.get("score", 0), what
    if answer["mode"] == "explore":
        assert stat(obs, "monsters") == len(answer["monsters"]), what
        assert [stat(obs, "room_x"), stat(obs, "room_y")] == answer["room"], what


def answer(agent, line):
    return json.loads(agent.answer(json.dumps(line)))
