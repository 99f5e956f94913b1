//! `byog agent` and `byog_players::agent` (docs/agent.md): one process fed lines of keys answers each
//! with exactly what `byog replay --format json --view sight` prints for the keys so far; bad
//! lines get an error object and change nothing; the observation never shows a tile the
//! avatar has not seen; the in-process API answers as the process does.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use byog_game::GameState;
use byog_players::agent::{Agent, AgentOptions};
use byog_worlds::generator::GeneratorSettings;
use common::{byog_in, keys_to_exit, stderr, stdout};
use serde_json::Value;

/// One `byog agent` process, driven a line at a time.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    /// `byog agent --save-dir DIR ARGS`.
    fn start(dir: &Path, args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_byog"))
            .arg("agent")
            .args(args)
            .arg("--save-dir")
            .arg(dir)
            .env_remove("BYOG_SAVE_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session {
            child,
            stdin,
            stdout,
        }
    }

    /// Writes `bytes` and a line break, and reads the one line that answers it (without its
    /// line break).
    fn send_bytes(&mut self, bytes: &[u8]) -> String {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).unwrap();
        assert!(answer.ends_with('\n'), "one whole line answers: {answer:?}");
        answer.pop();
        answer
    }

    fn send(&mut self, line: &str) -> String {
        self.send_bytes(line.as_bytes())
    }

    /// Closes standard input: the session ends with exit 0 and says nothing more.
    fn finish(mut self) {
        drop(self.stdin.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        let out = self.child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(rest, "", "nothing after the last answer");
        assert_eq!(stderr(&out), "", "nothing on stderr");
    }
}

/// `byog replay --format json --view sight KEYS`, without its line break.
fn replay_sight(dir: &Path, keys: &str) -> String {
    let out = byog_in(
        dir,
        &["replay", "--format", "json", "--view", "sight", keys],
    );
    assert_eq!(out.status.code(), Some(0), "{keys}: {}", stderr(&out));
    stdout(&out).trim_end_matches('\n').to_owned()
}

/// `byog replay --format json KEYS`: the whole state.
fn replay_full(dir: &Path, keys: &str) -> Value {
    let out = byog_in(dir, &["replay", "--format", "json", keys]);
    assert_eq!(out.status.code(), Some(0), "{keys}: {}", stderr(&out));
    serde_json::from_str(stdout(&out).trim_end()).unwrap()
}

/// A line as a JSON string.
fn quoted(keys: &str) -> String {
    Value::from(keys).to_string()
}

/// `{"reset": KEYS}`.
fn reset(keys: &str) -> String {
    serde_json::json!({ "reset": keys }).to_string()
}

/// A small deterministic generator (xorshift64*), so every walk is the same each run.
struct Walk(u64);

impl Walk {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
    }

    /// One to three movement keys.
    fn keys(&mut self) -> String {
        let n = 1 + self.below(3);
        (0..n)
            .map(|_| ['W', 'A', 'S', 'D'][self.below(4) as usize])
            .collect()
    }
}

/// Whether `line` is an error object, with its message.
fn error_of(line: &str) -> Option<String> {
    let v: Value = serde_json::from_str(line).expect("every answer is JSON");
    v.get("error").map(|e| e.as_str().unwrap().to_owned())
}

/// An answer is one JSON object whose keys are in alphabetical order (as serde_json's maps
/// print them), so reprinting it gives the same bytes.
fn assert_canonical(line: &str) {
    let v: Value = serde_json::from_str(line).unwrap();
    assert!(v.is_object(), "{line}");
    assert_eq!(v.to_string(), line, "keys in alphabetical order, compact");
}

