//! The server's limits (`docs/web.md`, "Limits"): messages and keys a second per
//! connection, connections per address, sign-in attempts per address and per name, accounts
//! and games made per address, and the pool that runs argon2. Each is in memory: a restart
//! forgets them, which costs an attacker nothing they could not get by waiting.
//!
//! Every limit is counted before the work it guards: an attempt is [`Attempts::reserve`]d
//! before its password is hashed, a game's [`Rates::take`] before it is made.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// A token bucket: `rate` tokens a second, at most `burst` saved up (keys a second on one
/// connection).
#[derive(Debug, Clone)]
pub struct Bucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            rate,
            burst,
            tokens: burst,
            at: Instant::now(),
        }
    }

    fn refill(&mut self) {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
    }

    /// Takes `n` tokens if there are that many; whether it could.
    pub fn take(&mut self, n: f64) -> bool {
        self.refill();
        if self.tokens >= n {
            self.tokens -= n;
            true
        } else {
            false
        }
    }

    /// How long until `n` tokens are there (zero when they are now, an hour at most); takes
    /// none.
    pub fn wait_for(&mut self, n: f64) -> Duration {
        self.refill();
        if self.tokens >= n {
            Duration::ZERO
        } else if self.rate <= 0.0 {
            Duration::from_secs(3600)
        } else {
            Duration::from_secs_f64(((n - self.tokens) / self.rate).min(3600.0))
        }
    }

    /// Takes `n` tokens whether or not they are there (the bucket goes into debt, at most
    /// `burst` deep); how long until it is out of debt, or `None` when it is not in debt.
    /// A reader that waits that long before its next message keeps to `rate` exactly.
    pub fn spend(&mut self, n: f64) -> Option<Duration> {
        self.refill();
        self.tokens = (self.tokens - n).max(-self.burst);
        (self.tokens < 0.0).then(|| self.wait_for(0.0))
    }
}

/// Open connections per address, each held by a [`Slot`] that gives it back when dropped.
#[derive(Debug, Clone)]
pub struct Connections {
    max: u32,
    open: Arc<Mutex<BTreeMap<IpAddr, u32>>>,
}

/// One open connection of an address.
#[derive(Debug)]
pub struct Slot {
    addr: IpAddr,
    open: Arc<Mutex<BTreeMap<IpAddr, u32>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.addr) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.addr);
            }
        }
    }
}

impl Connections {
    /// At most `max` connections an address.
    pub fn new(max: u32) -> Connections {
        Connections {
            max,
            open: Arc::default(),
        }
    }

    /// A slot for one more connection from `addr`, or `None` when it has `max` open.
    pub fn open(&self, addr: IpAddr) -> Option<Slot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(addr).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(Slot {
            addr,
            open: Arc::clone(&self.open),
        })
    }

    /// Connections open from `addr`.
    pub fn count(&self, addr: IpAddr) -> u32 {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.get(&addr).copied().unwrap_or(0)
    }
}

/// Failed attempts (sign-ins, sign-ups) per key (an address, a name) within a window.
#[derive(Debug, Clone)]
pub struct Attempts {
    max: usize,
    window: Duration,
    seen: Arc<Mutex<BTreeMap<String, Vec<Instant>>>>,
}

impl Attempts {
    /// At most `max` failures of a key within `window`.
    pub fn new(max: usize, window: Duration) -> Attempts {
        Attempts {
            max,
            window,
            seen: Arc::default(),
        }
    }

    /// Seconds until `key` may try again, or `None` when it may now.
    pub fn blocked(&self, key: &str) -> Option<u64> {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let list = seen.get_mut(key)?;
        list.retain(|t| now.duration_since(*t) < self.window);
        if list.len() >= self.max {
            let oldest = list[0];
            let wait = self.window.saturating_sub(now.duration_since(oldest));
            Some(wait.as_secs().max(1))
        } else {
            None
        }
    }

    /// Counts a failure of `key`.
    pub fn fail(&self, key: &str) {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        self.forget_stale(&mut seen, now);
        seen.entry(key.to_owned()).or_default().push(now);
    }

    fn forget_stale(&self, seen: &mut BTreeMap<String, Vec<Instant>>, now: Instant) {
        if seen.len() > 100_000 {
            // Forget the stale keys rather than grow without end.
            seen.retain(|_, l| {
                l.last()
                    .is_some_and(|t| now.duration_since(*t) < self.window)
            });
        }
    }

