//! The load benchmark of `byog serve` (SPEC targets, `docs/web.md` "Measured"): a server in
//! a child process, N websocket players on loopback each sending a key every 1/R seconds
//! for S seconds; prints the key-to-frame latency (p50, p99, max), the frames lost (batches
//! never answered, answered out of order or twice), the server's memory per live game
//! (its resident set with the games live, less its resident set before, over N), the
//! frames' size and the run's throughput.
//!
//! `cargo run --release -p byog-web --example load -- [PLAYERS] [KEYS_A_SECOND] [SECONDS]`
//! (default 1000 5 60). `BYOG_LOAD_WRAP` runs the server under a command, e.g.
//! `BYOG_LOAD_WRAP="valgrind --tool=callgrind"` for a profile of its instructions.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// Runs the server (the child process): `load --serve DIR`, printing its port on stdout.
fn serve(dir: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let options = byog_web::ServeOptions {
            data: dir.into(),
            // Every player comes from this one address: its per-address limits are
            // lifted; every limit of a connection stays as `byog serve` has it.
            limits: byog_web::Limits {
                connections_per_address: 1_000_000,
                http_connections_per_address: 1_000_000,
                games_burst: 1_000_000.0,
                ..byog_web::Limits::default()
            },
            ..byog_web::ServeOptions::default()
        };
        let app = byog_web::App::new(&options).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("{}", listener.local_addr().unwrap().port());
        byog_web::serve_on(app, listener, std::future::pending())
            .await
            .unwrap();
    });
}

/// The resident set of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

async fn post(port: u16, path: &str, body: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out.split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default()
}

/// A frame's `ack`, read without parsing the frame (the client must cost little beside
/// the server it measures).
fn ack_of(frame: &str) -> u64 {
    frame
        .find(r#""ack":"#)
        .map(|i| &frame[i + 6..])
        .map(|rest| {
            rest.bytes()
                .take_while(u8::is_ascii_digit)
                .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'))
        })
        .unwrap_or(0)
}

/// CPU seconds process `pid` has used (user and system).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of stat (utime, stime), 11 and 12 after the command's name.
    (ticks(11) + ticks(12)) / 100.0
}

#[derive(Default)]
struct Tally {
    sent: AtomicU64,
    answered: AtomicU64,
    lost: AtomicU64,
    bytes: AtomicU64,
    frames: AtomicU64,
}

