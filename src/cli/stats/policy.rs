//! `byog stats --runs A..B --policy NAME` and `--explorations A..B --policy NAME`: a policy
//! ([`byog_players::policy`]) plays every seed of the range; the summary says how the games ended
//! (wins, losses by cause, banked), how far they got (the floor or depth reached), their
//! scores and moves, as a table or JSON (`docs/json.md`). The games run on a rayon pool
//! (`--threads`); the output is the same for any number of threads.

use serde_json::{Value, json};

use super::super::CliError;
use super::super::args::SeedRange;
use byog_game::explore::{ExploreSettings, MonsterKind};
use byog_players::policy::{self, Arrival, Ending, GameMode, Played, Policy, RunSetup};

/// Min, p10, median, p90 and max (nearest rank) of a list of whole numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    /// Smallest.
    pub min: u64,
    /// 10th percentile, nearest rank.
    pub p10: u64,
    /// 50th percentile, nearest rank.
    pub median: u64,
    /// 90th percentile, nearest rank.
    pub p90: u64,
    /// Largest.
    pub max: u64,
}

impl Spread {
    /// The spread of `values` (`None` when empty).
    pub fn of(mut values: Vec<u64>) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        values.sort_unstable();
        let rank = |p: usize| values[(values.len() * p).div_ceil(100).max(1) - 1];
        Some(Spread {
            min: values[0],
            p10: rank(10),
            median: rank(50),
            p90: rank(90),
            max: values[values.len() - 1],
        })
    }

    fn json(spread: Option<Spread>) -> Value {
        spread.map_or(
            Value::Null,
            |s| json!({"min": s.min, "p10": s.p10, "median": s.median, "p90": s.p90, "max": s.max}),
        )
    }
}

/// Every game of a batch, in seed order.
#[derive(Debug, Clone)]
pub struct Batch {
    /// The policy that played.
    pub policy: Policy,
    /// The seeds, first and last (inclusive).
    pub first: u64,
    /// See `first`.
    pub last: u64,
    /// One outcome a seed that could be played.
    pub outcomes: Vec<Played>,
    /// Seeds whose game could not be made, with why.
    pub failures: Vec<(u64, String)>,
    /// Runs: every floor reached after B1, in every run (moves on arrival against par).
    pub arrivals: Vec<Arrival>,
}

/// One seed played: the game and (runs) its arrivals, or the seed and why it could not be made.
type GameResult = Result<(Played, Vec<Arrival>), (u64, String)>;

/// Plays `range` with `policy` on `pool` (`None`: this thread), calling `tick` once a game;
/// explorations with `explore`'s settings and its session of at most that many moves.
pub fn play_batch(
    policy: Policy,
    range: SeedRange,
    setup: &RunSetup,
    explore: (ExploreSettings, u64),
    pool: Option<&rayon::ThreadPool>,
    tick: &(dyn Fn() + Sync),
) -> Batch {
    let (explore, move_cap) = explore;
    use rayon::prelude::*;
    let play = |seed: u64| {
        let mut arrivals = Vec::new();
        let result = match policy.mode() {
            GameMode::Runs => {
                policy::play_run_with(seed, policy, setup, &mut |_| {}, &mut |a| arrivals.push(a))
            }
            GameMode::Explorations => {
                policy::play_exploration_with(seed, policy, explore, move_cap, &mut |_| {})
            }
        };
        tick();
        result
            .map(|played| (played, arrivals))
            .map_err(|e| (seed, super::super::errors::generate(&e)))
    };
    let results: Vec<GameResult> = match pool {
        Some(pool) => pool.install(|| {
            (range.first..=range.last)
                .into_par_iter()
                .map(play)
                .collect()
        }),
        None => (range.first..=range.last).map(play).collect(),
    };
    let mut batch = Batch {
        policy,
        first: range.first,
        last: range.last,
        outcomes: Vec::with_capacity(results.len()),
        failures: Vec::new(),
        arrivals: Vec::new(),
    };
    for r in results {
        match r {
            Ok((o, arrivals)) => {
                batch.outcomes.push(o);
                batch.arrivals.extend(arrivals);
            }
            Err(f) => batch.failures.push(f),
        }
    }
    batch
}

/// The endings a mode can have, in table order.
fn endings(mode: GameMode) -> &'static [Ending] {
    match mode {
        GameMode::Runs => &[
            Ending::Won,
            Ending::OutOfMoves,
            Ending::OutOfHealth,
            Ending::Stuck,
        ],
        GameMode::Explorations => &[
            Ending::Banked,
            Ending::OutOfHealth,
            Ending::Capped,
            Ending::Stuck,
        ],
    }
}

