//! §2. Crash safety of the session store: SIGKILL at random moments, WAL with
//! synchronous=FULL, owner-only files.

use super::*;

/// Kill timings drawn from a seeded generator (the test prints its seed).
struct Rng(rand::rngs::SmallRng);
impl Rng {
    fn new(seed: u64) -> Self {
        use rand::SeedableRng;
        Rng(rand::rngs::SmallRng::seed_from_u64(seed))
    }
    fn below(&mut self, n: u64) -> u64 {
        use rand::RngExt;
        self.0.random_range(0..n)
    }
}

#[cfg(unix)]
#[test]
fn sigkill_at_random_moments_loses_no_acknowledged_decision() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    const CYCLES: usize = 200;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions").join("crash.sqlite");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
        | 1;
    // Printed with the test's output when it fails, to replay the same kill timings.
    eprintln!("kill timings from seed {seed}");
    let mut rng = Rng::new(seed);
    let exe = std::env::current_exe().expect("test binary");
    let mut acknowledged: Vec<(i64, String)> = Vec::new();
    let mut killed_while_running = 0;
    let started = Instant::now();
    for cycle in 0..CYCLES {
        let mut child = Command::new(&exe)
            .args(["crash_child", "--exact", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, &path)
            .env(CHILD_TAG_ENV, format!("c{cycle}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn child");
        let stdout = child.stdout.take().expect("child stdout");
        let reader = std::thread::spawn(move || {
            let mut lines = Vec::new();
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                lines.push(line);
            }
            lines
        });
        // Kill anywhere from process start-up (session not even open) to a few dozen
        // decisions in.
        let delay = match rng.below(4) {
            0 => rng.below(15),
            1 | 2 => 15 + rng.below(40),
            _ => 55 + rng.below(120),
        };
        std::thread::sleep(Duration::from_millis(delay));
        if child.try_wait().expect("try_wait").is_none() {
            killed_while_running += 1;
        }
        child.kill().expect("SIGKILL"); // std's kill sends SIGKILL on Unix
        let status = child.wait().expect("wait");
        assert!(
            status.code().is_none(),
            "cycle {cycle}: the child ended on its own ({status}), not by SIGKILL"
        );
        for line in reader.join().expect("reader") {
            let Some(rest) = line.strip_prefix("saved ") else {
                continue;
            };
            let (seq, reason) = rest.split_once(' ').expect("saved <seq> <reason>");
            acknowledged.push((seq.parse().expect("seq"), reason.to_string()));
        }
        if !path.exists() {
            continue;
        }
        let conn = rusqlite::Connection::open(&path).expect("reopen after SIGKILL");
        let check: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .expect("integrity_check");
        assert_eq!(check, "ok", "cycle {cycle}: integrity_check");
        drop(conn);
        let log = Session::open(&path)
            .expect("session reopens")
            .audit_log()
            .expect("audit log readable");
        let mut position = 0usize;
        for (seq, reason) in &acknowledged {
            let found = log[position..]
                .iter()
                .position(|e| e.seq == *seq)
                .map(|p| p + position);
            let Some(i) = found else {
                panic!(
                    "cycle {cycle}: acknowledged decision {seq} ({reason}) is missing or out of order"
                );
            };
            assert_eq!(
                log[i].decision.reason.as_deref(),
                Some(reason.as_str()),
                "seq {seq}"
            );
            position = i + 1;
        }
    }
    assert_eq!(
        killed_while_running, CYCLES,
        "every kill hit a running child"
    );
    assert!(
        acknowledged.len() >= CYCLES,
        "only {} decisions were acknowledged in {CYCLES} cycles",
        acknowledged.len()
    );
    eprintln!(
        "{CYCLES} SIGKILLs, {} acknowledged decisions, {:?}",
        acknowledged.len(),
        started.elapsed()
    );
}

