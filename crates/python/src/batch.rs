//! N games stepped in one call over a pool of threads, each writing its own rows of the
//! batch's arrays (no copy, nothing allocated a step), finished games reset in place.
//!
//! Autoreset is Gymnasium's next-step mode: the step that ends an episode returns its last
//! observation with `terminated` or `truncated` set; the next step of that game ignores its
//! action, starts the game's next episode and returns its first observation (reward 0,
//! neither flag set). Game `i` of a batch reset with seed `s` plays seed `s + i`, and each of
//! its later episodes the seed `N` higher than its last (`s + i + k·N` for its episode `k`), so
//! the seeds of a batch never repeat and every episode is replayable from its seed and keys.

use rayon::prelude::*;

use byog_game::game::MAX_SEED;

use crate::game::{Game, MESSAGE_BYTES, Out, STATS};
use crate::options::Options;

/// The arrays a [`Batch`] writes, each holding every game's rows back to back (game `i` at
/// `i × per-game length`). The view arrays and the message may be absent (not observed).
#[derive(Debug)]
pub struct BatchOut<'a> {
    /// `N × rows × cols` glyph codes.
    pub glyphs: Option<&'a mut [u16]>,
    /// `N × rows × cols` characters.
    pub chars: Option<&'a mut [u32]>,
    /// `N × rows × cols` colours.
    pub colors: Option<&'a mut [u8]>,
    /// `N × STATS.len()`.
    pub stats: Option<&'a mut [i64]>,
    /// `N × MESSAGE_BYTES`.
    pub message: Option<&'a mut [u8]>,
    /// `N` rewards.
    pub rewards: &'a mut [f64],
    /// `N` terminated flags.
    pub terminated: &'a mut [bool],
    /// `N` truncated flags.
    pub truncated: &'a mut [bool],
}

/// A game whose next episode could not be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {index} of the batch cannot start seed {seed}: {message}")]
pub struct StepError {
    /// The game's index in the batch.
    pub index: usize,
    /// The seed it tried.
    pub seed: u64,
    /// Why, in the game's words.
    pub message: String,
}

/// N games (see the module's documentation).
#[derive(Debug)]
pub struct Batch {
    games: Vec<Game>,
    /// Each game's next episode's seed.
    next_seed: Vec<u64>,
    /// Games whose episode ended at their last step: the next step resets them.
    done: Vec<bool>,
    /// Whether the arrays hold each game's last observation (so only what changed is
    /// written).
    written: Vec<bool>,
    view_len: usize,
    pool: Option<rayon::ThreadPool>,
    /// Whether an ended game starts its next episode at its next step (else its next step
    /// is refused, as a game alone does: [`Game::step`]).
    autoreset: bool,
}

/// One thread's share of the games and of the arrays.
struct Share<'a> {
    games: &'a mut [Game],
    next_seed: &'a mut [u64],
    done: &'a mut [bool],
    written: &'a mut [bool],
    out: BatchOut<'a>,
}

/// `slice` cut into pieces of `per × games` entries (`None`s when absent).
fn cut<T>(slice: Option<&mut [T]>, per: usize, games: usize, n: usize) -> Vec<Option<&mut [T]>> {
    match slice {
        Some(s) => s.chunks_mut((per * games).max(1)).map(Some).collect(),
        None => (0..n).map(|_| None).collect(),
    }
}