impl Batch {
    /// Games that ended so.
    pub fn count(&self, ending: Ending) -> u64 {
        self.outcomes.iter().filter(|o| o.ending == ending).count() as u64
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.outcomes.len() as u64
    }

    /// Runs lost with the last floor's exit never seen.
    pub fn lost_exit_unseen(&self) -> u64 {
        self.outcomes
            .iter()
            .filter(|o| o.ending != Ending::Won && o.extra == 0)
            .count() as u64
    }

    /// How many games got to each floor (runs) or depth (explorations), deepest last.
    pub fn reached(&self) -> Vec<(u32, u64)> {
        let top = self.outcomes.iter().map(|o| o.reached).max().unwrap_or(0);
        (0..=top)
            .map(|k| {
                (
                    k,
                    self.outcomes.iter().filter(|o| o.reached == k).count() as u64,
                )
            })
            .filter(|&(k, n)| n > 0 || (self.policy.mode() == GameMode::Runs && k > 0))
            .collect()
    }

    /// The mean score over every game (runs: the score; explorations: the points carried,
    /// banked or not).
    pub fn mean_score(&self) -> f64 {
        mean(self.outcomes.iter().map(|o| o.score))
    }

    /// Explorations: the mean banked score over every game (a game lost, or still in play at
    /// the move cap, banked 0): what a policy takes home on average, `docs/balance.md`.
    pub fn mean_banked(&self) -> f64 {
        mean(self.outcomes.iter().map(|o| {
            if o.ending == Ending::Banked {
                o.score
            } else {
                0
            }
        }))
    }

    /// Explorations: games lost before the avatar stood at depth `depth`.
    pub fn lost_before(&self, depth: u32) -> u64 {
        self.outcomes
            .iter()
            .filter(|o| o.ending == Ending::OutOfHealth && o.reached < depth)
            .count() as u64
    }

    /// Explorations: games lost to each kind of monster (the kind that took the last
    /// heart), in the bestiary's order; an armed trap's last heart is `None`.
    pub fn killed_by(&self) -> Vec<(Option<MonsterKind>, u64)> {
        let lost = |k: Option<MonsterKind>| {
            self.outcomes
                .iter()
                .filter(|o| o.ending == Ending::OutOfHealth && o.killed_by == k)
                .count() as u64
        };
        MonsterKind::ALL
            .into_iter()
            .map(Some)
            .chain([None])
            .map(|k| (k, lost(k)))
            .collect()
    }

    /// Explorations: chests refilled, potions found in them and carried, and left behind
    /// (the pack was full), over every game.
    pub fn potions(&self) -> (u64, u64, u64) {
        self.outcomes.iter().fold((0, 0, 0), |(c, f, l), o| {
            (
                c + u64::from(o.chests),
                f + u64::from(o.potions_found),
                l + u64::from(o.potions_left),
            )
        })
    }

    /// Runs: each floor reached after B1 with the median of its moves on arrival against
    /// its par, in percent (nearest rank), and how many arrivals there were.
    pub fn arrival_medians(&self) -> Vec<(u32, u64, u64)> {
        let top = self.arrivals.iter().map(|a| a.floor).max().unwrap_or(0);
        (2..=top)
            .filter_map(|floor| {
                let ratios: Vec<u64> = self
                    .arrivals
                    .iter()
                    .filter(|a| a.floor == floor && a.par > 0)
                    .map(|a| a.moves_left * 100 / a.par)
                    .collect();
                let n = ratios.len() as u64;
                Spread::of(ratios).map(|s| (floor, s.median, n))
            })
            .collect()
    }

    fn spread(
        &self,
        value: impl Fn(&Played) -> u64,
        of: impl Fn(&Played) -> bool,
    ) -> Option<Spread> {
        Spread::of(self.outcomes.iter().filter(|o| of(o)).map(value).collect())
    }

