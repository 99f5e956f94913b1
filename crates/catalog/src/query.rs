//! Reading a seed catalog back (`byog catalog`): seeds by metric ranges.
//!
//! A filter is a small grammar, parsed here and never handed to SQLite as text:
//!
//! ```text
//! filter := all ("or" all)*
//! all    := test ("and" test)*          ("and" binds tighter than "or")
//! test   := "(" filter ")" | NAME OP NUMBER
//! OP     := "<" | "<=" | ">" | ">=" | "=" | "==" | "!="
//! NAME   := a metric column (every name of `byog stats`), "seed", "tries" or "tried"
//! NUMBER := an optional "-", digits, an optional "." and digits
//! ```
//!
//! Keywords are case-insensitive. Each test becomes `column OP ?` with the column's SQL taken
//! from a fixed list of known names and the number bound as a parameter, so no user text
//! reaches SQL. A test on an undefined value (an unreachable exit's distance: NULL) is false.

use std::fmt;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::metric_columns;

/// Most tests one filter holds.
pub const MAX_TESTS: usize = 64;
/// Deepest nesting of parentheses.
pub const MAX_DEPTH: usize = 16;

/// A comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `=` or `==`
    Eq,
    /// `!=`
    Ne,
}

impl Cmp {
    fn sql(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "=",
            Cmp::Ne => "!=",
        }
    }

    /// Whether `a OP b`.
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }
}

/// A parsed `--where` filter.
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    /// `NAME OP NUMBER`.
    Test {
        /// The name, one of [`names`].
        name: &'static str,
        /// The comparison.
        cmp: Cmp,
        /// The number.
        value: f64,
    },
    /// Every one holds.
    And(Vec<Filter>),
    /// At least one holds.
    Or(Vec<Filter>),
}

/// The names a filter may test besides the metric columns: the seed, `tries` (the passing
/// try, 1-based, as `byog stats` counts it) and `tried` (tries remembered).
pub const OTHER_NAMES: [&str; 3] = ["seed", "tries", "tried"];

/// Every name a filter may test: [`OTHER_NAMES`] then the metric columns.
pub fn names() -> impl Iterator<Item = &'static str> {
    OTHER_NAMES.into_iter().chain(metric_columns())
}

/// A name's SQL (from this fixed list only).
fn column_sql(name: &str) -> String {
    match name {
        "seed" => "s.seed".into(),
        "tries" => "(s.passed_try + 1)".into(),
        "tried" => "s.tried".into(),
        metric => format!("s.\"{metric}\""),
    }
}

/// Why a filter was refused: the token, where it starts (0-based, in characters) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhereError {
    /// The bad token as written ("" at the end of the text).
    pub token: String,
    /// Its first character's position, 0-based.
    pub at: usize,
    /// Why, e.g. "is not a metric".
    pub why: String,
}

impl fmt::Display for WhereError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.token.is_empty() {
            write!(f, "the filter is incomplete: {}", self.why)
        } else {
            write!(
                f,
                "'{}' (at character {}) {}",
                self.token,
                self.at + 1,
                self.why
            )
        }
    }
}

impl std::error::Error for WhereError {}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String),
    Num(f64),
    Op(Cmp),
    Open,
    Close,
}