    /// Counts an attempt of every one of `keys` before its work is done, if none of them is
    /// blocked: one check and one count under one lock, so that attempts sent at once are
    /// counted one by one and the `max + 1`th is refused whatever the first ones' outcome.
    /// The attempt stays counted (a failure) unless it is [`Attempts::release`]d.
    ///
    /// # Errors
    /// The seconds until the first blocked key may try again.
    pub fn reserve(&self, keys: &[&str]) -> Result<Reserved, u64> {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let mut wait = None;
        for key in keys {
            if let Some(list) = seen.get_mut(*key) {
                list.retain(|t| now.duration_since(*t) < self.window);
                if list.len() >= self.max {
                    let w = self.window.saturating_sub(now.duration_since(list[0]));
                    wait = wait.max(Some(w.as_secs().max(1)));
                }
            }
        }
        if let Some(w) = wait {
            return Err(w);
        }
        self.forget_stale(&mut seen, now);
        for key in keys {
            seen.entry((*key).to_owned()).or_default().push(now);
        }
        Ok(Reserved {
            keys: keys.iter().map(|k| (*k).to_owned()).collect(),
            at: now,
        })
    }

    /// Takes back a reserved attempt that did not fail (it succeeded, or was refused before
    /// any work for another reason).
    pub fn release(&self, reserved: Reserved) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        for key in &reserved.keys {
            if let Some(list) = seen.get_mut(key) {
                if let Some(i) = list.iter().rposition(|t| *t == reserved.at) {
                    list.remove(i);
                }
                if list.is_empty() {
                    seen.remove(key);
                }
            }
        }
    }

    /// Forgets `key`'s failures (a sign-in that succeeded).
    pub fn clear(&self, key: &str) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.remove(key);
    }
}

/// An attempt counted by [`Attempts::reserve`]: a failure unless released.
#[derive(Debug)]
#[must_use = "an attempt stays counted unless released"]
pub struct Reserved {
    keys: Vec<String>,
    at: Instant,
}

/// A token bucket per key (an address, an account): things made a minute, `burst` at once.
#[derive(Debug, Clone)]
pub struct Rates {
    rate: f64,
    burst: f64,
    buckets: Arc<Mutex<BTreeMap<String, Bucket>>>,
}

impl Rates {
    /// `per_minute` a minute per key on average, `burst` at once.
    pub fn new(per_minute: f64, burst: f64) -> Rates {
        Rates {
            rate: per_minute / 60.0,
            burst,
            buckets: Arc::default(),
        }
    }

    /// Takes one token from each of `keys` if each has one (none taken otherwise).
    ///
    /// # Errors
    /// The seconds until every key has a token again (at least 1).
    pub fn take(&self, keys: &[&str]) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // Full buckets are the same as no bucket: forget them.
            buckets.retain(|_, b| b.wait_for(b.burst) > Duration::ZERO);
        }
        let mut wait = Duration::ZERO;
        for key in keys {
            let b = buckets
                .entry((*key).to_owned())
                .or_insert_with(|| Bucket::new(self.rate, self.burst));
            wait = wait.max(b.wait_for(1.0));
        }
        if wait > Duration::ZERO {
            return Err(wait.as_secs_f64().ceil().max(1.0) as u64);
        }
        for key in keys {
            if let Some(b) = buckets.get_mut(*key) {
                b.take(1.0);
            }
        }
        Ok(())
    }
}

/// Why the [`Hasher`] did not run a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// Its workers are busy and its queue is full.
    #[error("the server is busy checking passwords: try again in a few seconds")]
    Busy,
    /// Its workers stopped (a job panicked, or the server is stopping).
    #[error("the password workers stopped")]
    Stopped,
}

type Job = Box<dyn FnOnce() + Send>;

/// The pool that runs argon2 (`docs/web.md`, "Limits"): `workers` threads of its own, as many
/// as the cores by default, and a queue of at most `queue` jobs; a job past those is refused
/// at once ([`HashError::Busy`]), so a burst of sign-ups costs at most `workers` hashes'
/// memory (19 MiB each) and waits at most `queue / workers` hashes' time.
///
/// The threads are the pool's own rather than tokio's blocking pool: each thread's
/// allocator keeps the 19 MiB of its last hash for the next, so the memory kept is that of
/// `workers` hashes, where the blocking pool's changing threads would keep one per arena.
pub struct Hasher {
    jobs: mpsc::SyncSender<Job>,
    runs: Arc<AtomicU64>,
    workers: usize,
    queue: usize,
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hasher")
            .field("workers", &self.workers)
            .field("queue", &self.queue)
            .field("runs", &self.runs())
            .finish()
    }
}

