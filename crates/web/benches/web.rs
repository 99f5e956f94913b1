//! `cargo bench -p byog-web`: verifying a submitted 10-floor run (SPEC: ≤ 5 ms), and a
//! frame's cost on the server (painting it in the shell, encoding it for the wire) with
//! its size in bytes (printed once, `docs/web.md` keeps the figures), and at larger views.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use byog_game::save::MemoryStore;
use byog_shell::{FrameRequest, Shell};
use byog_web::GameOptions;
use byog_web::frame::{GameSummary, encode};
use byog_web::games::shell_options;

/// A won 10-floor run: `R<seed>S` and the solver's keys.
fn won_run(seed: u64) -> String {
    let options = GameOptions::default();
    let mut i = options.interpreter();
    let mut store = MemoryStore::default();
    let start = format!("R{seed}S");
    byog_game::replay::replay(&mut i, &start, &mut store, true, &mut |_| ()).unwrap();
    let keys: String = byog_players::solver::solve(i.game().unwrap())
        .unwrap()
        .into_iter()
        .map(|a| a.key())
        .collect();
    format!("{start}{keys}")
}

fn verify(c: &mut Criterion) {
    let options = GameOptions::default();
    let keys = won_run(42);
    let v = byog_web::verify::verify(&keys, &options).unwrap();
    eprintln!(
        "verify/run-10-floors: {} keys, {} state hashes, score {}",
        keys.len(),
        v.state_hashes.len(),
        v.score
    );
    c.bench_function("verify/run-10-floors", |b| {
        b.iter(|| byog_web::verify::verify(black_box(&keys), &options).unwrap())
    });
    // The same keys through `byog replay`'s loop alone: what verifying adds to it.
    c.bench_function("verify/replay-only", |b| {
        b.iter(|| {
            let mut i = options.interpreter();
            let mut store = MemoryStore::default();
            byog_game::replay::replay(&mut i, black_box(&keys), &mut store, true, &mut |_| ())
                .unwrap();
            i
        })
    });
}

fn frames(c: &mut Criterion) {
    let options = GameOptions::default();
    let req = FrameRequest {
        view_cols: 80,
        view_rows: 30,
        minimap: Some((20, 10)),
        pointer: None,
    };
    for (name, keys) in [
        ("run", "R42SDDDDWWWWAAAA".to_owned()),
        ("explore", "E7SWWWWWWWWWDDDD".to_owned()),
        ("classic", "N1234SWWDD".to_owned()),
    ] {
        let mut shell = Shell::replayed(shell_options(&options, None), &keys).unwrap();
        let frame = shell.frame(0.0, &req);
        let summary = shell.shown_game().map(GameSummary::of);
        let wire = encode("0123456789abcdef", 1, 1, false, &frame, summary.clone());
        let cells = serde_json::to_string(&frame.view).unwrap().len();
        eprintln!(
            "frame/{name}: {} bytes on the wire; the view's cells as JSON objects: {cells} bytes",
            wire.len()
        );
        c.bench_function(&format!("frame/paint/{name}"), |b| {
            b.iter(|| black_box(shell.frame(0.0, &req)))
        });
        c.bench_function(&format!("frame/encode/{name}"), |b| {
            b.iter(|| {
                black_box(encode(
                    "0123456789abcdef",
                    1,
                    1,
                    false,
                    &frame,
                    summary.clone(),
                ))
            })
        });
    }
}

/// A run's frame painted and encoded at larger views: what a view's size costs the server
/// (`docs/web.md`, "Limits": a view is at most 20,000 cells).
fn view_sizes(c: &mut Criterion) {
    let options = GameOptions::default();
    let mut shell = Shell::replayed(shell_options(&options, None), "R42SDDDDWWWWAAAA").unwrap();
    for (cols, rows) in [(80u32, 30u32), (200, 60), (400, 50), (400, 400)] {
        let req = FrameRequest {
            view_cols: cols,
            view_rows: rows,
            minimap: Some(((cols / 4).max(8), (rows / 3).max(4))),
            pointer: None,
        };
        c.bench_function(&format!("frame/view/{cols}x{rows}"), |b| {
            b.iter(|| {
                let frame = shell.frame(0.0, &req);
                let summary = shell.shown_game().map(GameSummary::of);
                black_box(encode("0123456789abcdef", 1, 1, false, &frame, summary))
            })
        });
    }
}

criterion_group!(benches, verify, frames, view_sizes);
criterion_main!(benches);