/// Splits `text` into tokens with their positions (in characters) and texts.
fn lex(text: &str) -> Result<Vec<(Tok, usize, String)>, WhereError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            Tok::Name(chars[start..i].iter().collect())
        } else if c.is_ascii_digit() || c == '-' || c == '.' {
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let ok = {
                let digits = word.strip_prefix('-').unwrap_or(&word);
                let (whole, frac) = digits.split_once('.').unwrap_or((digits, "0"));
                !whole.is_empty()
                    && !frac.is_empty()
                    && whole.bytes().all(|b| b.is_ascii_digit())
                    && frac.bytes().all(|b| b.is_ascii_digit())
            };
            match word.parse::<f64>() {
                Ok(v) if ok && v.is_finite() => Tok::Num(v),
                _ => {
                    return Err(WhereError {
                        token: word,
                        at: start,
                        why: "is not a number (write e.g. 8, -1 or 42.5)".into(),
                    });
                }
            }
        } else if c == '(' {
            i += 1;
            Tok::Open
        } else if c == ')' {
            i += 1;
            Tok::Close
        } else if matches!(c, '<' | '>' | '=' | '!') {
            // A run of comparison characters is one token, so "=>" is refused whole.
            while i < chars.len() && matches!(chars[i], '<' | '>' | '=' | '!') {
                i += 1;
            }
            match chars[start..i].iter().collect::<String>().as_str() {
                "<" => Tok::Op(Cmp::Lt),
                "<=" => Tok::Op(Cmp::Le),
                ">" => Tok::Op(Cmp::Gt),
                ">=" => Tok::Op(Cmp::Ge),
                "=" | "==" => Tok::Op(Cmp::Eq),
                "!=" => Tok::Op(Cmp::Ne),
                other => {
                    return Err(WhereError {
                        token: other.into(),
                        at: start,
                        why: "is not a comparison (use <, <=, >, >=, = or !=)".into(),
                    });
                }
            }
        } else {
            return Err(WhereError {
                token: c.to_string(),
                at: start,
                why: "is not part of a filter (write e.g. 'room_count >= 8 and loops <= 2')".into(),
            });
        };
        out.push((tok, start, chars[start..i].iter().collect()));
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize, String)>,
    pos: usize,
    tests: usize,
    end: usize,
}

impl Parser {
    /// "'tok' (at character n) is where `what` belongs", or "`what` is missing at the end".
    fn expected(&self, what: &str) -> WhereError {
        match self.toks.get(self.pos) {
            Some(_) => self.err_here(format!("is where {what} belongs")),
            None => self.err_here(format!("{what} is missing at the end")),
        }
    }

    fn err_here(&self, why: impl Into<String>) -> WhereError {
        match self.toks.get(self.pos) {
            Some((_, at, text)) => WhereError {
                token: text.clone(),
                at: *at,
                why: why.into(),
            },
            None => WhereError {
                token: String::new(),
                at: self.end,
                why: why.into(),
            },
        }
    }

    fn keyword(&self, word: &str) -> bool {
        matches!(self.toks.get(self.pos), Some((Tok::Name(n), _, _)) if n.eq_ignore_ascii_case(word))
    }

    fn any(&mut self, depth: usize) -> Result<Filter, WhereError> {
        let mut parts = vec![self.all(depth)?];
        while self.keyword("or") {
            self.pos += 1;
            parts.push(self.all(depth)?);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Filter::Or(parts)
        })
    }

    fn all(&mut self, depth: usize) -> Result<Filter, WhereError> {
        let mut parts = vec![self.test(depth)?];
        while self.keyword("and") {
            self.pos += 1;
            parts.push(self.test(depth)?);
        }
        Ok(if parts.len() == 1 {
            parts.remove(0)
        } else {
            Filter::And(parts)
        })
    }

    fn test(&mut self, depth: usize) -> Result<Filter, WhereError> {
        match self.toks.get(self.pos).map(|t| t.0.clone()) {
            Some(Tok::Open) => {
                if depth >= MAX_DEPTH {
                    return Err(self.err_here(format!("nests parentheses deeper than {MAX_DEPTH}")));
                }
                self.pos += 1;
                let inner = self.any(depth + 1)?;
                if !matches!(self.toks.get(self.pos), Some((Tok::Close, _, _))) {
                    return Err(self.expected("a ')'"));
                }
                self.pos += 1;
                Ok(inner)
            }
            Some(Tok::Name(n)) => {
                let Some(name) = names().find(|k| k.eq_ignore_ascii_case(&n)) else {
                    let list: Vec<&str> = names().collect();
                    return Err(self.err_here(format!(
                        "is not a metric; the names are: {}",
                        list.join(", ")
                    )));
                };
                self.tests += 1;
                if self.tests > MAX_TESTS {
                    return Err(self.err_here(format!("is one test more than {MAX_TESTS}")));
                }
                self.pos += 1;
                let Some((Tok::Op(cmp), _, _)) = self.toks.get(self.pos).cloned() else {
                    return Err(self.expected(&format!(
                        "a comparison (<, <=, >, >=, =, !=) after '{name}'"
                    )));
                };
                self.pos += 1;
                let Some((Tok::Num(value), _, _)) = self.toks.get(self.pos).cloned() else {
                    return Err(self.expected(&format!("a number after '{name} {}'", cmp.sql())));
                };
                self.pos += 1;
                Ok(Filter::Test { name, cmp, value })
            }
            _ => Err(self.expected("a metric name (e.g. room_count)")),
        }
    }
}

