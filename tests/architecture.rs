//! The house, checked (ARCHITECTURE.md). The packages are the layers and the compiler
//! enforces what each may import; these tests check that the layering itself stays as drawn:
//! each package depends only on the packages below it (read from `cargo metadata`), the game
//! library and the packages between it and the front-ends compile no window, terminal, web
//! server or SQLite, and inside every package (each folder its library and programs are in,
//! from `cargo metadata`) the modules of every folder (the root, the game's `explore/`,
//! `run/`, `travel/`, the shell's `session/`, …) import each other without a circle, nothing
//! below the game's rules importing them. That last check reads the files as text,
//! the way a reviewer would: every path `crate::…` and every `super::…` path is resolved to
//! the module path it names, and a file imports the modules of its folder (and of each
//! folder above it) that those paths name, directly or through a name the folder's `mod.rs`
//! or `lib.rs` re-exports (test modules, which may use anything, and comments are left out).

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

/// The module path of a file under a package's `src` (`["run", "floor"]` for `run/floor.rs`,
/// `["run"]` for `run/mod.rs`, `[]` for `lib.rs`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    if last != "mod.rs" && !(parts.is_empty() && last == "lib.rs") {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
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

/// The items of a `{ … }` group's inside, split at its top-level commas.
fn group_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut from) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[from..]);
    items
}

/// Adds to `out` the paths a use tree names (`a::b::{c, d::{e, self}}` names `a::b::c`,
/// `a::b::d::e` and `a::b::d`), each after `prefix`; the tree ends where a path does.
fn expand(tree: &str, prefix: &[String], out: &mut BTreeSet<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut rest = tree;
    loop {
        rest = rest.trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let end = matching_brace(group);
            for item in group_items(&group[..end]) {
                if !item.trim().is_empty() {
                    expand(item, &path, out);
                }
            }
            return;
        }
        let ident: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            break;
        }
        rest = &rest[ident.len()..];
        if ident != "self" {
            path.push(ident);
        }
        match rest.trim_start().strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    out.insert(path);
}

/// Whether the code at byte `i` continues a longer path or name (`a::super::`, `my_crate::`).
fn continues_a_name(code: &str, i: usize) -> bool {
    let b = code.as_bytes();
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':')
}

/// Every path a file's code (module `module`) names from the package's root (`crate::…`)
/// or from a module above its own (`super::…`), as module paths from the root:
/// `crate::run::{floor::Floor, Feature}` names `run::floor::Floor` and `run::Feature`;
/// `super::play::X` in `explore/turn.rs` names `explore::play::X`.
fn paths_named(code: &str, module: &[String]) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        if !continues_a_name(code, i) {
            expand(&code[i + "crate::".len()..], &[], &mut out);
        }
    }
    for (i, _) in code.match_indices("super::") {
        if continues_a_name(code, i) {
            continue;
        }
        let mut ups = 0;
        let mut rest = &code[i..];
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        if ups > module.len() {
            continue;
        }
        // `super` of a file module `a/b` is `a`; of `a/mod.rs` (module `a`) the root.
        expand(rest, &module[..module.len() - ups], &mut out);
    }
    out
}

