//! The module `byog._byog` (pyo3, rust-numpy): the native batch and `byog agent`'s session,
//! for the Python package in `python/byog` (`docs/python.md`).
//!
//! The batch owns its NumPy arrays, made once; every step writes into them with the GIL
//! released, from threads of the batch's own pool.

// Unsafe code here, and only here in the Python package: pyo3's bindings, and the batch's
// NumPy arrays written in place with the GIL released (each step's SAFETY comment says why
// that is sound).
#![allow(unsafe_code)]

use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyTuple};

use byog_players::agent::Agent as RustAgent;
use byog_tile_engine::Tile;

use crate::game::{ACTION_KEYS, CHAR_OF_GLYPH, MESSAGE_BYTES, PALETTE, STATS};
use crate::options::{OPTION_NAMES, Options, Value};
use crate::{Batch as RustBatch, BatchOut};

/// A Python value as an option's [`Value`].
fn value_of(name: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    if v.is_none() {
        return Ok(Value::None);
    }
    if v.is_instance_of::<PyBool>() {
        return Ok(Value::Bool(v.extract()?));
    }
    if let Ok(i) = v.extract::<i64>() {
        return Ok(Value::Int(i));
    }
    if let Ok(s) = v.extract::<String>() {
        return Ok(Value::Str(s));
    }
    if let Ok(d) = v.cast::<PyDict>() {
        let mut entries = Vec::new();
        for (k, b) in d.iter() {
            let key: String = k
                .extract()
                .map_err(|_| PyValueError::new_err(format!("{name}: its keys are names (str)")))?;
            let bound: i64 = b.extract().map_err(|_| {
                PyValueError::new_err(format!("{name}: {key}'s bound is a whole number"))
            })?;
            entries.push((key, bound));
        }
        return Ok(Value::Map(entries));
    }
    if let Ok((a, b)) = v.extract::<(i64, i64)>() {
        return Ok(Value::Pair(a, b));
    }
    let shown = v.repr().map(|r| r.to_string()).unwrap_or_default();
    Err(PyValueError::new_err(format!(
        "{name}={shown}: not a value byog takes (a whole number, a str, True or False, None, a \
         pair of whole numbers or a dict)"
    )))
}