/// Parses a `--where` filter.
///
/// # Errors
/// [`WhereError`] naming the first bad token: an unknown name, a missing comparison or
/// number, a stray word, an unclosed parenthesis, an empty filter.
pub fn parse(text: &str) -> Result<Filter, WhereError> {
    let toks = lex(text)?;
    let mut p = Parser {
        toks,
        pos: 0,
        tests: 0,
        end: text.chars().count(),
    };
    let f = p.any(0)?;
    if p.pos < p.toks.len() {
        return Err(p.err_here("comes after a complete filter (join tests with 'and' or 'or')"));
    }
    Ok(f)
}

impl Filter {
    /// The SQL condition, with `?` for each number, pushed onto `binds` in order.
    fn sql(&self, binds: &mut Vec<f64>) -> String {
        match self {
            Filter::Test { name, cmp, value } => {
                binds.push(*value);
                format!("{} {} ?", column_sql(name), cmp.sql())
            }
            Filter::And(parts) | Filter::Or(parts) => {
                let join = if matches!(self, Filter::And(_)) {
                    " AND "
                } else {
                    " OR "
                };
                let inner: Vec<String> = parts.iter().map(|p| p.sql(binds)).collect();
                format!("({})", inner.join(join))
            }
        }
    }

    /// The names it tests, in order, each once.
    pub fn names(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<&'static str>) {
        match self {
            Filter::Test { name, .. } => {
                if !out.contains(name) {
                    out.push(name);
                }
            }
            Filter::And(parts) | Filter::Or(parts) => parts.iter().for_each(|p| p.collect(out)),
        }
    }
}

/// Which rows a query returns.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// The `--where` filter.
    pub filter: Option<Filter>,
    /// Only this generator version (`None`: every version).
    pub generator_version: Option<u32>,
    /// Only this parameter set: width, height and [`super::parameter_set`] text.
    pub params: Option<(usize, usize, String)>,
    /// At most this many rows.
    pub limit: Option<u64>,
}

/// One remembered seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The seed.
    pub seed: u64,
    /// Its parameter set's id (`params.id`).
    pub params: i64,
    /// The generator version that made it.
    pub generator_version: i64,
    /// World width, tiles.
    pub width: i64,
    /// World height, tiles.
    pub height: i64,
    /// The parameter set's settings, as JSON text.
    pub settings: String,
    /// Tries remembered.
    pub tried: i64,
    /// The passing try, 0-based (`None`: none of `tried` met the requirements).
    pub passed_try: Option<i64>,
    /// The passing world's hash, 16 hex digits.
    pub hash: Option<String>,
    /// Each metric column present in the file and its value (INTEGER, REAL or NULL).
    pub metrics: Vec<(&'static str, Value)>,
    /// The failed tries: number, requirements missed (comma separated), in words.
    pub failed: Vec<(i64, String, String)>,
}