/// The names a folder's root file (`lib.rs`, `mod.rs`) re-exports from the folder's
/// `children` (`pub use play::ExploreState;`), each with the child it comes from.
fn reexports(code: &str, children: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for statement in code.split(';') {
        let s = statement.trim_start();
        let Some(tree) = ["pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| s.strip_prefix(p))
        else {
            continue;
        };
        let mut paths = BTreeSet::new();
        expand(tree, &[], &mut paths);
        for p in paths {
            if p.len() >= 2 && children.contains(&p[0]) {
                out.insert(p[p.len() - 1].clone(), p[0].clone());
            }
        }
    }
    out
}

/// A package's import graphs, by folder: for every folder of its `src` (the root, `[]`,
/// included), each module of the folder (a file, or a subfolder with everything in it) and
/// the modules of the same folder it imports, by name or through a name the folder's root
/// file (`lib.rs`, `mod.rs`) re-exports from one of them. The root file itself is no module
/// of its folder: it declares them.
type Graphs = BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>>;

/// [`Graphs`] of the package whose sources are under `src`.
fn package_graphs(src: &Path) -> Graphs {
    let mut files = Vec::new();
    for file in rust_files(src) {
        let module = module_path(file.strip_prefix(src).unwrap());
        let code = code_of(&fs::read_to_string(&file).unwrap());
        files.push((module, code));
    }
    let mut graphs = Graphs::new();
    for (module, _) in &files {
        for k in 0..module.len() {
            graphs
                .entry(module[..k].to_vec())
                .or_default()
                .entry(module[k].clone())
                .or_default();
        }
    }
    let mut aliases: BTreeMap<Vec<String>, BTreeMap<String, String>> = BTreeMap::new();
    for (module, code) in &files {
        if let Some(graph) = graphs.get(module) {
            let children = graph.keys().cloned().collect();
            aliases.insert(module.clone(), reexports(code, &children));
        }
    }
    for (module, code) in &files {
        let named = paths_named(code, module);
        for k in 0..module.len() {
            let folder = &module[..k];
            let own = &module[k];
            let graph = graphs.get_mut(folder).unwrap();
            for path in named
                .iter()
                .filter(|p| p.len() > k && p.starts_with(folder))
            {
                let name = &path[k];
                let target = if graph.contains_key(name) {
                    Some(name.clone())
                } else {
                    aliases.get(folder).and_then(|a| a.get(name)).cloned()
                };
                if let Some(t) = target.filter(|t| t != own) {
                    graph.get_mut(own).unwrap().insert(t);
                }
            }
        }
    }
    graphs
}

/// The game package's import graphs (`crates/game/src`).
fn game_graphs() -> Graphs {
    package_graphs(&Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/game/src"))
}

/// Each workspace package's name and the folders its library and programs are in (the
/// folder of each target's root file: `src` of `src/lib.rs` and `src/main.rs`), from
/// `cargo metadata`. Tests, examples and benchmarks are left out: they may use anything.
fn package_sources(meta: &serde_json::Value) -> BTreeMap<String, BTreeSet<PathBuf>> {
    let members = meta["workspace_members"].as_array().unwrap();
    let mut out: BTreeMap<String, BTreeSet<PathBuf>> = BTreeMap::new();
    for package in meta["packages"].as_array().unwrap() {
        if !members.contains(&package["id"]) {
            continue;
        }
        let name = package["name"].as_str().unwrap().to_owned();
        let folders = out.entry(name).or_default();
        for target in package["targets"].as_array().unwrap() {
            let kinds = target["kind"].as_array().unwrap();
            if kinds
                .iter()
                .any(|k| k == "lib" || k == "bin" || k == "cdylib" || k == "rlib")
            {
                let root = Path::new(target["src_path"].as_str().unwrap());
                folders.insert(root.parent().unwrap().to_path_buf());
            }
        }
    }
    out
}

/// The graph of the game package's top-level modules.
fn game_graph() -> BTreeMap<String, BTreeSet<String>> {
    game_graphs().remove(&Vec::new()).unwrap()
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

/// Paths as strings (`a::b`), for readable expectations.
fn joined(paths: &BTreeSet<Vec<String>>) -> BTreeSet<String> {
    paths.iter().map(|p| p.join("::")).collect()
}

#[test]
fn the_parser_reads_every_form_of_import() {
    let module = vec!["run".to_string(), "floor".to_string()];
    let code = "use super::route::Router;\nuse crate::base::{GameRng, terrain_under};\n\
                use super::super::{game::GameState, rules};\nlet x = crate::explore::f();\n\
                use crate::explore::{play::{self, X}, turn};\nlet y = my_crate::z + a::super::b;";
    let expected: BTreeSet<String> = [
        "run::route::Router",
        "base::GameRng",
        "base::terrain_under",
        "game::GameState",
        "rules",
        "explore::f",
        "explore::play",
        "explore::play::X",
        "explore::turn",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(joined(&paths_named(code, &module)), expected);
    // In a folder's root file, `super` is the folder above it.
    let found = paths_named(
        "use super::{action::Action, board::{Board, GridBoard}};",
        &["rules".to_string()],
    );
    assert_eq!(
        joined(&found),
        ["action::Action", "board::Board", "board::GridBoard"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    let children: BTreeSet<String> = ["play", "turn"].iter().map(|s| s.to_string()).collect();
    let names = reexports(
        "pub use play::{ExploreState, InSight};\npub use byog_tile_engine::Direction;\n\
         pub(crate) use turn::TurnCache;\nuse play::Hidden;",
        &children,
    );
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        [
            ("ExploreState", "play"),
            ("InSight", "play"),
            ("TurnCache", "turn")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert_eq!(code_of("use a;\n// use b;\n#[cfg(test)]\nuse c;"), "use a;");
}

#[test]
fn the_graphs_hold_every_folder_and_see_through_reexports() {
    // A package whose folder `a` has a circle only through the name its `mod.rs` re-exports,
    // and whose root imports `a` only through the name `lib.rs` re-exports.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    fs::create_dir(src.join("a")).unwrap();
    for (file, code) in [
        ("lib.rs", "pub mod a;\npub mod b;\npub use a::Y;\n"),
        ("b.rs", "use crate::Y;\n"),
        ("a/mod.rs", "pub mod x;\npub mod y;\npub use y::Y;\n"),
        ("a/x.rs", "use super::Y;\n"),
        ("a/y.rs", "pub struct Y;\nfn f() { super::x::g() }\n"),
    ] {
        fs::write(src.join(file), code).unwrap();
    }
    let graphs = package_graphs(src);
    let edges = |folder: &[&str], module: &str| -> Vec<String> {
        let folder: Vec<String> = folder.iter().map(|s| s.to_string()).collect();
        graphs[&folder][module].iter().cloned().collect()
    };
    assert_eq!(edges(&[], "b"), ["a"]);
    assert_eq!(edges(&[], "a"), Vec::<String>::new());
    assert_eq!(edges(&["a"], "x"), ["y"]);
    assert_eq!(edges(&["a"], "y"), ["x"]);
    assert!(find_circle(&graphs[&vec!["a".to_string()]]).is_some());
    assert!(find_circle(&graphs[&Vec::new()]).is_none());
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
fn every_packages_modules_import_each_other_without_a_circle() {
    let sources = package_sources(&metadata());
    // Every package of the map is read, from its own folder.
    assert_eq!(
        sources.keys().map(String::as_str).collect::<BTreeSet<_>>(),
        LAYERS
            .iter()
            .map(|(name, _)| *name)
            .collect::<BTreeSet<_>>()
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(sources["byog-shell"].contains(&root.join("crates/shell/src")));
    assert!(sources["byog"].contains(&root.join("src")));
    let mut circles = Vec::new();
    for (package, folders) in &sources {
        for src in folders {
            let graphs = package_graphs(src);
            if package == "byog-game" {
                // The rules use the game; inside `explore`, the monsters' turn plays on the
                // exploration.
                assert!(graphs[&Vec::new()]["rules"].contains("game"), "{graphs:?}");
                assert!(
                    graphs[&vec!["explore".to_string()]]["turn"].contains("play"),
                    "{graphs:?}"
                );
            }
            if package == "byog-shell" {
                // The graphs are really read: the session shows the frame, and inside the
                // session the worker's keys carry the walk they are steps of.
                assert!(
                    graphs[&Vec::new()]["session"].contains("frame"),
                    "{graphs:?}"
                );
                assert!(
                    graphs[&vec!["session".to_string()]]["worker"].contains("walk"),
                    "{graphs:?}"
                );
            }
            for (folder, graph) in &graphs {
                if let Some(circle) = find_circle(graph) {
                    let mut at = src.strip_prefix(root).unwrap_or(src).to_path_buf();
                    at.extend(folder);
                    circles.push(format!(
                        "{package}: {} has an import circle: {}",
                        at.display(),
                        circle.join(" -> ")
                    ));
                }
            }
        }
    }
    assert!(circles.is_empty(), "{}", circles.join("\n"));
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

/// The packages a package's tests, examples and benchmarks may use beyond those below it (its
/// dev-dependencies): the web server's tests play whole games with the solver.
const DEV_BESIDE: &[(&str, &str)] = &[("byog-web", "byog-players")];

#[test]
fn each_packages_tests_use_only_the_packages_below_it() {
    let meta = metadata();
    let layers: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let graph = dependency_graph(&meta, true);
    for (member, allowed) in &layers {
        for dep in graph[*member]
            .iter()
            .filter(|d| layers.contains_key(d.as_str()))
        {
            assert!(
                allowed.contains(&dep.as_str()) || DEV_BESIDE.contains(&(*member, dep.as_str())),
                "{member}'s tests use {dep}, which is not below it (ARCHITECTURE.md)"
            );
        }
    }
    // The check can fail: the players' tests use the game (with its test support) and the
    // web's the players, which sit beside it.
    assert!(graph["byog-players"].contains("byog-game"));
    assert!(graph["byog-web"].contains("byog-players"));
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