    /// The batch as JSON (`docs/json.md`); `move_cap` is the explorations' session.
    pub fn json(&self, setup: &RunSetup, explore: ExploreSettings, move_cap: u64) -> Value {
        let mode = self.policy.mode();
        let mut endings_obj = serde_json::Map::new();
        for &e in endings(mode) {
            endings_obj.insert(e.name().into(), json!(self.count(e)));
        }
        let reached: Vec<Value> = self
            .reached()
            .into_iter()
            .map(|(k, n)| json!({"reached": k, "games": n}))
            .collect();
        let mut v = json!({
            "policy": self.policy.name(),
            "mode": match mode { GameMode::Runs => "runs", GameMode::Explorations => "explorations" },
            "first": self.first,
            "last": self.last,
            "games": self.games(),
            "failed": self.failures.len(),
            "endings": endings_obj,
            "win_percent": percent(self.count(match mode { GameMode::Runs => Ending::Won, GameMode::Explorations => Ending::Banked }), self.games()),
            "reached": reached,
            "score": Spread::json(self.spread(|o| o.score, |_| true)),
            "score_mean": round1(self.mean_score()),
            "moves": Spread::json(self.spread(|o| o.moves, |_| true)),
        });
        match mode {
            GameMode::Runs => {
                v["lost_exit_unseen"] = json!(self.lost_exit_unseen());
                v["perfect_floors"] =
                    Spread::json(self.spread(|o| u64::from(o.perfect_floors), |_| true));
                v["score_won"] =
                    Spread::json(self.spread(|o| o.score, |o| o.ending == Ending::Won));
                v["floors"] = json!(setup.floors);
                v["arrival_par_percent"] = self
                    .arrival_medians()
                    .into_iter()
                    .map(|(floor, median, n)| json!({"floor": floor, "median": median, "arrivals": n}))
                    .collect();
                v["width"] = json!(setup.width);
                v["height"] = json!(setup.height);
            }
            GameMode::Explorations => {
                v["rooms"] = Spread::json(self.spread(|o| o.extra, |_| true));
                v["banked_mean"] = round1(self.mean_banked());
                v["lost_before_depth_8"] = json!(self.lost_before(8));
                let mut killed = serde_json::Map::new();
                for (kind, n) in self.killed_by() {
                    killed.insert(kind.map_or("trap", MonsterKind::name).into(), json!(n));
                }
                v["killed_by"] = Value::Object(killed);
                let (chests, found, left) = self.potions();
                v["chests_refilled"] = json!(chests);
                v["potions_found"] = json!(found);
                v["potions_left"] = json!(left);
                v["move_cap"] = json!(move_cap);
                v["max_unexplored"] = json!(explore.max_unexplored);
                v["branch_timer"] = json!(explore.branch_timer);
            }
        }
        v
    }