/// Why a query could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The filter names a metric the file has no column for.
    #[error(
        "the catalog has no column {0} (it was written before that metric existed; generate \
         with --catalog again to add it)"
    )]
    MissingColumn(String),
    /// SQLite failed.
    #[error("{0}")]
    Sqlite(String),
}

/// Runs `query` on an open catalog whose `missing` metric columns are absent
/// ([`super::open_existing`]), in order of parameter set, then seed.
///
/// # Errors
/// [`QueryError`].
pub fn select(
    conn: &Connection,
    missing: &[&'static str],
    query: &Query,
) -> Result<Vec<Row>, QueryError> {
    let sqlite = |e: rusqlite::Error| QueryError::Sqlite(super::describe(&e));
    if let Some(f) = &query.filter
        && let Some(m) = f.names().into_iter().find(|n| missing.contains(n))
    {
        return Err(QueryError::MissingColumn(m.into()));
    }
    let present: Vec<&'static str> = metric_columns().filter(|m| !missing.contains(m)).collect();
    let mut sql = String::from(
        "SELECT s.seed, s.params, p.generator_version, p.width, p.height, p.settings, s.tried, \
         s.passed_try, s.hash",
    );
    for m in &present {
        sql.push_str(&format!(", s.\"{m}\""));
    }
    sql.push_str(" FROM seeds s JOIN params p ON p.id = s.params WHERE 1");
    let mut binds: Vec<Value> = Vec::new();
    if let Some(v) = query.generator_version {
        sql.push_str(" AND p.generator_version = ?");
        binds.push(Value::Integer(i64::from(v)));
    }
    if let Some((w, h, settings)) = &query.params {
        sql.push_str(" AND p.width = ? AND p.height = ? AND p.settings = ?");
        binds.push(Value::Integer(*w as i64));
        binds.push(Value::Integer(*h as i64));
        binds.push(Value::Text(settings.clone()));
    }
    if let Some(f) = &query.filter {
        let mut numbers = Vec::new();
        sql.push_str(&format!(" AND {}", f.sql(&mut numbers)));
        binds.extend(numbers.into_iter().map(Value::Real));
    }
    sql.push_str(" ORDER BY s.params, s.seed");
    if let Some(n) = query.limit {
        sql.push_str(" LIMIT ?");
        binds.push(Value::Integer(i64::try_from(n).unwrap_or(i64::MAX)));
    }
    let mut st = conn.prepare(&sql).map_err(sqlite)?;
    let mut tries = conn
        .prepare(
            "SELECT try, missed, detail FROM failed_tries WHERE params = ?1 AND seed = ?2 \
             ORDER BY try",
        )
        .map_err(sqlite)?;
    let mut rows = st
        .query(rusqlite::params_from_iter(binds))
        .map_err(sqlite)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(sqlite)? {
        let seed: i64 = r.get(0).map_err(sqlite)?;
        let params: i64 = r.get(1).map_err(sqlite)?;
        let metrics = present
            .iter()
            .enumerate()
            .map(|(i, m)| Ok((*m, r.get::<_, Value>(9 + i)?)))
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(sqlite)?;
        let failed = tries
            .query_map(rusqlite::params![params, seed], |t| {
                Ok((t.get(0)?, t.get(1)?, t.get(2)?))
            })
            .and_then(|it| it.collect::<rusqlite::Result<Vec<_>>>())
            .map_err(sqlite)?;
        out.push(Row {
            seed: seed as u64,
            params,
            generator_version: r.get(2).map_err(sqlite)?,
            width: r.get(3).map_err(sqlite)?,
            height: r.get(4).map_err(sqlite)?,
            settings: r.get(5).map_err(sqlite)?,
            tried: r.get(6).map_err(sqlite)?,
            passed_try: r.get(7).map_err(sqlite)?,
            hash: r.get(8).map_err(sqlite)?,
            metrics,
            failed,
        });
    }
    Ok(out)
}

/// One parameter set of a catalog and how many seeds it remembers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Set {
    /// `params.id`.
    pub id: i64,
    /// The generator version.
    pub generator_version: i64,
    /// World width, tiles.
    pub width: i64,
    /// World height, tiles.
    pub height: i64,
    /// The settings, JSON text.
    pub settings: String,
    /// Seeds remembered.
    pub seeds: i64,
    /// Of which a try met the requirements.
    pub passed: i64,
    /// Failed tries remembered.
    pub failed_tries: i64,
}