/// The options of `mode` with the keyword arguments `kwargs`, checked.
fn options_of(mode: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let mode = Options::mode_named(mode).map_err(PyValueError::new_err)?;
    let mut options = Options::new(mode);
    if let Some(kwargs) = kwargs {
        // `view` before `crop`, whatever their order: a crop size also picks the crop.
        let mut items: Vec<(String, Bound<'_, PyAny>)> = Vec::new();
        for (k, v) in kwargs.iter() {
            items.push((k.extract()?, v));
        }
        items.sort_by_key(|(k, _)| k == "crop");
        for (k, v) in items {
            let value = value_of(&k, &v)?;
            options.set(&k, &value).map_err(PyValueError::new_err)?;
        }
    }
    options.validate().map_err(PyValueError::new_err)?;
    Ok(options)
}

/// N games stepped in one call (`byog.vector.BatchEnv` wraps it).
///
/// `Batch(mode, num_envs, threads, observation_keys, autoreset, **options)`: the arrays (attributes
/// `glyphs`, `chars`, `colors` of shape `(N, rows, cols)`, `stats` `(N, len(STATS))`,
/// `message` `(N, MESSAGE_BYTES)`, `rewards`, `terminated`, `truncated` `(N,)`) are made once
/// and written in place by `reset` and `step`; an observation key not asked for has no array
/// (`None`).
#[pyclass(module = "byog._byog")]
struct Batch {
    inner: RustBatch,
    options: Options,
    #[pyo3(get)]
    glyphs: Option<Py<PyArray3<u16>>>,
    #[pyo3(get)]
    chars: Option<Py<PyArray3<u32>>>,
    #[pyo3(get)]
    colors: Option<Py<PyArray3<u8>>>,
    #[pyo3(get)]
    stats: Option<Py<PyArray2<i64>>>,
    #[pyo3(get)]
    message: Option<Py<PyArray2<u8>>>,
    #[pyo3(get)]
    rewards: Py<PyArray1<f64>>,
    #[pyo3(get)]
    terminated: Py<PyArray1<bool>>,
    #[pyo3(get)]
    truncated: Py<PyArray1<bool>>,
}

/// The observation keys a batch can fill.
const OBSERVATION_KEYS: [&str; 5] = ["glyphs", "chars", "colors", "stats", "message"];

/// Runs `$body` on the batch's arrays as slices (`$out`), with the GIL released when
/// `$release`.
macro_rules! with_arrays {
    ($py:expr, $this:expr, $release:expr, |$inner:ident, $out:ident| $body:expr) => {{
        let this = &mut *$this;
        let glyphs = this.glyphs.as_ref().map(|a| a.bind($py).clone());
        let chars = this.chars.as_ref().map(|a| a.bind($py).clone());
        let colors = this.colors.as_ref().map(|a| a.bind($py).clone());
        let stats = this.stats.as_ref().map(|a| a.bind($py).clone());
        let message = this.message.as_ref().map(|a| a.bind($py).clone());
        let rewards = this.rewards.bind($py).clone();
        let terminated = this.terminated.bind($py).clone();
        let truncated = this.truncated.bind($py).clone();
        let contiguous = |_| PyValueError::new_err("the batch's arrays must stay contiguous");
        // SAFETY: the arrays were made by this batch (C-contiguous, never resized: the batch
        // holds a reference), and Python code that writes into them while a step runs races
        // only with itself (docs/python.md: the arrays are read-only to users).
        let result = unsafe {
            let $out = BatchOut {
                glyphs: glyphs
                    .as_ref()
                    .map(|a| a.as_slice_mut())
                    .transpose()
                    .map_err(contiguous)?,
                chars: chars
                    .as_ref()
                    .map(|a| a.as_slice_mut())
                    .transpose()
                    .map_err(contiguous)?,
                colors: colors
                    .as_ref()
                    .map(|a| a.as_slice_mut())
                    .transpose()
                    .map_err(contiguous)?,
                stats: stats
                    .as_ref()
                    .map(|a| a.as_slice_mut())
                    .transpose()
                    .map_err(contiguous)?,
                message: message
                    .as_ref()
                    .map(|a| a.as_slice_mut())
                    .transpose()
                    .map_err(contiguous)?,
                rewards: rewards.as_slice_mut().map_err(contiguous)?,
                terminated: terminated.as_slice_mut().map_err(contiguous)?,
                truncated: truncated.as_slice_mut().map_err(contiguous)?,
            };
            let $inner = &mut this.inner;
            if $release {
                $py.detach(move || $body)
            } else {
                $body
            }
        };
        result.map_err(|e| PyValueError::new_err(e.to_string()))
    }};
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (mode, num_envs, threads=1, observation_keys=None, autoreset=true, **options))]
    fn new(
        py: Python<'_>,
        mode: &str,
        num_envs: i64,
        threads: i64,
        observation_keys: Option<Vec<String>>,
        autoreset: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Batch> {
        let options = options_of(mode, options)?;
        if !(1..=1 << 20).contains(&num_envs) {
            return Err(PyValueError::new_err(format!(
                "num_envs={num_envs}: a batch holds 1 to 1048576 games"
            )));
        }
        if !(1..=256).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads={threads}: 1 to 256 threads"
            )));
        }
        let keys = observation_keys
            .unwrap_or_else(|| OBSERVATION_KEYS.iter().map(|k| k.to_string()).collect());
        for k in &keys {
            if !OBSERVATION_KEYS.contains(&k.as_str()) {
                return Err(PyValueError::new_err(format!(
                    "observation_keys: {k:?} is not an observation: {}",
                    OBSERVATION_KEYS.join(", ")
                )));
            }
        }
        let has = |k: &str| keys.iter().any(|x| x == k);
        let n = num_envs as usize;
        let (rows, cols) = options.view_shape();
        let inner = RustBatch::new(&options, n, threads as usize, autoreset)
            .map_err(PyValueError::new_err)?;
        // One game made now, so a world that cannot be made is told here.
        let mut probe = crate::Game::new(&options);
        probe.reset(0).map_err(PyValueError::new_err)?;
        Ok(Batch {
            inner,
            options,
            glyphs: has("glyphs").then(|| PyArray3::zeros(py, [n, rows, cols], false).unbind()),
            chars: has("chars").then(|| PyArray3::zeros(py, [n, rows, cols], false).unbind()),
            colors: has("colors").then(|| PyArray3::zeros(py, [n, rows, cols], false).unbind()),
            stats: has("stats").then(|| PyArray2::zeros(py, [n, STATS.len()], false).unbind()),
            message: has("message")
                .then(|| PyArray2::zeros(py, [n, MESSAGE_BYTES], false).unbind()),
            rewards: PyArray1::zeros(py, [n], false).unbind(),
            terminated: PyArray1::zeros(py, [n], false).unbind(),
            truncated: PyArray1::zeros(py, [n], false).unbind(),
        })
    }

    /// Starts every game anew, game `i` on seed `seed + i`.
    fn reset(mut slf: PyRefMut<'_, Self>, py: Python<'_>, seed: u64) -> PyResult<()> {
        with_arrays!(py, slf, true, |inner, out| inner.reset(seed, out))
    }

    /// Plays `actions[i]` (int64, one a game) in game `i`; games whose episode ended at their
    /// last step start their next one instead.
    fn step(
        mut slf: PyRefMut<'_, Self>,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<()> {
        let n = slf.inner.len();
        let actions = actions
            .as_slice()
            .map_err(|_| PyValueError::new_err("actions must be a contiguous array of int64"))?;
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} games: one action a game",
                actions.len()
            )));
        }
        let limit = slf.options.actions() as i64;
        if let Some((i, a)) = actions
            .iter()
            .enumerate()
            .find(|(_, a)| !(0..limit).contains(*a))
        {
            return Err(PyValueError::new_err(format!(
                "action {a} of game {i} is not one of the {limit} actions (0..{limit})"
            )));
        }
        let actions = actions.to_vec();
        with_arrays!(py, slf, true, |inner, out| inner.step(&actions, out))
    }

    /// One game's step (a batch of one): plays `action` and returns `(reward, terminated,
    /// truncated)`.
    fn step_one(
        mut slf: PyRefMut<'_, Self>,
        py: Python<'_>,
        action: i64,
    ) -> PyResult<(f64, bool, bool)> {
        let limit = slf.options.actions() as i64;
        if !(0..limit).contains(&action) || slf.inner.len() != 1 {
            return Err(PyValueError::new_err(format!(
                "action {action} is not one of the {limit} actions (0..{limit})"
            )));
        }
        // One game's step takes about a microsecond: the GIL is kept (releasing it and
        // taking it back would cost a good part of that).
        let actions = [action];
        with_arrays!(py, slf, false, |inner, out| inner.step(&actions, out))?;
        let this = &*slf;
        let read = |a: &Py<PyArray1<bool>>| a.bind(py).get_owned(0).unwrap_or(false);
        Ok((
            this.rewards.bind(py).get_owned(0).unwrap_or(0.0),
            read(&this.terminated),
            read(&this.truncated),
        ))
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// The number of actions (6, or 8 with the travel keys).
    #[getter]
    fn num_actions(&self) -> usize {
        self.options.actions()
    }

    /// The glyph arrays' `(rows, cols)`.
    #[getter]
    fn view_shape(&self) -> (usize, usize) {
        self.options.view_shape()
    }

    /// Whether the view is a crop round the avatar (else the whole world).
    #[getter]
    fn cropped(&self) -> bool {
        matches!(self.options.view, crate::options::ObservedArea::Crop { .. })
    }

    /// The step limit of an episode (`None`: none).
    #[getter]
    fn max_episode_steps(&self) -> Option<u64> {
        self.options.max_steps
    }

    /// The flags `byog replay` needs to make the same games (those that differ from its
    /// defaults), e.g. `["--width", "40"]`.
    fn flags(&self) -> Vec<String> {
        self.options.flags()
    }

    /// Game `i`'s episode so far as an input string (`R42SDDW…`), or `None` when keys are
    /// not recorded (`record_keys=False`).
    fn episode_keys(&self, i: usize) -> PyResult<Option<String>> {
        let game = self
            .inner
            .game(i)
            .ok_or_else(|| no_game(i, self.inner.len()))?;
        Ok(game.episode_keys().map(str::to_owned))
    }

    /// Game `i`'s message after its last action, as text.
    fn message_text(&self, i: usize) -> PyResult<String> {
        let game = self
            .inner
            .game(i)
            .ok_or_else(|| no_game(i, self.inner.len()))?;
        Ok(game.message().to_owned())
    }

    /// Game `i`'s episode's seed.
    fn seed(&self, i: usize) -> PyResult<u64> {
        let game = self
            .inner
            .game(i)
            .ok_or_else(|| no_game(i, self.inner.len()))?;
        Ok(game.seed())
    }

    /// The options' `byog agent` session: an [`Agent`] that makes its games the same way.
    fn agent(&self) -> Agent {
        Agent {
            inner: RustAgent::new(self.options.agent_options()),
        }
    }
}

