//! The house, checked (ARCHITECTURE.md). The packages are the layers and the compiler
//! enforces what each may import; these tests check that the layering itself stays as drawn:
//! each package depends only on the packages below it (read from `cargo metadata`), the game
//! library and the packages between it and the front-ends compile no window, terminal, web
//! server or SQLite, and inside the game package (`crates/game/src`) the modules import each
//! other without a circle, nothing below the rules importing them. That last check reads the
//! files as text, the way a reviewer would: every path `crate::NAME` and every `super::` path
//! that leaves a module is an import of NAME (test modules, which may use anything, and
//! comments are left out).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// The module path of a file under `crates/game/src` (`["run", "floor"]` for `run/floor.rs`,
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

/// The top-level modules of the game package a file's code names (`self` left out).
fn imports(code: &str, module: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut add_path = |path: &[&str], rest: &str| {
        // `path` is the absolute module path the `crate::`/`super::` prefix reached.
        match path.first() {
            Some(first) => {
                out.insert((*first).to_string());
            }
            None => {
                // At the crate's root: the next segment or group names the module.
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
    for (i, _) in code.match_indices("crate::") {
        add_path(&[], &code[i + "crate::".len()..]);
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
        // `super` of a file module `a/b` is `a`; of `a/mod.rs` (module `a`) the crate's root.
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

/// Each top-level module of the game package and the modules of it that it imports.
fn game_graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/game/src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(&root) {
        let rel = file.strip_prefix(&root).unwrap();
        let module = module_path(rel);
        let Some(top) = module.first().cloned() else {
            continue; // lib.rs: the module list and its re-exports
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
    let code = "use super::route::Router;\nuse crate::base::{GameRng, terrain_under};\n\
                use super::super::{game::GameState, rules};\nlet x = crate::explore::f();";
    let found = imports(code, &module);
    let expected: BTreeSet<String> = ["base", "explore", "game", "rules"]
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
fn the_game_packages_modules_import_each_other_without_a_circle() {
    let graph = game_graph();
    // The graph is really read: the rules use the board, the game and the content below.
    assert!(graph["rules"].contains("game"), "{graph:?}");
    if let Some(circle) = find_circle(&graph) {
        panic!(
            "crates/game has an import circle: {}\nthe whole graph: {graph:#?}",
            circle.join(" -> ")
        );
    }
}

#[test]
fn what_is_below_the_rules_knows_nothing_of_them() {
    let graph = game_graph();
    assert!(graph["interpreter"].contains("rules"), "{graph:?}");
    for low in ["base", "board", "game", "run", "explore", "keys"] {
        for high in ["rules", "interpreter", "replay", "watch", "save", "travel"] {
            assert!(
                !graph.get(low).is_some_and(|t| t.contains(high)),
                "{low} imports {high}, which sits above it"
            );
        }
    }
}

/// The workspace's packages, lowest first, and the workspace packages each may depend on
/// (ARCHITECTURE.md's map). A package missing here, or a dependency not allowed, fails.
const LAYERS: &[(&str, &[&str])] = &[
    ("byog-tile-engine", &[]),
    ("byog-raster", &["byog-tile-engine"]),
    ("byog-worlds", &["byog-tile-engine"]),
    ("byog-catalog", &["byog-tile-engine", "byog-worlds"]),
    ("byog-game", &["byog-tile-engine", "byog-worlds"]),
    (
        "byog-wire",
        &["byog-tile-engine", "byog-worlds", "byog-game"],
    ),
    (
        "byog-players",
        &["byog-tile-engine", "byog-worlds", "byog-game", "byog-wire"],
    ),
    (
        "byog-shell",
        &["byog-tile-engine", "byog-worlds", "byog-game"],
    ),
    // The front-ends know the tile engine and the shell only: keys, frames and errors come
    // from the shell, which re-exports what of the game they name.
    ("byog-terminal", &["byog-tile-engine", "byog-shell"]),
    ("byog-window", &["byog-tile-engine", "byog-shell"]),
    (
        "byog-web",
        &[
            "byog-tile-engine",
            "byog-worlds",
            "byog-game",
            "byog-wire",
            "byog-shell",
        ],
    ),
    (
        "byog-python",
        &[
            "byog-tile-engine",
            "byog-worlds",
            "byog-game",
            "byog-players",
            "byog-shell",
        ],
    ),
    (
        "byog",
        &[
            "byog-tile-engine",
            "byog-raster",
            "byog-worlds",
            "byog-catalog",
            "byog-game",
            "byog-wire",
            "byog-players",
            "byog-shell",
            "byog-terminal",
            "byog-window",
            "byog-web",
        ],
    ),
];

/// The host's target triple (`rustc -vV`).
fn host() -> String {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_owned()
}

/// `cargo metadata` of the workspace for this host, as JSON.
fn metadata() -> serde_json::Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata's JSON")
}

/// Each package of the resolved graph (by name) and the packages it depends on for building
/// its library and binaries (normal dependencies, any target), by name.
fn normal_graph(meta: &serde_json::Value) -> BTreeMap<String, BTreeSet<String>> {
    dependency_graph(meta, false)
}

/// Each package of the resolved graph (by name) and the packages it depends on, by name:
/// for building its library and binaries (normal dependencies), or with `all_kinds` also its
/// tests, examples and benchmarks (dev-dependencies) and its build script's.
fn dependency_graph(
    meta: &serde_json::Value,
    all_kinds: bool,
) -> BTreeMap<String, BTreeSet<String>> {
    let name_of: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for node in meta["resolve"]["nodes"].as_array().unwrap() {
        let from = name_of[node["id"].as_str().unwrap()].to_owned();
        let deps = graph.entry(from).or_default();
        for dep in node["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null());
            if normal || all_kinds {
                deps.insert(name_of[dep["pkg"].as_str().unwrap()].to_owned());
            }
        }
    }
    graph
}

/// Every package `root` needs to build, itself included.
fn closure(graph: &BTreeMap<String, BTreeSet<String>>, root: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![root.to_owned()];
    while let Some(p) = stack.pop() {
        if seen.insert(p.clone()) {
            stack.extend(graph.get(&p).into_iter().flatten().cloned());
        }
    }
    seen
}

#[test]
fn each_package_depends_only_on_the_packages_below_it() {
    let meta = metadata();
    let members: BTreeSet<String> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| {
            let id = &p["id"];
            meta["workspace_members"].as_array().unwrap().contains(id)
        })
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    let layers: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    // The table itself is layered: a package may use only those listed before it.
    for (i, (name, allowed)) in LAYERS.iter().enumerate() {
        for a in *allowed {
            assert!(
                LAYERS[..i].iter().any(|(n, _)| n == a),
                "{name} may use {a}, which is not below it"
            );
        }
    }
    let graph = normal_graph(&meta);
    for member in &members {
        let allowed = layers
            .get(member.as_str())
            .unwrap_or_else(|| panic!("{member} is not on the map of layers (LAYERS)"));
        for dep in graph[member].iter().filter(|d| members.contains(*d)) {
            assert!(
                allowed.contains(&dep.as_str()),
                "{member} depends on {dep}, which is not below it (ARCHITECTURE.md)"
            );
        }
    }
    // The map is really read: the game builds on the worlds, the shell on the game.
    assert!(graph["byog-game"].contains("byog-worlds"));
    assert!(graph["byog-shell"].contains("byog-game"));
    // The web server takes the game's JSON from the wire, not from the players (their
    // solver and policies): the players are at most its tests' dependency.
    assert!(graph["byog-web"].contains("byog-wire"));
    assert!(!closure(&graph, "byog-web").contains("byog-players"));
}

#[test]
fn the_game_library_compiles_no_window_terminal_server_or_sqlite() {
    let graph = normal_graph(&metadata());
    for library in [
        "byog-tile-engine",
        "byog-worlds",
        "byog-game",
        "byog-wire",
        "byog-players",
        "byog-shell",
    ] {
        let needs = closure(&graph, library);
        for heavy in [
            "macroquad",
            "miniquad",
            "crossterm",
            "tokio",
            "axum",
            "rusqlite",
            "libsqlite3-sys",
        ] {
            assert!(
                !needs.contains(heavy),
                "{library} depends on {heavy}: a user of the game library compiles no \
                 window, terminal, web server or SQLite"
            );
        }
    }
    // The check can fail: the window needs macroquad, the catalog SQLite.
    assert!(closure(&graph, "byog-window").contains("macroquad"));
    assert!(closure(&graph, "byog-catalog").contains("rusqlite"));
}

#[test]
fn the_front_ends_name_only_the_tile_engine_and_the_shell() {
    let meta = metadata();
    let graph = dependency_graph(&meta, true);
    let members: BTreeSet<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    for front_end in ["byog-window", "byog-terminal"] {
        // Every kind of dependency: their tests, too, play through the shell.
        let named: Vec<&String> = graph[front_end]
            .iter()
            .filter(|d| members.contains(d.as_str()))
            .collect();
        assert_eq!(
            named,
            ["byog-shell", "byog-tile-engine"],
            "{front_end} names a package other than the tile engine and the shell"
        );
    }
    // The check can fail: the web server names the game and the players.
    assert!(graph["byog-web"].contains("byog-game"));
}

#[test]
fn only_the_programs_that_draw_pictures_compile_the_png_encoder_and_the_font_rasteriser() {
    let graph = normal_graph(&metadata());
    // The rasteriser (`gen --png`), the window (`--screenshot`; macroquad draws its glyphs
    // with fontdue) and the command line that holds both.
    let drawers = ["byog-raster", "byog-window", "byog"];
    for (package, _) in LAYERS.iter().filter(|(p, _)| !drawers.contains(p)) {
        let needs = closure(&graph, package);
        for heavy in ["image", "png", "fontdue"] {
            assert!(
                !needs.contains(heavy),
                "{package} depends on {heavy}: only byog-raster and the window draw pictures"
            );
        }
    }
    // The check can fail: the rasteriser needs both.
    let raster = closure(&graph, "byog-raster");
    assert!(raster.contains("image") && raster.contains("fontdue"));
}
