//! The project's own documents against the program: every field the JSON state prints, in
//! every mode, is described in `docs/json.md` and the README's JSON paragraph names every
//! mode; and no file of the project points at a document outside the repository.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The JSON state `byog replay --format json INPUT` prints.
fn replay_json(input: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_byog"))
        .args(["replay", "--format", "json", "--save-dir"])
        .arg(dir.path())
        .arg(input)
        .env_remove("BYOG_SAVE_DIR")
        .output()
        .unwrap();
    assert!(out.status.success(), "{input}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every key of `v`'s objects, nested ones included, with the path that leads to it.
fn keys(v: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, inner) in map {
                out.push((k.clone(), format!("{path}.{k}")));
                keys(inner, &format!("{path}.{k}"), out);
            }
        }
        Value::Array(items) => {
            for item in items {
                keys(item, &format!("{path}[]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn docs_json_describes_every_field_of_every_mode() {
    // A user found the README's JSON paragraph without mode "explore" and fields (`seen`,
    // `allowance`, `par`, `loss`) printed but described nowhere.
    let page = fs::read_to_string(root().join("docs/json.md")).unwrap();
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    for (input, mode) in [
        ("", "menu"),
        ("N7SDD", "classic"),
        ("R7SSSSSS", "run"),
        ("E42SWWWWWWWWWWW", "explore"),
    ] {
        let state = replay_json(if input.is_empty() { "X" } else { input });
        assert_eq!(state["mode"], mode, "{input}");
        let mut found = Vec::new();
        keys(&state, "", &mut found);
        for (key, path) in found {
            assert!(
                page.contains(&format!("`{key}`")) || page.contains(&format!("\"{key}\"")),
                "docs/json.md does not describe `{key}` ({mode}: {path})"
            );
        }
        assert!(
            readme.contains(&format!("`\"{mode}\"`")),
            "the README's JSON paragraph does not name mode \"{mode}\""
        );
    }
}

#[test]
fn docs_json_describes_every_field_of_the_policy_stats() {
    let page = fs::read_to_string(root().join("docs/json.md")).unwrap();
    for args in [
        ["--runs", "0..2", "--policy", "hurry", "--floors", "2"],
        [
            "--explorations",
            "0..2",
            "--policy",
            "cautious",
            "--floors",
            "2",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_byog"))
            .arg("stats")
            .args(args)
            .args(["--json", "--threads", "1"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut found = Vec::new();
        keys(&v, "", &mut found);
        assert!(found.len() > 20, "{v}");
        for (key, path) in found {
            assert!(
                page.contains(&format!("`{key}`")) || page.contains(&format!("\"{key}\"")),
                "docs/json.md does not describe `{key}` ({args:?}: {path})"
            );
        }
    }
}

/// The project's text files: source, tests, benches, docs and the top-level documents.
fn project_files() -> Vec<PathBuf> {
    let mut out = vec![
        root().join("README.md"),
        root().join("ARCHITECTURE.md"),
        root().join("Cargo.toml"),
    ];
    let mut stack: Vec<PathBuf> = [
        "src",
        "crates",
        "tests",
        "benches",
        "docs",
        "fuzz/fuzz_targets",
    ]
    .iter()
    .map(|d| root().join(d))
    .collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|e| e == "rs" || e == "md" || e == "toml")
            {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn no_file_of_the_project_points_outside_the_repository() {
    // Doc comments once pointed at a behaviour contract one folder up, which a user who clones
    // the repository does not have. (Spelled in two pieces so this file does not match.)
    let outside = ["../", "shared/"].concat();
    let contract = ["SPEC", ".md"].concat();
    let files = project_files();
    assert!(files.len() > 50, "the project's files were found");
    for file in files {
        let text = fs::read_to_string(&file).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains(&outside) && !line.contains(&contract),
                "{}:{} points outside the repository: {line}",
                file.display(),
                n + 1
            );
        }
    }
}

#[test]
fn every_docs_page_a_doc_comment_names_exists() {
    // Doc comments point at `docs/<page>.md` for the behaviour they implement.
    for file in project_files() {
        let text = fs::read_to_string(&file).unwrap_or_default();
        for (i, _) in text.match_indices("docs/") {
            let name: String = text[i + 5..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_' || *c == '.')
                .collect();
            let page = name.strip_suffix('.').unwrap_or(&name);
            if page.ends_with(".md") {
                assert!(
                    root().join("docs").join(page).exists(),
                    "{} names docs/{page}, which does not exist",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn the_help_names_every_key_the_readme_table_gives_each_mode() {
    // The README's key table, rows of `| where | key | does |`: every key (in backticks) of
    // a row for the menu, or for playing or ended without a front-end of its own, is on the
    // help screen of that place.
    use byog_game::interpreter::GameKind;
    use byog_shell::screens::help_keys;
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let table: Vec<(String, Vec<String>)> = readme
        .lines()
        .filter(|l| l.starts_with("| ") && l.matches(" | ").count() >= 2)
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let keys = cells[1]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect();
            (cells[0].trim_start_matches("| ").to_owned(), keys)
        })
        .collect();
    assert!(
        table.iter().any(|(w, _)| w == "menu"),
        "the key table is read"
    );
    let words =
        |line: String| -> Vec<String> { line.split([' ', ',']).map(str::to_owned).collect() };
    for (place, keys) in &table {
        let helps: Vec<String> = match place.as_str() {
            "menu" => vec![help_keys(None)],
            "playing" | "playing, ended" | "menu, playing, ended" => {
                [GameKind::Classic, GameKind::Run, GameKind::Exploration]
                    .iter()
                    .map(|k| help_keys(Some(*k)))
                    .collect()
            }
            "playing (explorations)" => vec![help_keys(Some(GameKind::Exploration))],
            "playing (runs, explorations)" => [GameKind::Run, GameKind::Exploration]
                .iter()
                .map(|k| help_keys(Some(*k)))
                .collect(),
            _ => continue,
        };
        for help in helps {
            let said = words(help.clone());
            for key in keys {
                // `0`-`9`-style ranges and words such as `W` `A` `S` `D` each appear alone.
                // `:Q` names both of its keys.
                let named = |w: &String| {
                    w.eq_ignore_ascii_case(key)
                        || (w.chars().count() == 2 && w.contains(key.as_str()))
                };
                if key.chars().count() == 1 && !said.iter().any(named) {
                    panic!("the help line {help:?} does not name `{key}` ({place})");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Every shown example runs (issue 31, problem 20)
// ---------------------------------------------------------------------------------------------

/// A ```console block of a document: its commands (`$ …` lines) and what each shows.
struct Example {
    /// The document, relative to the repository.
    doc: String,
    /// The line of the `$` command, 1-based.
    line: usize,
    /// The command as written, comment and `$ ` removed.
    command: String,
    /// The lines shown after it, each with its line number.
    shown: Vec<(usize, String)>,
}

/// The documents whose examples are checked: the README and every page of docs/.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// `command` without a trailing `# comment` (a `#` after a space, outside quotes).
fn without_comment(command: &str) -> &str {
    let (mut single, mut double) = (false, false);
    let bytes = command.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'#' if !single && !double && i > 0 && bytes[i - 1] == b' ' => {
                return command[..i].trim_end();
            }
            _ => {}
        }
    }
    command.trim_end()
}

/// The examples of every ```console block of `doc`, grouped by block (the commands of a
/// block share a folder, so a save made by one is loaded by the next). A block right after
/// `<!-- output not checked: WHY -->` is skipped, with its reason in the document.
fn examples(doc: &Path) -> Vec<Vec<Example>> {
    let text = fs::read_to_string(doc).unwrap();
    let name = doc.strip_prefix(root()).unwrap().display().to_string();
    let mut blocks = Vec::new();
    let mut current: Option<Vec<Example>> = None;
    let mut previous = "";
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        match &mut current {
            None => {
                if line.trim_end() == "```console"
                    && !previous.starts_with("<!-- output not checked")
                {
                    current = Some(Vec::new());
                }
            }
            Some(block) => {
                if line.starts_with("```") {
                    blocks.push(current.take().unwrap());
                } else if let Some(command) = line.strip_prefix("$ ") {
                    block.push(Example {
                        doc: name.clone(),
                        line: n,
                        command: without_comment(command).to_owned(),
                        shown: Vec::new(),
                    });
                } else if let Some(last) = block.last_mut() {
                    last.shown.push((n, line.to_owned()));
                }
            }
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    blocks
}

/// Whether `actual` is what `shown` shows: `…` in a shown line stands for any text, a shown
/// line `...` (indented or not) for any number of lines; trailing spaces are not compared.
fn shows(shown: &[&str], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|k| shows(rest, &actual[k..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_matches(first, a) && shows(rest, more)),
    }
}

fn line_matches(shown: &str, actual: &str) -> bool {
    let (shown, actual) = (shown.trim_end(), actual.trim_end());
    let mut parts = shown.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Runs `command` as a shell would, with this build's `byog` first on the PATH, in `dir`.
fn run_shown(command: &str, dir: &Path) -> std::process::Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_byog")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("BYOG_SAVE_DIR")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// Every ```console example of the README and `docs/` prints what its document shows (stdout,
/// then stderr; a command shown without output only has to succeed). Other
/// engineers change behaviour; this says which document line went stale and what the command
/// prints now.
#[test]
fn every_shown_example_prints_what_the_docs_show() {
    let mut stale = Vec::new();
    let mut ran = 0;
    for doc in documents() {
        for block in examples(&doc) {
            let dir = tempfile::tempdir().unwrap();
            for ex in block {
                ran += 1;
                let out = run_shown(&ex.command, dir.path());
                let text = format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                // Blank lines at the start and the end (a world's empty rows) are not compared.
                let mut actual: Vec<&str> = text.lines().collect();
                while actual.first().is_some_and(|l| l.trim().is_empty()) {
                    actual.remove(0);
                }
                while actual.last().is_some_and(|l| l.trim().is_empty()) {
                    actual.pop();
                }
                let mut ex = ex;
                while ex.shown.first().is_some_and(|(_, l)| l.trim().is_empty()) {
                    ex.shown.remove(0);
                }
                while ex.shown.last().is_some_and(|(_, l)| l.trim().is_empty()) {
                    ex.shown.pop();
                }
                let shown: Vec<&str> = ex.shown.iter().map(|(_, l)| l.as_str()).collect();
                // A command shown with no output only has to succeed.
                let passed = if shown.is_empty() {
                    out.status.success()
                } else {
                    shows(&shown, &actual)
                };
                if passed {
                    continue;
                }
                // The first shown line that no longer matches, for the message.
                let at = ex
                    .shown
                    .iter()
                    .zip(&actual)
                    .position(|((_, s), a)| s.trim() != "..." && !line_matches(s, a))
                    .unwrap_or(ex.shown.len().min(actual.len()));
                let (line, was) = ex
                    .shown
                    .get(at)
                    .map_or((ex.line, "(nothing more)"), |(n, s)| (*n, s.as_str()));
                stale.push(format!(
                    "{}:{line}: `{}` (line {}) no longer prints what the doc shows.\n  the doc shows: {was}\n  it prints now: {}\n  its whole output now:\n{}",
                    ex.doc,
                    ex.command,
                    ex.line,
                    actual.get(at).copied().unwrap_or("(nothing more)"),
                    actual.iter().map(|l| format!("    {l}\n")).collect::<String>()
                ));
            }
        }
    }
    assert!(ran >= 15, "only {ran} examples found");
    assert!(
        stale.is_empty(),
        "{} stale examples:\n\n{}",
        stale.len(),
        stale.join("\n")
    );
}

#[test]
fn the_shown_output_matcher_elides_what_the_docs_elide() {
    assert!(line_matches(
        "{\"a\":1,…,\"z\":2}",
        "{\"a\":1,\"b\":5,\"z\":2}"
    ));
    assert!(!line_matches(
        "{\"a\":1,…,\"z\":2}",
        "{\"a\":1,\"b\":5,\"z\":3}"
    ));
    assert!(shows(&["a", "...", "z"], &["a", "b", "c", "z"]));
    assert!(!shows(&["a", "b"], &["a", "b", "c"]));
    assert_eq!(without_comment("byog LSS   # load it"), "byog LSS");
    assert_eq!(
        without_comment("printf '#x' | byog agent"),
        "printf '#x' | byog agent"
    );
}

/// Issue 31 (18): the README installs with the lock file, so a newcomer builds the versions
/// the tests ran with.
#[test]
fn the_readme_installs_with_the_lock_file() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let installs: Vec<&str> = readme
        .lines()
        .filter(|l| l.contains("cargo install --path"))
        .collect();
    assert!(!installs.is_empty());
    for line in installs {
        assert!(line.contains("--locked"), "README: {line}");
    }
}

/// docs/saves.md states this build's format version and the size of its example save.
#[test]
fn docs_saves_states_the_format_and_the_example_size() {
    let page = fs::read_to_string(root().join("docs/saves.md")).unwrap();
    let v = byog_game::save::FORMAT_VERSION;
    assert!(
        page.contains(&format!(
            "format version (`u32`), {v} for the saves this build writes"
        )),
        "docs/saves.md does not say format {v}"
    );
    assert!(page.contains(&format!(
        "This build writes version {v} and reads 1 to {v}."
    )));
    assert!(page.contains(&format!("newer than this byog reads ({v})")));
    let dir = tempfile::tempdir().unwrap();
    let out = run_shown(
        &format!("byog replay --save-dir {} N999SDDD:Q", dir.path().display()),
        dir.path(),
    );
    assert!(out.status.success());
    let size = fs::metadata(dir.path().join("save.bin")).unwrap().len();
    let shown = format!("{},{:03} bytes", size / 1000, size % 1000);
    assert!(
        page.contains(&format!("after `N999SDDD:Q` is {shown}")),
        "docs/saves.md: the save after `N999SDDD:Q` is {shown} now"
    );
}