impl Hasher {
    /// `workers` threads (0: one a core) and a queue of `queue` jobs. The threads end when
    /// the pool is dropped.
    pub fn new(workers: usize, queue: usize) -> Hasher {
        let workers = if workers == 0 {
            std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
        } else {
            workers
        };
        let (jobs, rx) = mpsc::sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..workers {
            let rx = Arc::clone(&rx);
            let spawned = std::thread::Builder::new()
                .name(format!("byog-argon2-{i}"))
                .spawn(move || {
                    loop {
                        let job = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok(job) = job else { return };
                        // A job that panics loses its answer (the caller sees `Stopped`),
                        // not the worker.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    }
                });
            // Without a thread the jobs wait in the queue for the others; with none at all
            // every job is refused as `Busy` once the queue is full.
            drop(spawned);
        }
        Hasher {
            jobs,
            runs: Arc::default(),
            workers,
            queue,
        }
    }

    /// Runs `f` on a worker and answers what it returns.
    ///
    /// # Errors
    /// [`HashError::Busy`] at once when the queue is full; [`HashError::Stopped`] when the
    /// job was lost.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let runs = Arc::clone(&self.runs);
        let job: Job = Box::new(move || {
            runs.fetch_add(1, Ordering::Relaxed);
            let _ = tx.send(f());
        });
        match self.jobs.try_send(job) {
            Ok(()) => rx.await.map_err(|_| HashError::Stopped),
            Err(mpsc::TrySendError::Full(_)) => Err(HashError::Busy),
            Err(mpsc::TrySendError::Disconnected(_)) => Err(HashError::Stopped),
        }
    }

    /// Jobs started so far.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Its worker threads.
    pub fn workers(&self) -> usize {
        self.workers
    }
}

/// The origins a server accepts on a POST and on its websocket (`docs/web.md`, "Limits"):
/// `http://` with the port it listens on and `localhost`, a loopback address, the address it
/// is bound to (when it is bound to one), or the address the connection reached, written as
/// an address; and each `--origin`. Never the request's own `Host` header: a page served
/// from a name that an attacker points at this machine (DNS rebinding) sends that name as
/// its `Host` and its `Origin` alike.
#[derive(Debug, Clone)]
pub struct Origins {
    port: u16,
    bound: Option<IpAddr>,
    extra: Vec<String>,
}

impl Origins {
    /// The origins of a server listening on `bound`, and `extra` (`--origin`, e.g.
    /// `https://byog.example`; a trailing `/` is ignored, case too).
    pub fn new(bound: SocketAddr, extra: &[String]) -> Origins {
        let ip = bound.ip().to_canonical();
        Origins {
            port: bound.port(),
            bound: (!ip.is_unspecified()).then_some(ip),
            extra: extra
                .iter()
                .map(|o| o.trim_end_matches('/').to_ascii_lowercase())
                .collect(),
        }
    }

