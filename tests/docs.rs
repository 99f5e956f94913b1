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
    use byog::core::interpreter::GameKind;
    use byog::screens::help_keys;
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
