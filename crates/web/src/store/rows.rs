//! The rows the server reads and writes: games, their key logs, scores and boards.

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::{Store, StoreError, now_unix};

/// A new game's row.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Its public id.
    pub id: String,
    /// The digest of the player's secret.
    pub secret_hash: String,
    /// The signed-in player, if any.
    pub account: Option<i64>,
    /// `daily`, `seeded`, `live` or `free`.
    pub board: String,
    /// The day of a daily game (`YYYY-MM-DD`, UTC).
    pub day: Option<String>,
    /// `classic`, `run` or `explore` (none yet for a game started at the menu).
    pub mode: Option<String>,
    /// The seed (none yet for a game started at the menu).
    pub seed: Option<u64>,
    /// The game options, canonical JSON.
    pub options: String,
    /// The ruleset.
    pub ruleset: String,
    /// The keys the server types to start it (`R42S`, or nothing at the menu).
    pub prefix: String,
}

/// A game's row as read back.
#[derive(Debug, Clone, Serialize)]
pub struct GameRow {
    /// Its public id.
    pub id: String,
    /// The digest of the player's secret.
    #[serde(skip)]
    pub secret_hash: String,
    /// The player's account id.
    #[serde(skip)]
    pub account: Option<i64>,
    /// The player's name.
    pub player: Option<String>,
    /// The board.
    pub board: String,
    /// The day of a daily game.
    pub day: Option<String>,
    /// The mode.
    pub mode: Option<String>,
    /// The seed.
    pub seed: Option<u64>,
    /// The options.
    #[serde(skip)]
    pub options: String,
    /// `open`, `left` (`:Q`), `finished`, or `damaged` (its key log lost batches: it
    /// cannot be resumed or scored).
    pub state: String,
    /// `playing`, `won` or `lost`.
    pub status: String,
    /// Points.
    pub score: Option<u64>,
    /// Steps.
    pub moves: u64,
    /// Unix seconds.
    pub updated: i64,
    /// What a damaged game's key log lost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<String>,
    /// What the server said of a finished game's score: where it went ("scored: 707 points
    /// on the seeded board") or why it was not recorded ("not scored: …").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scored: Option<String>,
}

/// A recorded score.
#[derive(Debug, Clone, Serialize)]
pub struct ScoreRow {
    /// The player's name.
    pub player: String,
    /// The mode.
    pub mode: String,
    /// The seed (hidden on the daily board until the day is over).
    pub seed: Option<u64>,
    /// The day of a daily score.
    pub day: Option<String>,
    /// `won` or `lost`.
    pub status: String,
    /// Points.
    pub score: u64,
    /// Steps.
    pub moves: u64,
    /// The keys (hidden with the seed).
    pub keys: Option<String>,
    /// The server's game, when it was played here.
    pub game: Option<String>,
    /// Unix seconds.
    pub created: i64,
}

/// A score to record.
#[derive(Debug, Clone)]
pub struct NewScore {
    /// The account.
    pub account: i64,
    /// The board.
    pub board: String,
    /// The mode.
    pub mode: String,
    /// The seed.
    pub seed: u64,
    /// The day (daily).
    pub day: Option<String>,
    /// The ruleset.
    pub ruleset: String,
    /// The options, canonical JSON.
    pub options: String,
    /// The canonical history.
    pub keys: String,
    /// Its hash.
    pub keys_hash: String,
    /// State hashes, comma-separated.
    pub state_hashes: String,
    /// `won` or `lost`.
    pub status: String,
    /// Points.
    pub score: u64,
    /// Steps.
    pub moves: u64,
    /// The server's game, if played here.
    pub game: Option<String>,
}

