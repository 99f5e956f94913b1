//! The module map of `src/core` checked from the source (ARCHITECTURE.md): its modules
//! import each other without a circle, and nothing in it imports the front-ends or the
//! command line. The check reads the files as text, the way a reviewer would: every path
//! `crate::core::NAME` and every `super::` path that leaves a module is an import of NAME
//! (test modules, which may use anything, and comments are left out).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A file's code without its test module and its comments.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module path of a file under `src/core` (`["run", "floor"]` for `run/floor.rs`,
/// `["run"]` for `run/mod.rs`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// The identifiers that start each item of a `{ … }` group (at its top nesting level).
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    let mut ident = String::new();
    for c in group.chars() {
        match c {
            '{' => {
                depth += 1;
                item_start = false;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            c if c.is_alphanumeric() || c == '_' => {
                if item_start && depth == 0 {
                    ident.push(c);
                }
            }
            _ => {
                if !ident.is_empty() {
                    heads.push(std::mem::take(&mut ident));
                    item_start = false;
                }
            }
        }
    }
    if !ident.is_empty() {
        heads.push(ident);
    }
    heads
}

/// The top-level core modules a file's code names (`self` left out).
fn imports(code: &str, module: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add_path = |path: &[&str], rest: &str| {
        // `path` is the absolute module path the `crate::core::`/`super::` prefix reached.
        match path.first() {
            Some(first) => {
                out.insert((*first).to_string());
            }
            None => {
                // At `crate::core` itself: the next segment or group names the module.
                let rest = rest.trim_start();
                if let Some(group) = rest.strip_prefix('{') {
                    let end = matching_brace(group);
                    out.extend(group_heads(&group[..end]));
                } else {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.insert(name);
                    }
                }
            }
        }
    };
    for (i, _) in code.match_indices("crate::core::") {
        add_path(&[], &code[i + "crate::core::".len()..]);
    }
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(found) = code[i..].find("super::") {
        let start = i + found;
        i = start + 1;
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b':') {
            continue;
        }
        let mut ups = 0;
        let mut rest = &code[start..];
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        if ups > module.len() {
            continue;
        }
        // `super` of a file module `a/b` is `a`; of `a/mod.rs` (module `a`) is core.
        let base: Vec<&str> = module[..module.len() - ups]
            .iter()
            .map(String::as_str)
            .collect();
        add_path(&base, rest);
    }
    if let Some(own) = module.first() {
        out.remove(own);
    }
    out.retain(|m| m != "self" && m != "super");
    out
}

/// The index just past the brace that closes a group whose `{` was already read.
fn matching_brace(group: &str) -> usize {
    let mut depth = 1;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    group.len()
}

/// Each top-level module of `src/core` and the core modules it imports.
fn core_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(&root) {
        let rel = file.strip_prefix(&root).unwrap();
        let module = module_path(rel);
        let Some(top) = module.first().cloned() else {
            continue; // core/mod.rs: the module list and its re-exports
        };
        let code = code_of(&fs::read_to_string(&file).unwrap());
        graph
            .entry(top)
            .or_default()
            .extend(imports(&code, &module));
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for targets in graph.values_mut() {
        targets.retain(|t| modules.contains(t));
    }
    graph
}

/// A circle of modules, if the graph has one (depth-first search, colours).
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|n| n == next).unwrap();
                    let mut circle = stack[from..].to_vec();
                    circle.push(next.clone());
                    return Some(circle);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0
            && let Some(c) = visit(node, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn the_parser_reads_every_form_of_import() {
    let module = vec!["run".to_string(), "floor".to_string()];
    let code = "use super::route::Router;\nuse crate::core::base::{GameRng, terrain_under};\n\
                use super::super::{game::GameState, rules};\nlet x = crate::core::generator::f();";
    let found = imports(code, &module);
    let expected: BTreeSet<String> = ["base", "game", "generator", "rules"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, expected, "`super::route` stays inside run");
    let top = vec!["rules".to_string()];
    let found = imports(
        "use super::{action::Action, board::{Board, GridBoard}};",
        &top,
    );
    assert_eq!(
        found,
        ["action", "board"].iter().map(|s| s.to_string()).collect()
    );
    assert_eq!(code_of("use a;\n// use b;\n#[cfg(test)]\nuse c;"), "use a;");
}

#[test]
fn the_circle_finder_finds_a_circle_and_only_one() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    g.entry("c".into()).or_default();
    assert_eq!(find_circle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(
        find_circle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

#[test]
fn core_modules_import_each_other_without_a_circle() {
    let graph = core_graph();
    // The graph is really read: the rules use the board, the game and the content below.
    assert!(graph["rules"].contains("game"), "{graph:?}");
    if let Some(circle) = find_circle(&graph) {
        panic!(
            "src/core has an import circle: {}\nthe whole graph: {graph:#?}",
            circle.join(" -> ")
        );
    }
}

#[test]
fn the_rules_and_what_is_below_them_know_nothing_of_their_players() {
    let graph = core_graph();
    for (module, targets) in &graph {
        if module != "players" && module != "engine" {
            assert!(
                !targets.contains("players"),
                "{module} imports the players, who sit above the rules: {targets:?}"
            );
        }
    }
    assert!(graph["players"].contains("rules"), "{graph:?}");
    for low in [
        "base",
        "board",
        "game",
        "run",
        "explore",
        "generator",
        "metrics",
    ] {
        for high in ["rules", "interpreter", "replay", "watch", "save", "engine"] {
            assert!(
                !graph.get(low).is_some_and(|t| t.contains(high)),
                "{low} imports {high}, which sits above it"
            );
        }
    }
}

#[test]
fn core_never_imports_a_front_end_or_the_command_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    for file in rust_files(&root) {
        let code = code_of(&fs::read_to_string(&file).unwrap());
        for above in [
            "crate::cli",
            "crate::screens",
            "crate::terminal",
            "crate::window",
            "crate::stats",
            "crate::views",
            "crate::shell",
        ] {
            assert!(
                !code.contains(above),
                "{} imports {above}: src/core knows no front-end",
                file.display()
            );
        }
    }
}
