//! The server's limits (`docs/web.md`, "Limits"): keys a second per connection, connections
//! per address, failed sign-ins per address and per name. Each is in memory: a restart
//! forgets them, which costs an attacker nothing they could not get by waiting.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
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

    /// Takes `n` tokens if there are that many; whether it could.
    pub fn take(&mut self, n: f64) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= n {
            self.tokens -= n;
            true
        } else {
            false
        }
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
        if seen.len() > 100_000 {
            // Forget the stale keys rather than grow without end.
            seen.retain(|_, l| {
                l.last()
                    .is_some_and(|t| now.duration_since(*t) < self.window)
            });
        }
        seen.entry(key.to_owned()).or_default().push(now);
    }

    /// Forgets `key`'s failures (a sign-in that succeeded).
    pub fn clear(&self, key: &str) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.remove(key);
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
    fn a_bucket_allows_its_burst_then_its_rate() {
        let mut b = Bucket::new(1000.0, 10.0);
        assert!(b.take(10.0));
        assert!(!b.take(5.0));
        std::thread::sleep(Duration::from_millis(10));
        assert!(b.take(5.0));
    }
}