impl Store {
    /// Records a new game.
    ///
    /// # Errors
    /// When the database fails (a duplicate id or daily attempt: [`StoreError::is_duplicate`]).
    pub async fn create_game(&self, g: NewGame) -> Result<(), StoreError> {
        self.write(move |c| {
            let now = now_unix();
            c.execute(
                "INSERT INTO games(id, secret_hash, account, board, day, mode, seed, options,
                     ruleset, prefix, created, updated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
                params![
                    g.id,
                    g.secret_hash,
                    g.account,
                    g.board,
                    g.day,
                    g.mode,
                    g.seed.map(|s| s as i64),
                    g.options,
                    g.ruleset,
                    g.prefix,
                    now
                ],
            )?;
            Ok(0)
        })
        .await
        .map(|_| ())
    }

    /// A game's row.
    ///
    /// # Errors
    /// When the database fails.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        self.read(|c| {
            Ok(
                c.query_row(&format!("{GAME_SELECT} WHERE g.id = ?1"), [id], game_row)
                    .optional()?,
            )
        })
    }

    /// The daily game of `account` in `mode` on `day`, if it started one.
    ///
    /// # Errors
    /// When the database fails.
    pub fn daily_game(
        &self,
        account: i64,
        mode: &str,
        day: &str,
    ) -> Result<Option<GameRow>, StoreError> {
        self.read(|c| {
            Ok(c.query_row(
                &format!(
                    "{GAME_SELECT} WHERE g.board = 'daily' AND g.account = ?1 AND g.mode = ?2
                     AND g.day = ?3"
                ),
                params![account, mode, day],
                game_row,
            )
            .optional()?)
        })
    }

    /// The games of `account`, newest first (at most 50).
    ///
    /// # Errors
    /// When the database fails.
    pub fn games_of(&self, account: i64) -> Result<Vec<GameRow>, StoreError> {
        self.read(|c| {
            let mut st = c.prepare(&format!(
                "{GAME_SELECT} WHERE g.account = ?1 ORDER BY g.updated DESC LIMIT 50"
            ))?;
            let rows = st.query_map([account], game_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// A game's key log: its batches' keys in order, the last player batch number written,
    /// and the number of batches.
    ///
    /// # Errors
    /// [`StoreError::DamagedGame`] for a game whose log lost batches (it must not be
    /// replayed as another game); when the database fails.
    pub fn log(&self, id: &str) -> Result<(String, u64, u64), StoreError> {
        self.read(|c| {
            let damage: Option<String> = c
                .prepare_cached("SELECT damage FROM games WHERE id = ?1")?
                .query_row([id], |r| r.get(0))
                .optional()?
                .flatten();
            if let Some(why) = damage {
                return Err(StoreError::DamagedGame {
                    game: id.to_owned(),
                    why,
                });
            }
            let mut st =
                c.prepare_cached("SELECT seq, n, keys FROM batches WHERE game = ?1 ORDER BY seq")?;
            let mut log = String::new();
            let (mut acked, mut seqs) = (0u64, 0u64);
            let mut rows = st.query([id])?;
            while let Some(r) = rows.next()? {
                let seq: i64 = r.get(0)?;
                let n: Option<i64> = r.get(1)?;
                let keys: String = r.get(2)?;
                log.push_str(&keys);
                acked = acked.max(n.unwrap_or(0) as u64);
                seqs = seqs.max(seq as u64);
            }
            Ok((log, acked, seqs))
        })
    }

    /// Sets a game's mode and seed once its game started (a game begun at the menu).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn set_started(&self, id: String, mode: String, seed: u64) -> Result<(), StoreError> {
        self.write(move |c| {
            c.execute(
                "UPDATE games SET mode = ?2, seed = ?3 WHERE id = ?1",
                params![id, mode, seed as i64],
            )?;
            Ok(0)
        })
        .await
        .map(|_| ())
    }

    /// Records where a game stands: its state (`open`, `left`, `finished`), status, score
    /// and moves. A damaged game keeps its state.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn set_state(
        &self,
        id: String,
        state: &'static str,
        status: &'static str,
        score: Option<u64>,
        moves: u64,
    ) -> Result<(), StoreError> {
        self.write(move |c| {
            c.execute(
                "UPDATE games SET state = ?2, status = ?3, score = ?4, moves = ?5, updated = ?6
                 WHERE id = ?1 AND damage IS NULL",
                params![
                    id,
                    state,
                    status,
                    score.map(|s| s as i64),
                    moves as i64,
                    now_unix()
                ],
            )?;
            Ok(0)
        })
        .await
        .map(|_| ())
    }

    /// Records what the server said of game `id`'s score ([`GameRow::scored`]).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn set_scored(&self, id: String, said: String) -> Result<(), StoreError> {
        self.write(move |c| {
            c.execute(
                "UPDATE games SET scored = ?2 WHERE id = ?1",
                params![id, said],
            )?;
            Ok(0)
        })
        .await
        .map(|_| ())
    }

    /// Records a verified score; a duplicate (the same account's on the same board, with
    /// the same ruleset, options and history) is refused with a UNIQUE error
    /// ([`StoreError::is_duplicate`]).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn add_score(&self, s: NewScore) -> Result<i64, StoreError> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO scores(account, board, mode, seed, day, ruleset, options, keys,
                     keys_hash, state_hashes, status, score, moves, game, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    s.account,
                    s.board,
                    s.mode,
                    s.seed as i64,
                    s.day,
                    s.ruleset,
                    s.options,
                    s.keys,
                    s.keys_hash,
                    s.state_hashes,
                    s.status,
                    s.score as i64,
                    s.moves as i64,
                    s.game,
                    now_unix()
                ],
            )?;
            Ok(c.last_insert_rowid())
        })
        .await
    }

    /// A board: the best 100 scores of `board` in `mode` (the daily board of `day`), best
    /// first: by score, then fewer moves (a classic game: won games by fewer moves).
    ///
    /// # Errors
    /// When the database fails.
    pub fn board(
        &self,
        board: &str,
        mode: &str,
        day: Option<&str>,
    ) -> Result<Vec<ScoreRow>, StoreError> {
        self.read(|c| {
            let order = if mode == "classic" {
                "s.status = 'won' DESC, s.moves ASC, s.created ASC"
            } else {
                "s.score DESC, s.moves ASC, s.created ASC"
            };
            let mut st = c.prepare(&format!(
                "SELECT a.name, s.mode, s.seed, s.day, s.status, s.score, s.moves, s.keys,
                        s.game, s.created
                 FROM scores s JOIN accounts a ON a.id = s.account
                 WHERE s.board = ?1 AND s.mode = ?2 AND (?3 IS NULL OR s.day = ?3)
                 ORDER BY {order} LIMIT 100"
            ))?;
            let rows = st.query_map(params![board, mode, day], |r| {
                Ok(ScoreRow {
                    player: r.get(0)?,
                    mode: r.get(1)?,
                    seed: Some(r.get::<_, i64>(2)? as u64),
                    day: r.get(3)?,
                    status: r.get(4)?,
                    score: r.get::<_, i64>(5)? as u64,
                    moves: r.get::<_, i64>(6)? as u64,
                    keys: Some(r.get(7)?),
                    game: r.get(8)?,
                    created: r.get(9)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }
}

const GAME_SELECT: &str = "SELECT g.id, g.secret_hash, g.account, a.name, g.board, g.day,
    g.mode, g.seed, g.options, g.state, g.status, g.score, g.moves, g.updated, g.damage,
    g.scored FROM games g LEFT JOIN accounts a ON a.id = g.account";

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        secret_hash: r.get(1)?,
        account: r.get(2)?,
        player: r.get(3)?,
        board: r.get(4)?,
        day: r.get(5)?,
        mode: r.get(6)?,
        seed: r.get::<_, Option<i64>>(7)?.map(|s| s as u64),
        options: r.get(8)?,
        state: r.get(9)?,
        status: r.get(10)?,
        score: r.get::<_, Option<i64>>(11)?.map(|s| s as u64),
        moves: r.get::<_, i64>(12)? as u64,
        updated: r.get(13)?,
        damage: r.get(14)?,
        scored: r.get(15)?,
    })
}