/// The fields an observation shares with the full state (`replay --json`) are the same, its
/// `rows` are the full state's `seen`, and it has no field the mode does not show.
fn assert_agrees_with_the_full_state(sight: &Value, full: &Value) {
    let shared: &[&str] = match full["mode"].as_str().unwrap() {
        "classic" => &[],
        "run" => &[
            "floor",
            "floors",
            "health",
            "score",
            "moves_left",
            "perfect_floors",
            "loss",
        ],
        "explore" => &[
            "health",
            "score",
            "branch",
            "room",
            "depth",
            "origin",
            "end",
            "forfeited",
            "potions",
            "killed_by",
        ],
        mode => panic!("{mode}"),
    };
    let common = [
        "avatar", "height", "mode", "moves", "seed", "status", "width",
    ];
    for key in common.iter().chain(shared) {
        assert_eq!(sight[key], full[key], "{key}");
    }
    assert_eq!(sight["rows"], full["seen"]);
    // A run's HUD totals (`chests 2/4 · traps 1/2`): every chest and trap of the floor,
    // seen or not, so never fewer than the features seen.
    let totals: &[&str] = if full["mode"] == "run" {
        &["chests_total", "traps_total"]
    } else {
        &[]
    };
    for (key, kind) in totals.iter().zip(["chest", "trap"]) {
        let all = full["features"].as_array().unwrap();
        let count = all.iter().filter(|f| f["kind"] == kind).count() as u64;
        assert_eq!(sight[key].as_u64(), Some(count), "{key}");
    }
    // What a chest and a trap pay (`chests 2/4 (+23) · traps 1/2 (+23)`): the same since
    // rules version 4, and the features pay at most the floor's allowance in all.
    if full["mode"] == "run" {
        let (chest, trap) = (
            sight["chest_moves"].as_u64().unwrap(),
            sight["trap_moves"].as_u64().unwrap(),
        );
        assert_eq!(chest, trap, "{sight}");
        let (chests, traps) = (
            sight["chests_total"].as_u64().unwrap(),
            sight["traps_total"].as_u64().unwrap(),
        );
        assert!(
            chests * chest + traps * trap <= full["allowance"].as_u64().unwrap(),
            "{sight}"
        );
    }
    // Those, and `rows`, `exit` and `features` (and an exploration's monsters in sight, each
    // one of the full state's): nothing else.
    // A run's `chest_moves` and `trap_moves` (the HUD's `(+23)`), checked below.
    let mut extra = if full["mode"] == "run" { 5 } else { 3 };
    if let Some(seen) = sight["monsters"].as_array() {
        extra += 1;
        let all = full["monsters"].as_array().unwrap();
        for m in seen {
            assert!(all.contains(m), "{m} is not in the full state");
        }
    }
    let fields = sight.as_object().unwrap().len();
    assert_eq!(
        fields,
        common.len() + shared.len() + totals.len() + extra,
        "{sight}"
    );
    assert!(sight["features"].is_array());
    assert!(sight["exit"].is_null() || sight["exit"] == full["exit"]);
}