    /// The batch as a table; `move_cap` is the explorations' session.
    pub fn table(&self, setup: &RunSetup, explore: ExploreSettings, move_cap: u64) -> String {
        let mode = self.policy.mode();
        let games = self.games();
        let mut out = String::new();
        let what = match mode {
            GameMode::Runs => format!(
                "runs {}..={} ({} runs of {} floors, at most {} × {})",
                self.first, self.last, games, setup.floors, setup.width, setup.height
            ),
            GameMode::Explorations => format!(
                "explorations {}..={} ({} games, at most {} moves each; --max-unexplored {}, --branch-timer {})",
                self.first,
                self.last,
                games,
                move_cap,
                explore.max_unexplored,
                explore.branch_timer
            ),
        };
        out.push_str(&format!("policy {}: {what}\n\n", self.policy.name()));
        for &e in endings(mode) {
            let label = match e {
                Ending::Won => "won",
                Ending::OutOfMoves => "lost: out of moves",
                Ending::OutOfHealth => "lost: out of health",
                Ending::Banked => "banked",
                Ending::Stuck => "stopped: nothing to do",
                Ending::Capped => "still playing at the cap",
            };
            let n = self.count(e);
            out.push_str(&format!("{label:<26}{n:>7}  {:>6.1}%\n", percent(n, games)));
        }
        if mode == GameMode::Runs {
            let n = self.lost_exit_unseen();
            out.push_str(&format!(
                "{:<26}{n:>7}  {:>6.1}%\n",
                "lost, exit never seen",
                percent(n, games)
            ));
        }
        out.push('\n');
        let unit = match mode {
            GameMode::Runs => "floor reached",
            GameMode::Explorations => "deepest room",
        };
        out.push_str(&format!("{unit:<26}  games\n"));
        for (k, n) in self.reached() {
            let name = match mode {
                GameMode::Runs => format!("B{k}"),
                GameMode::Explorations => format!("depth {k}"),
            };
            out.push_str(&format!("{name:<26}{n:>7}  {:>6.1}%\n", percent(n, games)));
        }
        out.push_str(&format!(
            "\n{:<26}{:>7}{:>8}{:>8}{:>8}{:>8}\n",
            "", "min", "p10", "median", "p90", "max"
        ));
        let mut row = |name: &str, s: Option<Spread>| {
            let cells = s.map_or_else(
                || format!("{:>7}{:>8}{:>8}{:>8}{:>8}", "-", "-", "-", "-", "-"),
                |s| {
                    format!(
                        "{:>7}{:>8}{:>8}{:>8}{:>8}",
                        s.min, s.p10, s.median, s.p90, s.max
                    )
                },
            );
            out.push_str(&format!("{name:<26}{cells}\n"));
        };
        row("score", self.spread(|o| o.score, |_| true));
        match mode {
            GameMode::Runs => {
                row(
                    "score of the runs won",
                    self.spread(|o| o.score, |o| o.ending == Ending::Won),
                );
                row(
                    "perfect floors",
                    self.spread(|o| u64::from(o.perfect_floors), |_| true),
                );
            }
            GameMode::Explorations => {
                row(
                    "score banked",
                    self.spread(|o| o.score, |o| o.ending == Ending::Banked),
                );
                row("rooms made", self.spread(|o| o.extra, |_| true));
            }
        }
        row("moves", self.spread(|o| o.moves, |_| true));
        out.push_str(&format!(
            "\n{:<26}{:>10.1}\n",
            "mean score",
            self.mean_score()
        ));
        match mode {
            GameMode::Runs => {
                let medians = self.arrival_medians();
                if !medians.is_empty() {
                    out.push_str("\nmoves on arrival / par, median (arrivals)\n");
                    for (floor, median, n) in medians {
                        let name = format!("B{floor}");
                        out.push_str(&format!(
                            "{name:<26}{:>9.2} ×{:>7}\n",
                            median as f64 / 100.0,
                            n
                        ));
                    }
                }
            }
            GameMode::Explorations => {
                out.push_str(&format!(
                    "{:<26}{:>10.1}\n",
                    "mean banked score",
                    self.mean_banked()
                ));
                let n = self.lost_before(8);
                out.push_str(&format!(
                    "{:<26}{n:>7}  {:>6.1}%\n",
                    "lost before depth 8",
                    percent(n, self.games())
                ));
                let lost = self.count(Ending::OutOfHealth);
                out.push_str("\nlost to (the last heart)    games  of lost\n");
                for (kind, n) in self.killed_by() {
                    let name = kind.map_or("an armed trap", MonsterKind::name);
                    out.push_str(&format!("{name:<26}{n:>7}  {:>6.1}%\n", percent(n, lost)));
                }
                let (chests, found, left) = self.potions();
                out.push_str(&format!(
                    "\n{:<26}{chests:>7}\n{:<26}{found:>7}  {:>6.1}%\n{:<26}{left:>7}  {:>6.1}%\n",
                    "chests refilled",
                    "potions found and carried",
                    percent(found, chests),
                    "potions left behind",
                    percent(left, chests)
                ));
            }
        }
        out
    }
}

/// The mean of `values` (0 when there is none).
fn mean(values: impl Iterator<Item = u64>) -> f64 {
    let (sum, n) = values.fold((0u128, 0u64), |(s, n), v| (s + u128::from(v), n + 1));
    if n == 0 { 0.0 } else { sum as f64 / n as f64 }
}

/// `x` rounded to one decimal, as a JSON number.
fn round1(x: f64) -> Value {
    json!((x * 10.0).round() / 10.0)
}

/// `n` of `of` in percent (0 when `of` is 0).
pub fn percent(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        (n as f64 * 1000.0 / of as f64).round() / 10.0
    }
}

/// The policy named `name` for `mode`, or a usage error naming the policies there are.
pub fn policy_for(name: &str, mode: GameMode) -> Result<Policy, CliError> {
    let flag = match mode {
        GameMode::Runs => "--runs",
        GameMode::Explorations => "--explorations",
    };
    match Policy::from_name(name) {
        Some(p) if p.mode() == mode => Ok(p),
        Some(p) => Err(CliError::Usage(format!(
            "--policy {name} plays {}, not {}: with {flag} use one of {}",
            match p.mode() {
                GameMode::Runs => "runs (--runs)",
                GameMode::Explorations => "explorations (--explorations)",
            },
            match mode {
                GameMode::Runs => "runs",
                GameMode::Explorations => "explorations",
            },
            Policy::names_of(mode)
        ))),
        None if name.starts_with("bank:") => {
            let why = policy::cautious::BankRule::parse(name)
                .err()
                .unwrap_or_default();
            Err(CliError::Usage(format!("--policy: {why}")))
        }
        None => Err(CliError::Usage(format!(
            "--policy {name:?} is not a policy: with {flag} use one of {}",
            Policy::names_of(mode)
        ))),
    }
}