fn no_game(i: usize, n: usize) -> PyErr {
    PyValueError::new_err(format!("game {i}: the batch holds {n} games (0..{n})"))
}

/// `byog agent` in process: `answer(line)` answers one line of the protocol (a JSON string of
/// keys, or `{"reset": "R42S"}`) with the line `byog agent` prints (`docs/agent.md`).
#[pyclass(module = "byog._byog", unsendable)]
struct Agent {
    inner: RustAgent,
}

#[pymethods]
impl Agent {
    /// A session whose games are made with the options of `mode` and `**options` (the same
    /// keyword arguments as the environments).
    #[new]
    #[pyo3(signature = (mode="classic", **options))]
    fn new(mode: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Agent> {
        let options = options_of(mode, options)?;
        Ok(Agent {
            inner: RustAgent::new(options.agent_options()),
        })
    }

    /// The answer to one line (without its line break).
    fn answer(&mut self, line: &str) -> String {
        self.inner.answer(line)
    }
}

/// Seconds a game of `mode` takes to start, on average over `seeds` seeds from 0: the world
/// (a run's first floor with its features, proof and par route; an exploration's start room)
/// made through the keys `N<seed>S` (`R`, `E`), with no observation; the benchmarks' "the
/// floor's own time" (`benches/peers/nle_speed.py`).
#[pyfunction]
#[pyo3(signature = (mode, seeds, **options))]
fn time_new_game(
    py: Python<'_>,
    mode: &str,
    seeds: u64,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<f64> {
    let options = options_of(mode, options)?;
    let kind = options.mode;
    py.detach(move || {
        let start = std::time::Instant::now();
        for seed in 0..seeds.max(1) {
            let mut interpreter = options.game_options().interpreter();
            let mut store = byog_game::save::MemoryStore::default();
            for key in format!("{}{seed}S", kind.key()).chars() {
                interpreter
                    .feed(key, &mut store)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
            }
            std::hint::black_box(&interpreter);
        }
        Ok(start.elapsed().as_secs_f64() / seeds.max(1) as f64)
    })
}

/// Names and tables the Python package builds its spaces from.
#[pymodule]
fn _byog(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Batch>()?;
    m.add_class::<Agent>()?;
    m.add_function(wrap_pyfunction!(time_new_game, m)?)?;
    m.add("STATS", PyTuple::new(py, STATS)?)?;
    m.add("ACTION_KEYS", ACTION_KEYS.iter().collect::<String>())?;
    m.add("MESSAGE_BYTES", MESSAGE_BYTES)?;
    m.add("NUM_GLYPHS", Tile::COUNT)?;
    m.add("OPTION_NAMES", PyTuple::new(py, OPTION_NAMES)?)?;
    m.add("OBSERVATION_KEYS", PyTuple::new(py, OBSERVATION_KEYS)?)?;
    let names: Vec<&str> = Tile::ALL.iter().map(|t| t.tetile().description()).collect();
    m.add("GLYPH_NAMES", PyList::new(py, names)?)?;
    m.add("GLYPH_CHARS", PyArray1::from_slice(py, &CHAR_OF_GLYPH[..]))?;
    let palette: Vec<Vec<u8>> = PALETTE.iter().map(|c| c.to_vec()).collect();
    m.add(
        "PALETTE",
        PyArray2::from_vec2(py, &palette).map_err(|e| PyTypeError::new_err(e.to_string()))?,
    )?;
    Ok(())
}