#[test]
fn agent_answers_what_replay_prints_over_random_walks_in_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = Session::start(dir.path(), &[]);
    let mut walk = Walk(0x9E37_79B9_7F4A_7C15);
    let mut compared = 0;
    let mut refused = 0;
    let mut ended = 0;
    for start in ["N7S", "R42S", "E3S"] {
        let mut played = start.to_owned();
        // The game starts with a reset, then is played line by line.
        let first = session.send(&reset(start));
        assert_eq!(first, replay_sight(dir.path(), &played), "{start}");
        for i in 0..50 {
            let keys = match i % 10 {
                // An observation without keys.
                3 => String::new(),
                // A line with a key that means nothing: refused whole.
                7 => {
                    let mut k = walk.keys();
                    k.insert(walk.below(k.len() as u64 + 1) as usize, 'Z');
                    k
                }
                _ => walk.keys(),
            };
            let answer = session.send(&quoted(&keys));
            assert_canonical(&answer);
            if let Some(e) = error_of(&answer) {
                assert!(
                    keys.contains('Z'),
                    "only bad lines are refused: {keys}: {e}"
                );
                assert!(e.contains("'Z'"), "{e}");
                refused += 1;
            } else {
                assert!(!keys.contains('Z'), "{keys}");
                played.push_str(&keys);
                assert_eq!(answer, replay_sight(dir.path(), &played), "{played}");
                compared += 1;
                let v: Value = serde_json::from_str(&answer).unwrap();
                assert_agrees_with_the_full_state(&v, &replay_full(dir.path(), &played));
                if v["status"] != "playing" {
                    // Ended (an exploration banked at its way up): moves are refused now,
                    // and the walk goes on in a new game.
                    let e = error_of(&session.send(r#""W""#)).unwrap();
                    assert!(e.contains("the game is over"), "{e}");
                    ended += 1;
                    played = start.to_owned();
                    assert_eq!(session.send(&reset(start)), replay_sight(dir.path(), start));
                }
            }
        }
    }
    // A run played down its floors in chunks of the solver's route.
    let route = stdout(&byog_in(dir.path(), &["solve", "R42S"]));
    let route = route.trim();
    let mut played = "R42S".to_owned();
    assert_eq!(
        session.send(&reset("R42S")),
        replay_sight(dir.path(), &played)
    );
    let mut rest = route;
    let mut floors = Vec::new();
    while !rest.is_empty() && floors.iter().filter(|&&f| f >= 3).count() < 3 {
        let n = (1 + walk.below(6) as usize).min(rest.len());
        let (keys, after) = rest.split_at(n);
        rest = after;
        played.push_str(keys);
        let answer = session.send(&quoted(keys));
        assert_eq!(answer, replay_sight(dir.path(), &played), "{played}");
        let v: Value = serde_json::from_str(&answer).unwrap();
        floors.push(v["floor"].as_u64().unwrap());
        compared += 1;
    }
    assert!(floors.contains(&2) && floors.contains(&3), "{floors:?}");
    session.finish();
    assert!(
        compared > 150 && refused >= 10,
        "{compared} compared, {refused} refused, {ended} ended"
    );
}

#[test]
fn bad_lines_get_an_error_and_the_session_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start(dir.path(), &[]);
    let expect_error = |answer: &str, says: &str| {
        assert_canonical(answer);
        let e = error_of(answer).unwrap_or_else(|| panic!("an error object: {answer}"));
        assert!(e.contains(says), "{e:?} should say {says:?}");
        let v: Value = serde_json::from_str(answer).unwrap();
        assert_eq!(v.as_object().unwrap().len(), 1, "only the error: {answer}");
    };
    // Before any game: the menu, as replay prints it.
    assert_eq!(s.send(r#""""#), replay_sight(dir.path(), "Q"));
    assert_eq!(s.send(&reset("N42S")), replay_sight(dir.path(), "N42S"));
    // A refused key undoes the keys before it on its line.
    expect_error(&s.send(r#""DZD""#), "key 'Z' at position 1");
    assert_eq!(s.send(r#""D""#), replay_sight(dir.path(), "N42SD"));
    for (line, says) in [
        ("WASD", r#"quote them: "WASD""#),
        ("", "an empty line"),
        ("   ", "an empty line"),
        ("42", "a number is not a request"),
        ("[\"W\"]", "an array is not a request"),
        ("null", "null is not a request"),
        (r#"{"reset":"N1S","keys":"W"}"#, r#"unknown field "keys""#),
        (r#"{"keys":"W"}"#, r#"unknown field "keys""#),
        (r#"{"reset":5}"#, "takes a string of keys"),
        ("{}", "an empty object"),
        (r#""W"#, "not JSON"),
        (r#""WW:Q""#, "never saves"),
        (r#""W:""#, "ends with a ':'"),
        (r#""W:D""#, "key ':' at position 1"),
        (r#""\u0007""#, "U+0007"),
    ] {
        expect_error(&s.send(line), says);
        // The game is where it was.
        assert_eq!(
            s.send(r#""""#),
            replay_sight(dir.path(), "N42SD"),
            "after {line}"
        );
    }
    expect_error(&s.send_bytes(b"\"W\xff\""), "not UTF-8");
    // A reset whose keys are refused keeps the game; `L` with no save is refused.
    expect_error(&s.send(&reset("N1SZ")), "'Z'");
    expect_error(&s.send(&reset("L")), "no save");
    assert_eq!(s.send(r#""W""#), replay_sight(dir.path(), "N42SDW"));
    // Keys may stop in seed entry and go on on the next line.
    assert_eq!(s.send(&reset("N4")), replay_sight(dir.path(), "N4"));
    assert_eq!(s.send(r#""2S""#), replay_sight(dir.path(), "N42S"));
    // A move after the end of a game is refused on its own line; after the winning step on
    // the same line it is left unplayed (below, `keys_past_the_end_are_left_unplayed`).
    let game = GameState::new(42, 80, 30, GeneratorSettings::default()).unwrap();
    let path = keys_to_exit(&game);
    let won = s.send(&quoted(&path));
    assert_eq!(won, replay_sight(dir.path(), &format!("N42S{path}")));
    assert_eq!(
        serde_json::from_str::<Value>(&won).unwrap()["status"],
        "won"
    );
    expect_error(&s.send(r#""D""#), "the game is over");
    assert_eq!(s.send(r#""""#), won);
    // An ended game still takes N: a new game, through seed entry.
    assert_eq!(
        s.send(r#""N5S""#),
        replay_sight(dir.path(), &format!("N42S{path}N5S"))
    );
    s.finish();
    // The agent never wrote a save.
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}

#[test]
fn the_agent_loads_the_save_folders_game_and_the_end_of_input_ends_it() {
    let dir = tempfile::tempdir().unwrap();
    let saved = byog_in(dir.path(), &["replay", "R9SDD:Q"]);
    assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    let before = std::fs::read(dir.path().join("save.bin")).unwrap();
    let mut s = Session::start(dir.path(), &[]);
    assert_eq!(s.send(&reset("L")), replay_sight(dir.path(), "L"));
    assert_eq!(s.send(r#""W""#), replay_sight(dir.path(), "LW"));
    s.finish();
    assert_eq!(std::fs::read(dir.path().join("save.bin")).unwrap(), before);
    // No line at all: a clean end. A last line without its line break is answered.
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["agent", "--save-dir"])
        .arg(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    let mut child = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["agent", "--width", "40", "--height", "20", "--save-dir"])
        .arg(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"\"N5SD\"\r\n{\"reset\":\"N6S\"}")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    let sized = |keys: &str| {
        let out = byog_in(
            dir.path(),
            &[
                "replay", "--json", "--view", "sight", "--width", "40", "--height", "20", keys,
            ],
        );
        stdout(&out).trim_end().to_owned()
    };
    assert_eq!(lines, [sized("N5SD"), sized("N6S")]);
}

/// The characters of a JSON state's rows (top row first).
fn grid(v: &Value, field: &str) -> Vec<Vec<char>> {
    v[field]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().chars().collect())
        .collect()
}

#[test]
fn the_observation_never_shows_an_unseen_tile() {
    let dir = tempfile::tempdir().unwrap();
    let route = stdout(&byog_in(dir.path(), &["solve", "R5S"]));
    let mut s = Session::start(dir.path(), &[]);
    let mut played = "R5S".to_owned();
    let mut answer = s.send(&reset(&played));
    let mut hidden_on = Vec::new();
    let (mut features_shown, mut features_hidden) = (false, false);
    let (mut exit_shown, mut exit_hidden) = (false, false);
    let allowed = [
        "avatar",
        "chest_moves",
        "chests_total",
        "exit",
        "features",
        "floor",
        "floors",
        "health",
        "height",
        "loss",
        "mode",
        "moves",
        "moves_left",
        "perfect_floors",
        "rows",
        "score",
        "seed",
        "status",
        "trap_moves",
        "traps_total",
        "width",
    ];
    let mut chunks = route.trim().as_bytes().chunks(4);
    loop {
        let sight: Value = serde_json::from_str(&answer).unwrap();
        let full = replay_full(dir.path(), &played);
        for key in sight.as_object().unwrap().keys() {
            assert!(allowed.contains(&key.as_str()), "{key} is not shown");
        }
        for key in [
            "avatar",
            "floor",
            "floors",
            "health",
            "height",
            "loss",
            "mode",
            "moves",
            "moves_left",
            "perfect_floors",
            "score",
            "seed",
            "status",
            "width",
        ] {
            assert_eq!(sight[key], full[key], "{key} after {played}");
        }
        // Every shown tile is one `seen` marks, and shows what stands there.
        let (shown, seen, world) = (
            grid(&sight, "rows"),
            grid(&full, "seen"),
            grid(&full, "rows"),
        );
        assert_eq!(shown.len(), world.len());
        let mut blanked = 0;
        for (y, row) in shown.iter().enumerate() {
            assert_eq!(row.len(), world[y].len());
            for (x, &c) in row.iter().enumerate() {
                if c != ' ' {
                    assert_ne!(seen[y][x], ' ', "({x}, {y}) shown but never seen");
                    assert_eq!(c, world[y][x], "({x}, {y}) shows what stands there");
                } else {
                    assert!(seen[y][x] == ' ' || world[y][x] == ' ');
                    blanked += usize::from(world[y][x] != ' ');
                }
            }
        }
        // The features and the exit, once their tiles were seen, and only then.
        let height = world.len() as i64;
        let seen_at = |x: i64, y: i64| seen[(height - 1 - y) as usize][x as usize] != ' ';
        let expected: Vec<&Value> = full["features"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| seen_at(f["x"].as_i64().unwrap(), f["y"].as_i64().unwrap()))
            .collect();
        let listed: Vec<&Value> = sight["features"].as_array().unwrap().iter().collect();
        assert_eq!(listed, expected, "after {played}");
        let all = full["features"].as_array().unwrap().len();
        features_shown |= !listed.is_empty();
        features_hidden |= listed.len() < all;
        let (ex, ey) = (
            full["exit"][0].as_i64().unwrap(),
            full["exit"][1].as_i64().unwrap(),
        );
        if seen_at(ex, ey) {
            assert_eq!(sight["exit"], full["exit"]);
            exit_shown = true;
        } else {
            assert_eq!(sight["exit"], Value::Null);
            exit_hidden = true;
        }
        if blanked > 0 {
            hidden_on.push(sight["floor"].as_u64().unwrap());
        }
        // Stop some lines into B2.
        if hidden_on.iter().filter(|&&f| f == 2).count() >= 8 {
            break;
        }
        let Some(keys) = chunks.next() else { break };
        let keys = std::str::from_utf8(keys).unwrap();
        played.push_str(keys);
        answer = s.send(&quoted(keys));
    }
    // Unseen tiles really were left out, on B1 and on the floor taken.
    assert!(
        hidden_on.contains(&1) && hidden_on.contains(&2),
        "{hidden_on:?}"
    );
    assert!(
        features_shown && features_hidden,
        "features seen and unseen both met"
    );
    assert!(exit_shown && exit_hidden, "the exit unseen, then seen");
    s.finish();
}

#[test]
fn the_in_process_api_gives_the_processes_json() {
    let dir = tempfile::tempdir().unwrap();
    let mut agent = Agent::new(AgentOptions {
        save_dir: Some(dir.path().to_path_buf()),
        record_keys: true,
        ..AgentOptions::default()
    });
    let mut s = Session::start(dir.path(), &[]);
    let mut walk = Walk(42);
    for start in ["E11S", "N3S", "R8S"] {
        let obs = agent.reset(start).unwrap();
        assert_eq!(s.send(&reset(start)), obs.to_json());
        for i in 0..40 {
            let keys = if i % 9 == 4 {
                "DQ".to_owned()
            } else {
                walk.keys()
            };
            let line = quoted(&keys);
            let process = s.send(&line);
            match agent.step(&keys) {
                Ok(obs) => {
                    assert_eq!(process, obs.to_json(), "{start}: {}", agent.keys());
                    let v: Value = serde_json::from_str(&process).unwrap();
                    let rows: Vec<String> = v["rows"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|r| r.as_str().unwrap().to_owned())
                        .collect();
                    assert_eq!(obs.rows(), rows);
                    let sight = obs.game.as_ref().unwrap();
                    assert_eq!(v["moves"], sight.moves);
                    assert_eq!(
                        v["avatar"],
                        serde_json::json!([sight.avatar.x, sight.avatar.y])
                    );
                    assert_eq!(
                        v["features"].as_array().unwrap().len(),
                        sight.features.len()
                    );
                }
                Err(e) => assert_eq!(process, e.to_json(), "{start}: {keys}"),
            }
            // The text protocol in process answers the same.
            assert_eq!(agent.answer(r#""""#), s.send(r#""""#));
        }
        assert_eq!(
            agent.observe().to_json(),
            replay_sight(dir.path(), agent.keys())
        );
    }
    s.finish();
}

/// The game a fresh interpreter reaches on `keys` (20 × 10 worlds, runs of 3 floors), as
/// `byog replay` plays them: the oracle of the agent's undoing of refused lines.
fn replayed(keys: &str) -> byog_players::agent::Observation {
    let mut i = byog_game::Interpreter::new(20, 10, GeneratorSettings::default()).with_floors(3);
    let mut store = byog_game::save::MemoryStore::default();
    byog_game::replay::replay_into(&mut i, keys, &mut store, &mut |_| {}).unwrap();
    byog_players::agent::Observation::of(&i)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

    /// Any lines of keys, menu keys, digits, colons, Backspace, Esc and nonsense included:
    /// every answer is one JSON object, never a panic; an accepted line gives the
    /// observation of a fresh replay of every key accepted since the reset, and a refused
    /// one leaves the observation as it was.
    #[test]
    fn any_lines_are_answered_and_refused_ones_change_nothing(
        lines in proptest::collection::vec(
            proptest::collection::vec(
                proptest::sample::select(vec![
                    'W', 'A', 'S', 'D', 'w', 'd', 'N', 'R', 'E', 'L', 'Q', 'S', '0', '4',
                    '7', ':', '\u{8}', '\u{1b}', 'X', ' ', 'é',
                ]),
                0..6,
            ),
            1..10,
        ),
        start in proptest::sample::select(vec!["N3S", "R5S", "E2S", "", "R"]),
    ) {
        let mut agent = Agent::new(AgentOptions {
            game: byog_game::GameOptions {
                width: 20,
                height: 10,
                floors: 3,
                ..Default::default()
            },
            record_keys: true,
            ..AgentOptions::default()
        });
        let first = agent.reset(start).unwrap();
        proptest::prop_assert_eq!(first.to_json(), replayed(start).to_json());
        for keys in lines {
            let keys: String = keys.into_iter().collect();
            let before = agent.observe();
            let answer = agent.answer(&quoted(&keys));
            let v: Value = serde_json::from_str(&answer).unwrap();
            proptest::prop_assert!(v.is_object());
            if v.get("error").is_some() {
                proptest::prop_assert_eq!(agent.observe(), before.clone(), "{:?}: {}", keys, answer);
            } else {
                // Keys past the game's end are left unplayed, and counted.
                let unplayed = v.get("unplayed").map_or(0, |n| n.as_u64().unwrap() as usize);
                let played: String = keys.chars().take(keys.chars().count() - unplayed).collect();
                proptest::prop_assert!(agent.keys().ends_with(&played));
            }
            let now = agent.observe().to_json();
            proptest::prop_assert_eq!(&now, &replayed(agent.keys()).to_json(), "{:?}", agent.keys());
            if v.get("error").is_none() && v.get("unplayed").is_none() {
                proptest::prop_assert_eq!(&answer, &now);
            }
        }
    }
}

/// Issue 31, problem 8: `byog agent --slot NAME` loads that slot on `L`, not `save.bin`; the
/// in-process agent does the same with `AgentOptions::slot`.
#[test]
fn the_agent_loads_the_slot_it_is_given() {
    let dir = tempfile::tempdir().unwrap();
    for (slot, keys) in [("r77", "R9SDD:Q"), ("save", "N5SWW:Q")] {
        let saved = byog_in(dir.path(), &["replay", "--slot", slot, keys]);
        assert_eq!(saved.status.code(), Some(0), "{}", stderr(&saved));
    }
    let slot_sight = |slot: &str, keys: &str| {
        let out = byog_in(
            dir.path(),
            &["replay", "--slot", slot, "--json", "--view", "sight", keys],
        );
        stdout(&out).trim_end().to_owned()
    };
    let r77 = slot_sight("r77", "L");
    assert_ne!(r77, slot_sight("save", "L"), "two different saves");
    let mut s = Session::start(dir.path(), &["--slot", "r77"]);
    assert_eq!(s.send(&reset("L")), r77);
    assert_eq!(s.send(r#""W""#), slot_sight("r77", "LW"));
    s.finish();
    // Without --slot, `save`.
    let mut s = Session::start(dir.path(), &[]);
    assert_eq!(s.send(&reset("L")), slot_sight("save", "L"));
    s.finish();
    // A slot with no save: L finds none.
    let mut s = Session::start(dir.path(), &["--slot", "empty"]);
    let e = error_of(&s.send(&reset("L"))).unwrap();
    assert!(e.contains("no save"), "{e}");
    s.finish();
    // In process.
    let mut agent = Agent::new(AgentOptions {
        save_dir: Some(dir.path().to_path_buf()),
        slot: "r77".into(),
        ..AgentOptions::default()
    });
    assert_eq!(agent.reset("L").unwrap().to_json(), r77);
    let mut bad = Agent::new(AgentOptions {
        save_dir: Some(dir.path().to_path_buf()),
        slot: "no/slot".into(),
        ..AgentOptions::default()
    });
    let e = bad.reset("L").unwrap_err().to_string();
    assert!(e.contains("no/slot"), "{e}");
}

/// Issue 31, problem 22: a line whose keys run past its game's end plays the keys up to the
/// end and leaves the rest unplayed, saying how many (`unplayed`); a character in the rest
/// that is no key refuses the whole line, as before.
#[test]
fn keys_past_the_end_are_left_unplayed() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start(dir.path(), &[]);
    let game = GameState::new(42, 80, 30, GeneratorSettings::default()).unwrap();
    let path = keys_to_exit(&game);
    assert_eq!(s.send(&reset("N42S")), replay_sight(dir.path(), "N42S"));
    // Not a key after the end: the whole line is refused and the game is where it was.
    let e = error_of(&s.send(&quoted(&format!("{path}DZ")))).unwrap();
    assert!(
        e.contains(&format!("key 'Z' at position {}", path.len() + 1)),
        "{e}"
    );
    assert_eq!(s.send(r#""""#), replay_sight(dir.path(), "N42S"));
    // Keys after the winning step: played up to it, the rest counted.
    let answer = s.send(&quoted(&format!("{path}DDwN1S")));
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(v["status"], "won", "{answer}");
    assert_eq!(v["unplayed"], 6, "{answer}");
    let mut won: Value =
        serde_json::from_str(&replay_sight(dir.path(), &format!("N42S{path}"))).unwrap();
    won["unplayed"] = 6.into();
    assert_eq!(v, won, "the won game, and how many keys were left");
    // The next observation is the won game's own, with nothing unplayed.
    assert_eq!(
        s.send(r#""""#),
        replay_sight(dir.path(), &format!("N42S{path}"))
    );
    // A run lost mid-line: out of moves on B1 of a tiny run, the rest unplayed.
    assert_eq!(s.send(&reset("R3S")), replay_sight(dir.path(), "R3S"));
    let run = GameState::new_run(3, 80, 30, GeneratorSettings::default(), 10).unwrap();
    let (there, back) = byog_tile_engine::Direction::ALL
        .into_iter()
        .map(|d| (byog_game::Action::Move(d), d))
        .find(|&(_, d)| {
            run.terrain()
                .get(run.avatar() + d)
                .is_some_and(|t| t.is_walkable())
        })
        .map(|(a, d)| {
            let opposite = byog_tile_engine::Direction::ALL
                .into_iter()
                .find(|&o| run.avatar() + d + o == run.avatar())
                .unwrap();
            (a.key(), byog_game::Action::Move(opposite).key())
        })
        .unwrap();
    let allowance = run.run().unwrap().moves_left as usize;
    let bumps_and_steps = format!("{there}{back}").repeat(allowance / 2 + 20);
    let answer = s.send(&quoted(&bumps_and_steps));
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(v["status"], "lost", "{answer}");
    let unplayed = v["unplayed"].as_u64().unwrap() as usize;
    assert!(
        unplayed > 0 && unplayed < bumps_and_steps.len(),
        "{unplayed}"
    );
    let played = &bumps_and_steps[..bumps_and_steps.len() - unplayed];
    let mut lost: Value =
        serde_json::from_str(&replay_sight(dir.path(), &format!("R3S{played}"))).unwrap();
    lost["unplayed"] = unplayed.into();
    assert_eq!(v, lost);
    s.finish();
    // In process: the observation says it too.
    let mut agent = Agent::new(AgentOptions {
        record_keys: true,
        ..AgentOptions::default()
    });
    agent.reset("N42S").unwrap();
    let obs = agent.step(&format!("{path}WW")).unwrap();
    assert_eq!(obs.unplayed, 2);
    assert_eq!(agent.keys(), format!("N42S{path}"));
    assert_eq!(agent.observe().unplayed, 0);
}