#[test]
fn session_store_runs_wal_with_synchronous_full_owner_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("new-folder").join("s.sqlite");
    let mut session = Session::open(&path).expect("open");
    session.append(&decision(0, "t")).expect("append");
    let (journal, synchronous) = session.durability().expect("pragmas");
    assert_eq!(journal, "wal");
    assert_eq!(synchronous, 2, "synchronous=FULL");
    #[cfg(unix)]
    {
        assert_eq!(mode(&path), 0o600, "session file");
        assert_eq!(
            mode(path.parent().expect("parent")),
            0o700,
            "session folder"
        );
        for suffix in ["-wal", "-shm"] {
            let side = PathBuf::from(format!("{}{suffix}", path.display()));
            if side.exists() {
                assert_eq!(mode(&side), 0o600, "{suffix} file");
            }
        }
    }
    drop(session);
    // Reopened, the settings hold again (synchronous is per connection).
    let session = Session::open(&path).expect("reopen");
    assert_eq!(session.durability().expect("pragmas"), ("wal".into(), 2));
    // VACUUM INTO copies are owner-only too.
    let copy = dir.path().join("copy.sqlite");
    session.export_to(&copy).expect("export");
    #[cfg(unix)]
    assert_eq!(mode(&copy), 0o600);
}

/// An export complete in every part `clam run` writes (it is published in one step).
fn export_is_complete(out: &Path, documents: usize) -> Result<(), String> {
    let manifest = std::fs::read_to_string(out.join("manifest.json")).map_err(|e| e.to_string())?;
    let manifest =
        serde_json::from_str::<Value>(&manifest).map_err(|e| format!("manifest.json: {e}"))?;
    // Every table the manifest names is there, whole (a gzip stream that ends).
    for (name, t) in manifest["tables"].as_object().cloned().unwrap_or_default() {
        let file = out.join(t["file"].as_str().unwrap_or_default());
        let text = std::fs::File::open(&file)
            .map_err(|e| format!("table {name}: {e}"))
            .and_then(|f| {
                use std::io::Read;
                let mut s = String::new();
                flate2::read::MultiGzDecoder::new(f)
                    .read_to_string(&mut s)
                    .map_err(|e| format!("table {name}: {e}"))
                    .map(|_| s)
            })?;
        if text.lines().count() as u64 != t["rows"].as_u64().unwrap_or(u64::MAX) {
            return Err(format!("table {name} is not whole"));
        }
    }
    for f in ["report.md", "decisions.jsonl"] {
        if !out.join(f).is_file() {
            return Err(format!("{f} is missing"));
        }
    }
    let redacted = std::fs::read_dir(out.join("redacted"))
        .map_err(|e| e.to_string())?
        .count();
    if redacted != documents {
        return Err(format!("{redacted} of {documents} redacted documents"));
    }
    Ok(())
}

#[cfg(unix)]
#[test]
fn sigkill_anywhere_in_an_export_leaves_the_target_complete_or_absent() {
    const CYCLES: usize = 100;
    let home = tempfile::tempdir().expect("tempdir");
    let parent = home.path().join("exports");
    std::fs::create_dir(&parent).expect("mkdir");
    let out = parent.join("out");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_corpus");
    let run = |out: &Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_clam"));
        c.args(["run", s(&corpus), "--out", s(out), "--force"])
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("XDG_CACHE_HOME", home.path().join("cache"))
            .env_remove("CLAM_LOG")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        c
    };
    // How long one export takes here, to spread the kills over all of it.
    let started = Instant::now();
    let first = run(&out).status().expect("run");
    assert!(first.success());
    let took = started.elapsed().as_millis().max(20) as u64;
    let documents = std::fs::read_dir(out.join("redacted"))
        .expect("redacted")
        .count();
    std::fs::remove_dir_all(&out).expect("clean");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    eprintln!("kill timings from seed {seed}; one export takes {took} ms");
    let mut rng = Rng::new(seed);
    let (mut complete, mut absent) = (0, 0);
    for cycle in 0..CYCLES {
        let mut child = run(&out).spawn().expect("spawn");
        std::thread::sleep(Duration::from_millis(rng.below(took * 5 / 4)));
        let _ = child.kill();
        let _ = child.wait();
        if out.exists() {
            if let Err(e) = export_is_complete(&out, documents) {
                panic!("cycle {cycle}: a partial export at the target: {e}");
            }
            complete += 1;
        } else {
            absent += 1;
        }
    }
    // The next run removes what the killed ones left beside the target.
    assert!(run(&out).status().expect("run").success());
    export_is_complete(&out, documents).expect("the last export is complete");
    let left: Vec<String> = std::fs::read_dir(&parent)
        .expect("read")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "out")
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    eprintln!("{CYCLES} SIGKILLs: target complete {complete}, absent {absent}");
}