    /// Whether `origin` (an `Origin` header's value) is accepted on a connection that reached
    /// the server at `local`.
    pub fn allows(&self, origin: &str, local: Option<SocketAddr>) -> bool {
        if self.extra.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
            return true;
        }
        let Some(rest) = origin.strip_prefix("http://") else {
            return false;
        };
        let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
            let Some((host, after)) = v6.split_once(']') else {
                return false;
            };
            (host, after)
        } else {
            match rest.rsplit_once(':') {
                // An IPv6 address is written in brackets.
                Some((host, _)) if host.contains(':') => return false,
                Some((host, _)) => (host, &rest[host.len()..]),
                None => (rest, ""),
            }
        };
        let port = match port {
            "" => 80,
            p => match p.strip_prefix(':').and_then(|p| p.parse::<u16>().ok()) {
                Some(p) => p,
                None => return false,
            },
        };
        if port != self.port {
            return false;
        }
        if host.eq_ignore_ascii_case("localhost") {
            return true;
        }
        let Ok(ip) = host.parse::<IpAddr>().map(|ip| ip.to_canonical()) else {
            return false;
        };
        ip.is_loopback()
            || Some(ip) == self.bound
            || local.is_some_and(|l| l.ip().to_canonical() == ip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_slots_back_when_connections_close() {
        let c = Connections::new(2);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let s1 = c.open(a).unwrap();
        let _s2 = c.open(a).unwrap();
        assert!(c.open(a).is_none());
        assert!(c.open(b).is_some(), "another address is counted apart");
        drop(s1);
        assert!(c.open(a).is_some());
    }

    #[test]
    fn failures_block_a_key_until_the_window_passes() {
        let at = Attempts::new(3, Duration::from_millis(200));
        for _ in 0..3 {
            assert_eq!(at.blocked("x"), None);
            at.fail("x");
        }
        assert!(at.blocked("x").is_some());
        assert_eq!(at.blocked("y"), None);
        std::thread::sleep(Duration::from_millis(220));
        assert_eq!(at.blocked("x"), None);
    }

    #[test]
    fn reserved_attempts_count_before_their_outcome_and_release_takes_them_back() {
        let at = Attempts::new(2, Duration::from_secs(60));
        let a = at.reserve(&["addr", "name"]).unwrap();
        let _b = at.reserve(&["addr", "other"]).unwrap();
        // Two attempts in flight: the address is full, whatever their outcome.
        assert!(at.reserve(&["addr", "third"]).is_err());
        assert!(
            at.reserve(&["elsewhere", "name"]).is_ok(),
            "the name has room"
        );
        at.release(a);
        assert!(
            at.reserve(&["addr", "fourth"]).is_ok(),
            "a released attempt"
        );
        assert!(at.reserve(&["addr", "fifth"]).is_err());
    }

    #[test]
    fn rates_take_from_every_key_or_none() {
        let r = Rates::new(60.0, 2.0);
        assert!(r.take(&["a", "x"]).is_ok());
        assert!(r.take(&["a", "y"]).is_ok());
        let wait = r.take(&["a", "z"]).unwrap_err();
        assert!((1..=2).contains(&wait), "{wait}");
        // `z` was not charged for the refused take.
        assert!(r.take(&["b", "z"]).is_ok());
        assert!(r.take(&["c", "z"]).is_ok());
        assert!(r.take(&["d", "z"]).is_err());
    }

    #[test]
    fn a_spent_bucket_waits_out_its_debt() {
        let mut b = Bucket::new(100.0, 2.0);
        assert_eq!(b.spend(2.0), None);
        let wait = b.spend(1.0).unwrap();
        assert!(wait > Duration::from_millis(5) && wait <= Duration::from_millis(10));
        std::thread::sleep(wait);
        assert_eq!(b.spend(0.0), None);
    }

    #[test]
    fn the_hasher_runs_workers_and_queue_and_refuses_the_rest() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let h = Arc::new(Hasher::new(1, 2));
            let (go, wait) = std::sync::mpsc::channel::<()>();
            let wait = Arc::new(Mutex::new(wait));
            let mut tasks = Vec::new();
            // One job holds the worker until told; two wait in the queue.
            for _ in 0..3 {
                let (h, wait) = (Arc::clone(&h), Arc::clone(&wait));
                tasks.push(tokio::spawn(async move {
                    h.run(move || wait.lock().unwrap().recv().is_ok()).await
                }));
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            assert_eq!(h.run(|| true).await, Err(HashError::Busy));
            for _ in 0..3 {
                go.send(()).unwrap();
            }
            for t in tasks {
                assert_eq!(t.await.unwrap(), Ok(true));
            }
            assert_eq!(h.runs(), 3);
            assert_eq!(h.run(|| 7).await, Ok(7));
        });
    }

    #[test]
    fn origins_are_the_servers_own_addresses_at_its_port_and_those_named() {
        let loopback = Origins::new("127.0.0.1:8080".parse().unwrap(), &[]);
        for ok in [
            "http://localhost:8080",
            "http://LOCALHOST:8080",
            "http://127.0.0.1:8080",
            "http://127.1.2.3:8080",
            "http://[::1]:8080",
        ] {
            assert!(loopback.allows(ok, None), "{ok}");
        }
        for refused in [
            "http://evil.example:8080",
            "http://localhost.evil.example:8080",
            "http://localhost:8081",
            "http://localhost",
            "https://localhost:8080",
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:08080x",
            "http://::1:8080",
            "http://[::1:8080",
            "http://192.168.1.5:8080",
            "null",
            "",
        ] {
            assert!(!loopback.allows(refused, None), "{refused}");
        }
        // Bound to every address: the one a connection reached, written as an address.
        let any = Origins::new("0.0.0.0:80".parse().unwrap(), &[]);
        let reached: SocketAddr = "192.168.1.5:80".parse().unwrap();
        assert!(any.allows("http://192.168.1.5", Some(reached)));
        assert!(any.allows("http://192.168.1.5:80", Some(reached)));
        assert!(any.allows("http://localhost", Some(reached)));
        assert!(!any.allows("http://192.168.1.6", Some(reached)));
        assert!(!any.allows("http://byog.lan", Some(reached)));
        let mapped: SocketAddr = "[::ffff:192.168.1.5]:80".parse().unwrap();
        assert!(any.allows("http://192.168.1.5", Some(mapped)));
        // Bound to one address; and the origins named.
        let named = Origins::new(
            "10.0.0.2:9000".parse().unwrap(),
            &["https://Byog.Example/".to_owned()],
        );
        assert!(named.allows("http://10.0.0.2:9000", None));
        assert!(named.allows("https://byog.example", None));
        assert!(!named.allows("http://byog.example", None));
        assert!(!named.allows("https://byog.example.evil", None));
    }

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let mut b = Bucket::new(1000.0, 10.0);
        assert!(b.take(10.0));
        assert!(!b.take(5.0));
        std::thread::sleep(Duration::from_millis(10));
        assert!(b.take(5.0));
    }
}