impl Batch {
    /// `n` games made with `options` (checked before), at the menu, spread over `threads`
    /// threads (1: the caller's thread alone, no pool); `autoreset`: whether a game whose
    /// episode ended starts its next one at its next step.
    ///
    /// # Errors
    /// The pool of threads could not be made.
    pub fn new(
        options: &Options,
        n: usize,
        threads: usize,
        autoreset: bool,
    ) -> Result<Batch, String> {
        let (rows, cols) = options.view_shape();
        let pool = if threads > 1 && n > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("byog-batch-{i}"))
                    .build()
                    .map_err(|e| format!("cannot start {threads} threads: {e}"))?,
            )
        } else {
            None
        };
        Ok(Batch {
            games: (0..n).map(|_| Game::new(options)).collect(),
            next_seed: vec![0; n],
            done: vec![true; n],
            written: vec![false; n],
            view_len: rows * cols,
            pool,
            autoreset,
        })
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Game `i`.
    pub fn game(&self, i: usize) -> Option<&Game> {
        self.games.get(i)
    }

    /// Starts every game anew: game `i` on seed `seed + i` (modulo 2^63), its later episodes
    /// `N` seeds apart; writes every observation whole.
    ///
    /// # Errors
    /// The first game whose world cannot be made.
    pub fn reset(&mut self, seed: u64, out: BatchOut<'_>) -> Result<(), StepError> {
        for (i, s) in self.next_seed.iter_mut().enumerate() {
            *s = seed.wrapping_add(i as u64) % (MAX_SEED + 1);
        }
        self.done.fill(true);
        self.written.fill(false);
        self.run(None, out)
    }

    /// Plays `actions[i]` in game `i` (games whose episode ended at their last step start
    /// their next one instead) and writes what changed.
    ///
    /// # Errors
    /// A game whose next episode cannot be started (the others were stepped).
    pub fn step(&mut self, actions: &[i64], out: BatchOut<'_>) -> Result<(), StepError> {
        self.run(Some(actions), out)
    }

    fn run(&mut self, actions: Option<&[i64]>, out: BatchOut<'_>) -> Result<(), StepError> {
        let n = self.games.len();
        if n == 0 {
            return Ok(());
        }
        let shares = self
            .pool
            .as_ref()
            .map_or(1, |p| p.current_num_threads())
            .min(n);
        let per_share = n.div_ceil(shares);
        let total = n as u64;
        let (v, st) = (self.view_len, STATS.len());
        let mut glyphs = cut(out.glyphs, v, per_share, shares).into_iter();
        let mut chars = cut(out.chars, v, per_share, shares).into_iter();
        let mut colors = cut(out.colors, v, per_share, shares).into_iter();
        let mut stats = cut(out.stats, st, per_share, shares).into_iter();
        let mut message = cut(out.message, MESSAGE_BYTES, per_share, shares).into_iter();
        let mut rewards = out.rewards.chunks_mut(per_share);
        let mut terminated = out.terminated.chunks_mut(per_share);
        let mut truncated = out.truncated.chunks_mut(per_share);
        let mut parts = Vec::with_capacity(shares);
        for (((games, next_seed), done), written) in self
            .games
            .chunks_mut(per_share)
            .zip(self.next_seed.chunks_mut(per_share))
            .zip(self.done.chunks_mut(per_share))
            .zip(self.written.chunks_mut(per_share))
        {
            let first = parts.len() * per_share;
            let share = Share {
                games,
                next_seed,
                done,
                written,
                out: BatchOut {
                    glyphs: glyphs.next().flatten(),
                    chars: chars.next().flatten(),
                    colors: colors.next().flatten(),
                    stats: stats.next().flatten(),
                    message: message.next().flatten(),
                    rewards: rewards.next().unwrap_or_default(),
                    terminated: terminated.next().unwrap_or_default(),
                    truncated: truncated.next().unwrap_or_default(),
                },
            };
            let acts = actions.map(|a| &a[first.min(a.len())..(first + per_share).min(a.len())]);
            parts.push((first, share, acts));
        }
        let autoreset = self.autoreset;
        let play = |(first, share, acts): (usize, Share<'_>, Option<&[i64]>)| {
            share.play(first, acts, v, total, autoreset)
        };
        let errors: Vec<StepError> = match &self.pool {
            Some(pool) => pool.install(|| parts.into_par_iter().filter_map(play).collect()),
            None => parts.into_iter().filter_map(play).collect(),
        };
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Share<'_> {
    /// Steps (or resets) this share's games; `first` is its first game's index.
    fn play(
        self,
        first: usize,
        actions: Option<&[i64]>,
        v: usize,
        total: u64,
        autoreset: bool,
    ) -> Option<StepError> {
        let Share {
            games,
            next_seed,
            done,
            written,
            mut out,
        } = self;
        let st = STATS.len();
        let mut error = None;
        for (i, game) in games.iter_mut().enumerate() {
            let row = |len: usize| i * len..(i + 1) * len;
            let mut o = Out {
                glyphs: out.glyphs.as_deref_mut().map(|a| &mut a[row(v)]),
                chars: out.chars.as_deref_mut().map(|a| &mut a[row(v)]),
                colors: out.colors.as_deref_mut().map(|a| &mut a[row(v)]),
                stats: out.stats.as_deref_mut().map(|a| &mut a[row(st)]),
                message: out
                    .message
                    .as_deref_mut()
                    .map(|a| &mut a[row(MESSAGE_BYTES)]),
            };
            let action = actions.map(|a| a.get(i).copied().unwrap_or(-1));
            if (done[i] && autoreset) || action.is_none() {
                let seed = next_seed[i];
                next_seed[i] = seed.wrapping_add(total) % (MAX_SEED + 1);
                if let Err(message) = game.reset(seed) {
                    error.get_or_insert(StepError {
                        index: first + i,
                        seed,
                        message,
                    });
                }
                game.write(&mut o, true);
                written[i] = true;
                done[i] = false;
                out.rewards[i] = 0.0;
                out.terminated[i] = false;
                out.truncated[i] = false;
                continue;
            }
            let a = action.unwrap_or(-1);
            let step = game.step(usize::try_from(a).unwrap_or(usize::MAX));
            game.write(&mut o, !written[i]);
            written[i] = true;
            done[i] = step.terminated || step.truncated;
            out.rewards[i] = step.reward;
            out.terminated[i] = step.terminated;
            out.truncated[i] = step.truncated;
        }
        error
    }
}
