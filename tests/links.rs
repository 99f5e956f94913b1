//! The project's documents link only to what is there: every relative link of the README,
//! ARCHITECTURE.md and `docs/*.md` names a file or folder of the repository (a moved file
//! leaves no dead link behind), and none points outside the repository.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The markdown documents: the README, ARCHITECTURE.md and every page of docs/.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for entry in fs::read_dir(root().join("docs")).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The targets of a document's inline links `[text](target)`, anchors left off.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        let target = rest[..end].split('#').next().unwrap_or("").trim();
        if !target.is_empty() {
            out.push(target.to_owned());
        }
        rest = &rest[end..];
    }
    out
}

#[test]
fn every_relative_link_names_a_file_of_the_repository() {
    let root = fs::canonicalize(root()).unwrap();
    let mut checked = 0;
    for doc in documents() {
        let text = fs::read_to_string(&doc).unwrap();
        let dir = doc.parent().unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let path: &Path = Path::new(&target);
            let resolved = dir.join(path);
            let Ok(found) = fs::canonicalize(&resolved) else {
                panic!("{}: the link {target} names nothing", doc.display());
            };
            assert!(
                found.starts_with(&root),
                "{}: the link {target} leaves the repository",
                doc.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} links were checked");
}