/// Every parameter set of a catalog, by id.
///
/// # Errors
/// [`QueryError::Sqlite`].
pub fn sets(conn: &Connection) -> Result<Vec<Set>, QueryError> {
    let sqlite = |e: rusqlite::Error| QueryError::Sqlite(super::describe(&e));
    let mut st = conn
        .prepare(
            "SELECT p.id, p.generator_version, p.width, p.height, p.settings,
                (SELECT count(*) FROM seeds s WHERE s.params = p.id),
                (SELECT count(*) FROM seeds s WHERE s.params = p.id AND s.passed_try IS NOT NULL),
                (SELECT count(*) FROM failed_tries f WHERE f.params = p.id)
             FROM params p ORDER BY p.id",
        )
        .map_err(sqlite)?;
    st.query_map([], |r| {
        Ok(Set {
            id: r.get(0)?,
            generator_version: r.get(1)?,
            width: r.get(2)?,
            height: r.get(3)?,
            settings: r.get(4)?,
            seeds: r.get(5)?,
            passed: r.get(6)?,
            failed_tries: r.get(7)?,
        })
    })
    .and_then(|it| it.collect())
    .map_err(sqlite)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(name: &'static str, cmp: Cmp, value: f64) -> Filter {
        Filter::Test { name, cmp, value }
    }

    #[test]
    fn and_binds_tighter_than_or() {
        let f = parse("room_count >= 8 and loops <= 1 OR seed = 3").unwrap();
        assert_eq!(
            f,
            Filter::Or(vec![
                Filter::And(vec![
                    test("room_count", Cmp::Ge, 8.0),
                    test("loops", Cmp::Le, 1.0)
                ]),
                test("seed", Cmp::Eq, 3.0),
            ])
        );
        let mut binds = Vec::new();
        assert_eq!(
            f.sql(&mut binds),
            "((s.\"room_count\" >= ? AND s.\"loops\" <= ?) OR s.seed = ?)"
        );
        assert_eq!(binds, vec![8.0, 1.0, 3.0]);
    }

    #[test]
    fn parentheses_group() {
        let f = parse("(tries > 1 or loops!=0) and openness_percent<40.5").unwrap();
        assert_eq!(
            f,
            Filter::And(vec![
                Filter::Or(vec![
                    test("tries", Cmp::Gt, 1.0),
                    test("loops", Cmp::Ne, 0.0)
                ]),
                test("openness_percent", Cmp::Lt, 40.5),
            ])
        );
    }

    #[test]
    fn bad_filters_name_their_token() {
        for (text, token) in [
            ("critcal_path >= 8", "critcal_path"),
            ("room_count >= eight", "eight"),
            ("room_count => 8", "=>"),
            ("room_count >= 8 and", ""),
            ("room_count >= 8 loops <= 1", "loops"),
            ("room_count; DROP TABLE seeds", ";"),
            ("(room_count >= 8", ""),
            ("room_count >= 1e9", "1e9"),
            ("room_count >= 8)", ")"),
            ("", ""),
            ("room_count 8", "8"),
            ("seed = --1", "-"),
        ] {
            let e = parse(text).expect_err(text);
            assert_eq!(e.token, token, "{text}: {e}");
        }
        let deep = format!("{}seed = 1{}", "(".repeat(40), ")".repeat(40));
        assert!(parse(&deep).unwrap_err().why.contains("deeper"));
        let many = vec!["seed = 1"; MAX_TESTS + 1].join(" or ");
        assert!(parse(&many).unwrap_err().why.contains("one test more"));
    }
}