/// One player: a new run, then a key every `period` until `end`; its latencies in µs.
async fn player(
    port: u16,
    seed: u64,
    period: Duration,
    start: tokio::time::Instant,
    end: tokio::time::Instant,
    tally: Arc<Tally>,
) -> Vec<u32> {
    let body = post(
        port,
        "/api/play",
        &format!(r#"{{"mode":"run","board":"seeded","seed":{seed}}}"#),
    )
    .await;
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let (game, secret) = (
        v["game"].as_str().unwrap().to_owned(),
        v["secret"].as_str().unwrap().to_owned(),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/ws"))
        .await
        .unwrap();
    ws.send(Message::Text(
        format!(r#"{{"type":"play","game":"{game}","secret":"{secret}"}}"#).into(),
    ))
    .await
    .unwrap();
    let mut latencies = Vec::new();
    let mut sent_at: std::collections::BTreeMap<u64, Instant> = Default::default();
    let mut n = 0u64;
    let mut acked = 0u64;
    let mut tick = tokio::time::interval_at(start, period);
    let keys = ['W', 'A', 'S', 'D'];
    let mut rng = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    loop {
        tokio::select! {
            _ = tick.tick() => {
                if tokio::time::Instant::now() >= end {
                    break;
                }
                n += 1;
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let k = keys[(rng >> 33) as usize % 4];
                sent_at.insert(n, Instant::now());
                tally.sent.fetch_add(1, Ordering::Relaxed);
                ws.send(Message::Text(format!(r#"{{"type":"keys","n":{n},"keys":"{k}"}}"#).into()))
                    .await
                    .unwrap();
            }
            msg = ws.next() => {
                let Some(Ok(Message::Text(t))) = msg else { continue };
                if !t.as_str().starts_with(r#"{"type":"frame""#) {
                    continue;
                }
                tally.bytes.fetch_add(t.len() as u64, Ordering::Relaxed);
                tally.frames.fetch_add(1, Ordering::Relaxed);
                let ack = ack_of(t.as_str());
                if ack > acked {
                    if ack != acked + 1 {
                        tally.lost.fetch_add(ack - acked - 1, Ordering::Relaxed);
                    }
                    acked = ack;
                    if let Some(t0) = sent_at.remove(&ack) {
                        latencies.push(t0.elapsed().as_micros() as u32);
                        tally.answered.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }
    }
    // The last answers.
    let grace = tokio::time::Instant::now() + Duration::from_secs(5);
    while acked < n && tokio::time::Instant::now() < grace {
        let Ok(Some(Ok(Message::Text(t)))) = tokio::time::timeout_at(grace, ws.next()).await else {
            break;
        };
        let ack = ack_of(t.as_str());
        if ack > acked {
            acked = ack;
            if let Some(t0) = sent_at.remove(&ack) {
                latencies.push(t0.elapsed().as_micros() as u32);
                tally.answered.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    tally.lost.fetch_add(n - acked, Ordering::Relaxed);
    let _ = ws.close(None).await;
    latencies
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--serve") {
        return serve(&args[2]);
    }
    let players: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let rate: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let seconds: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(60);
    let dir = tempfile::tempdir().unwrap();
    // `BYOG_LOAD_WRAP="valgrind --tool=callgrind"` runs the server under that command (its
    // process is the server's: valgrind runs it in its own).
    let wrap = std::env::var("BYOG_LOAD_WRAP").unwrap_or_default();
    let mut command: Vec<String> = wrap.split_whitespace().map(str::to_owned).collect();
    command.push(std::env::current_exe().unwrap().display().to_string());
    let mut child = std::process::Command::new(&command[0])
        .args(&command[1..])
        .args(["--serve", dir.path().to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let port: u16 = line.trim().parse().unwrap();
    let pid = child.id();
    std::thread::sleep(Duration::from_millis(300));
    let base_rss = rss_kib(pid);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let tally = Arc::new(Tally::default());
    let cpu_before = cpu_seconds(pid);
    let wall = Instant::now();
    let (latencies, live_rss) = runtime.block_on(async {
        let now = tokio::time::Instant::now();
        // Players join over the first 10 s, each at its own phase; all play `seconds`.
        let ramp = Duration::from_secs(10);
        let start = now + ramp;
        let end = start + Duration::from_secs(seconds);
        let period = Duration::from_secs_f64(1.0 / rate);
        let mut tasks = Vec::new();
        for i in 0..players {
            let tally = Arc::clone(&tally);
            let offset = period.mul_f64(i as f64 / players as f64);
            let join_at = now + ramp.mul_f64(i as f64 / players as f64 * 0.8);
            tasks.push(tokio::spawn(async move {
                tokio::time::sleep_until(join_at).await;
                player(port, 1000 + i, period, start + offset, end, tally).await
            }));
        }
        // The resident set with every game live, half-way through.
        tokio::time::sleep_until(start + Duration::from_secs(seconds / 2)).await;
        let live = rss_kib(pid);
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.unwrap());
        }
        (all, live)
    });
    let cpu = cpu_seconds(pid) - cpu_before;
    let wall = wall.elapsed().as_secs_f64();
    if wrap.is_empty() {
        let _ = child.kill();
    } else {
        // SIGTERM: a wrapping tool writes its report as the server ends (SIGKILL would lose
        // it).
        let _ = std::process::Command::new("kill")
            .arg(pid.to_string())
            .status();
    }
    let _ = child.wait();
    let mut l = latencies;
    l.sort_unstable();
    let pct = |p: f64| {
        l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0) as f64
            / 1000.0
    };
    let frames = tally.frames.load(Ordering::Relaxed).max(1);
    println!(
        "players {players}, {rate} keys/s each, {seconds} s: {} keys sent, {} answered",
        tally.sent.load(Ordering::Relaxed),
        tally.answered.load(Ordering::Relaxed)
    );
    println!(
        "key to frame: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.5),
        pct(0.99),
        l.last().copied().unwrap_or(0) as f64 / 1000.0
    );
    println!("frames lost: {}", tally.lost.load(Ordering::Relaxed));
    println!(
        "server memory: {} KiB before, {} KiB with the games live: {:.1} KiB a game",
        base_rss,
        live_rss,
        (live_rss.saturating_sub(base_rss)) as f64 / players as f64
    );
    println!(
        "server CPU: {cpu:.1} s in {wall:.1} s ({:.0} µs a key answered)",
        cpu * 1e6 / tally.answered.load(Ordering::Relaxed).max(1) as f64
    );
    println!(
        "frames: {} received, {:.0} bytes each on average",
        frames,
        tally.bytes.load(Ordering::Relaxed) as f64 / frames as f64
    );
}
