//! A server in a child process: this test binary run again with the ignored test
//! [`serve`], so a test can kill it with SIGKILL (a crash, not a graceful stop) or start
//! another server beside it. (`byog serve` itself is the root package's binary, which this
//! package's tests cannot build; the command line's own test of a second server is in the
//! root package's `tests/serve.rs`.)

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The child's data folder.
const DATA: &str = "BYOG_WEB_CHILD_DATA";
/// Where the child writes its port.
const PORT: &str = "BYOG_WEB_CHILD_PORT";
/// Set: the child starts with `--recover`.
const RECOVER: &str = "BYOG_WEB_CHILD_RECOVER";

/// Not a test: the server a [`Child`] runs, until killed. It prints what opening the
/// database found, as `byog serve` does, and exits with code 2 when it cannot start.
#[test]
#[ignore = "run by other tests in a child process"]
fn serve() {
    let (Some(data), Some(port)) = (std::env::var_os(DATA), std::env::var_os(PORT)) else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async move {
        let options = byog_web::ServeOptions {
            data: data.into(),
            recover: std::env::var_os(RECOVER).is_some(),
            ..byog_web::ServeOptions::default()
        };
        let app = match byog_web::App::new(&options).await {
            Ok(app) => app,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        for note in app.store.startup() {
            eprintln!("byog serve: {note}");
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port_file = PathBuf::from(port);
        let tmp = port_file.with_extension("tmp");
        std::fs::write(&tmp, listener.local_addr().unwrap().port().to_string()).unwrap();
        std::fs::rename(&tmp, &port_file).unwrap();
        byog_web::serve_on(app, listener, std::future::pending())
            .await
            .unwrap();
    });
}

/// A running child server; killed when dropped.
pub struct Child {
    process: std::process::Child,
    /// Where it listens.
    pub addr: SocketAddr,
    _control: tempfile::TempDir,
}

impl Child {
    /// Starts a server over data folder `data` and waits until it listens.
    pub fn spawn(data: &Path) -> Child {
        let control = tempfile::tempdir().unwrap();
        let port = control.path().join("port");
        let mut process = Command::new(std::env::current_exe().unwrap())
            .args([
                "--ignored",
                "--exact",
                "child::serve",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(DATA, data)
            .env(PORT, &port)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        for _ in 0..800 {
            if let Ok(p) = std::fs::read_to_string(&port) {
                return Child {
                    process,
                    addr: format!("127.0.0.1:{p}").parse().unwrap(),
                    _control: control,
                };
            }
            if let Ok(Some(status)) = process.try_wait() {
                panic!("the child server exited: {status}");
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        let _ = process.kill();
        let _ = process.wait();
        panic!("the child server did not start");
    }

    /// Starts a server with `--recover` over `data`, its files limited to `kib` KiB each
    /// (`ulimit -f`, SIGXFSZ ignored: a write past the limit fails), expecting it not to
    /// start; its exit code and what it said.
    pub fn recover_within(data: &Path, kib: u64) -> (Option<i32>, String) {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "trap '' XFSZ; ulimit -f {}; exec \"$0\" --ignored --exact child::serve --nocapture --test-threads=1",
                kib * 2
            ))
            .arg(std::env::current_exe().unwrap())
            .env(DATA, data)
            .env(PORT, data.join("never"))
            .env(RECOVER, "1")
            .stdout(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Kills it with SIGKILL and waits for it to be gone.
    pub fn kill(mut self) {
        self.process.kill().unwrap();
        self.process.wait().unwrap();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}
