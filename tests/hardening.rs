//! Hardening (issue 7): crash safety of the session store, sensitive-data hygiene of
//! the export, logs and files, adversarial document content, and headless robustness
//! on a partly broken corpus. Regression tests for what the fuzz targets in `fuzz/`
//! found live here too.
//!
//! The crash test re-executes this test binary as the child process: with
//! `CLAM_HARDENING_CHILD` set, `crash_child` appends decisions forever and prints each
//! acknowledged one; without it, `crash_child` does nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use clam::session::{AuditAction, Decision, Session};

mod common;

const CHILD_ENV: &str = "CLAM_HARDENING_CHILD";
const CHILD_TAG_ENV: &str = "CLAM_HARDENING_CHILD_TAG";

// ---------------------------------------------------------------------------------
// Helpers

/// Runs `clam` with its own config, data and cache directories under `home`, in `cwd`,
/// at the default log level.
fn clam_in(home: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clam"))
        .args(args)
        .current_dir(cwd)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("HOME", home)
        .env_remove("CLAM_LOG")
        .output()
        .expect("run clam")
}

fn clam(home: &Path, args: &[&str]) -> Output {
    clam_in(home, home, args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Case-insensitive whole-word occurrence: neighbours are not alphanumeric, and a
/// number does not count inside a longer number ("42" in "0.42" or "1,420").
fn contains_word(haystack: &str, needle: &str) -> bool {
    let hay = haystack.to_lowercase();
    let needle = needle.to_lowercase();
    let needle = needle.trim();
    if needle.is_empty() {
        return false;
    }
    let numeric_edge = |c: Option<char>, beyond: Option<char>| {
        matches!(c, Some('.') | Some(',')) && beyond.is_some_and(|b| b.is_ascii_digit())
    };
    let mut from = 0;
    while let Some(pos) = hay[from..].find(needle) {
        let start = from + pos;
        let end = start + needle.len();
        let mut before = hay[..start].chars().rev();
        let (b1, b2) = (before.next(), before.next());
        let mut after = hay[end..].chars();
        let (a1, a2) = (after.next(), after.next());
        let first_digit = needle.starts_with(|c: char| c.is_ascii_digit());
        let last_digit = needle.ends_with(|c: char| c.is_ascii_digit());
        let left = !(b1.is_some_and(char::is_alphanumeric) || first_digit && numeric_edge(b1, b2));
        let right = !(a1.is_some_and(char::is_alphanumeric) || last_digit && numeric_edge(a1, a2));
        if left && right {
            return true;
        }
        from = start + hay[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Every original value of a masked entity, from the mapping file.
fn mapping_originals(mapping: &Path) -> Vec<String> {
    let map: Value =
        serde_json::from_str(&std::fs::read_to_string(mapping).expect("mapping")).expect("json");
    map["masked"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| r["originals"].as_array().cloned().unwrap_or_default())
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// Every (file, value) where a masked original occurs in a file under `root`, in
/// its content or its name.
fn leaks(root: &Path, originals: &[String]) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for path in files_under(root) {
        let text = String::from_utf8_lossy(&std::fs::read(&path).expect("read")).to_string();
        let name = path
            .strip_prefix(root)
            .map(s)
            .unwrap_or_default()
            .to_string();
        for o in originals {
            if contains_word(&text, o) || contains_word(&name, o) {
                out.push((path.clone(), o.clone()));
            }
        }
    }
    out
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(p, bytes).expect("write");
}

fn doc(id: &str, content: &str) -> String {
    json!({"id": id, "metadata": {"source": "test"}, "content": content}).to_string()
}

/// A small linked corpus with distinctive direct and quasi identifiers.
fn pii_corpus(dir: &Path) {
    let docs = [
        (
            "claim_a",
            "Claim filed by Ms. Priya Raman (member MBR-448213), born 03/14/1968. Contact priya.raman@example.org or (555) 010-4417. Diagnosis: lupus nephritis. Address: 12 Elm Street, Springfield.",
        ),
        (
            "call_b",
            "Call note: Ms. Raman phoned from (555) 010-4417 about member MBR-448213 and her lupus nephritis treatment at Cedar Clinic.",
        ),
        (
            "letter_c",
            "Dear Dr. Elise Varga, our member born 03/14/1968 treated at Cedar Clinic for lupus nephritis asks about 12 Elm Street billing.",
        ),
        (
            "memo_d",
            "Memo: Jonathan Whitfield (jonathan.whitfield@example.com, MBR-991027) reported a claim; age 42, occupation welder.",
        ),
        (
            "memo_e",
            "Follow-up with Jonathan Whitfield, the welder aged 42, about claim MBR-991027 at Cedar Clinic.",
        ),
    ];
    for (id, content) in docs {
        write(dir, &format!("{id}.json"), doc(id, content));
    }
}

// ---------------------------------------------------------------------------------
// 2. Crash safety

fn decision(n: u64, tag: &str) -> Decision {
    let entity = format!("entity-{}", n % 37);
    let action = match n % 4 {
        0 => AuditAction::Override { entity, mask: true },
        1 => AuditAction::Pin {
            entity,
            mask: false,
        },
        2 => AuditAction::Accept { entity, mask: true },
        _ => AuditAction::Unpin { entity },
    };
    Decision {
        actor: "crash-child".into(),
        action,
        reason: Some(format!("{tag}:{n}")),
        state_before: Some("keep".into()),
        state_after: Some("mask".into()),
        config_hash: "crash-test".into(),
    }
}

/// The child of the crash test (a no-op unless `CLAM_HARDENING_CHILD` names a session
/// file): appends decisions forever through the session store and prints
/// `saved <seq> <reason>` after each commit.
#[test]
fn crash_child() {
    let Some(path) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let tag = std::env::var(CHILD_TAG_ENV).unwrap_or_default();
    let mut session = Session::open(Path::new(&path)).expect("child opens the session");
    let mut out = std::io::stdout().lock();
    for n in 0.. {
        let d = decision(n, &tag);
        let seq = session.append(&d).expect("append");
        let reason = d.reason.unwrap_or_default();
        // Acknowledged only after the commit returned.
        std::io::Write::write_all(&mut out, format!("saved {seq} {reason}\n").as_bytes())
            .expect("stdout");
        std::io::Write::flush(&mut out).expect("flush");
    }
}

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
            assert_eq!(log[i].reason.as_deref(), Some(reason.as_str()), "seq {seq}");
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

// ---------------------------------------------------------------------------------
// 3. Sensitive-data hygiene

#[test]
fn no_masked_value_reaches_the_export_or_the_logs_in_any_mode() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    pii_corpus(&corpus);
    // A decision whose reason quotes a masked value: decisions.jsonl must not carry it.
    let session_path = home.path().join("review.sqlite");
    {
        let mut session = Session::open(&session_path).expect("session");
        session
            .append(&Decision {
                actor: "auditor".into(),
                action: AuditAction::Override {
                    entity: clam::entity::entity_id("priya raman", "NAME"),
                    mask: true,
                },
                reason: Some("Priya Raman asked us to; call (555) 010-4417".into()),
                state_before: None,
                state_after: None,
                config_hash: "x".into(),
            })
            .expect("append");
    }
    let content: Vec<String> = files_under(&corpus)
        .iter()
        .map(|p| {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("json");
            v["content"].as_str().expect("content").to_string()
        })
        .collect();
    for mode_name in ["redact", "value", "pseudonym", "generalize"] {
        let out = home.path().join(format!("export-{mode_name}"));
        let mapping = home.path().join(format!("mapping-{mode_name}.json"));
        let o = clam(
            home.path(),
            &[
                "run",
                s(&corpus),
                "--out",
                s(&out),
                "--mode",
                mode_name,
                "--session",
                s(&session_path),
                "--with-mapping",
                s(&mapping),
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{mode_name}: {}", stderr(&o));
        let originals = mapping_originals(&mapping);
        for must in [
            "Priya Raman",
            "MBR-448213",
            "(555) 010-4417",
            "priya.raman@example.org",
        ] {
            assert!(
                originals.iter().any(|o| o.contains(must)),
                "{mode_name}: {must} is masked ({originals:?})"
            );
        }
        for f in ["manifest.json", "report.md", "decisions.jsonl"] {
            assert!(out.join(f).is_file(), "{f}");
        }
        let decisions = std::fs::read_to_string(out.join("decisions.jsonl")).expect("decisions");
        assert!(decisions.contains("asked us to"), "the reason is exported");
        let found = leaks(&out, &originals);
        assert!(
            found.is_empty(),
            "{mode_name}: masked values in the export: {found:?}"
        );
        let logs = home.path().join("data/clam/logs");
        assert!(!files_under(&logs).is_empty(), "a log file is written");
        let found = leaks(&logs, &originals);
        assert!(
            found.is_empty(),
            "{mode_name}: masked values in the logs: {found:?}"
        );
        for path in files_under(&logs) {
            let log = std::fs::read_to_string(&path).expect("log");
            for c in &content {
                for sentence in c.split(['.', ':', ',']).filter(|x| x.trim().len() > 12) {
                    assert!(
                        !log.contains(sentence.trim()),
                        "document text in the log: {sentence}"
                    );
                }
            }
        }
        // The mapping file holds the originals and is owner-only.
        #[cfg(unix)]
        assert_eq!(mode(&mapping), 0o600);
        if mode_name == "pseudonym" {
            let text = std::fs::read_to_string(out.join("redacted/claim_a.json")).expect("doc");
            assert!(text.contains("[NAME_"), "{text}");
        }
    }
}

#[test]
fn jsonl_and_text_exports_hold_no_masked_value_either() {
    let home = tempfile::tempdir().expect("tempdir");
    let json = home.path().join("json");
    pii_corpus(&json);
    let mut jsonl = String::new();
    let text_dir = home.path().join("text");
    for f in files_under(&json) {
        let body = std::fs::read_to_string(&f).expect("read");
        let v: Value = serde_json::from_str(&body).expect("json");
        jsonl.push_str(&v.to_string());
        jsonl.push('\n');
        let id = v["id"].as_str().expect("id");
        write(
            &text_dir,
            &format!("{id}.txt"),
            v["content"].as_str().expect("content"),
        );
    }
    // A text file named after a masked value gets a neutral name in the export.
    write(
        &text_dir,
        "Priya Raman.txt",
        "Ms. Priya Raman (MBR-448213) wrote again.",
    );
    write(home.path(), "all.jsonl", &jsonl);
    for (name, input) in [("jsonl", home.path().join("all.jsonl")), ("text", text_dir)] {
        let out = home.path().join(format!("out-{name}"));
        let mapping = home.path().join(format!("mapping-{name}.json"));
        let o = clam(
            home.path(),
            &[
                "run",
                s(&input),
                "--out",
                s(&out),
                "--mode",
                "pseudonym",
                "--with-mapping",
                s(&mapping),
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert!(
            !stderr(&o).contains(" INFO "),
            "no log lines on the terminal"
        );
        let originals = mapping_originals(&mapping);
        assert!(
            originals.iter().any(|o| o.contains("Priya Raman")),
            "{originals:?}"
        );
        let found = leaks(&out, &originals);
        assert!(found.is_empty(), "{name}: {found:?}");
        assert_eq!(
            files_under(&out.join("redacted")).len(),
            if name == "jsonl" { 1 } else { 6 }
        );
    }
}

#[cfg(unix)]
#[test]
fn session_logs_and_their_folders_are_owner_only() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    pii_corpus(&corpus);
    let o = clam(
        home.path(),
        &["run", s(&corpus), "--out", s(&home.path().join("out"))],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let data = home.path().join("data/clam");
    let sessions = data.join("sessions");
    let logs = data.join("logs");
    assert_eq!(mode(&sessions), 0o700, "sessions folder");
    assert_eq!(mode(&logs), 0o700, "logs folder");
    let session_files = files_under(&sessions);
    assert!(
        !session_files.is_empty(),
        "the run created the corpus's session"
    );
    for f in session_files.iter().chain(files_under(&logs).iter()) {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
}

#[test]
fn the_mapping_file_is_written_only_on_request_and_never_inside_the_export() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    pii_corpus(&corpus);
    let before: Vec<PathBuf> = files_under(home.path());
    let out = home.path().join("out");
    let o = clam(home.path(), &["run", s(&corpus), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Without --with-mapping only the export, the session and the log are new.
    for f in files_under(home.path()) {
        if before.contains(&f) {
            continue;
        }
        let rel = f.strip_prefix(home.path()).expect("inside home");
        assert!(
            rel.starts_with("out")
                || rel.starts_with("data/clam/sessions")
                || rel.starts_with("data/clam/logs"),
            "unexpected file {}",
            rel.display()
        );
    }
    // Inside the export folder: refused, however the path is spelled, and nothing is
    // exported.
    let cases: [(&str, &str); 5] = [
        ("new1", "new1/mapping.json"),
        ("new2", "./new2/sub/mapping.json"),
        ("new3", "other/../new3/mapping.json"),
        ("new4", "new4"),
        ("out", "out/mapping.json"),
    ];
    for (dir, mapping) in cases {
        let mut args = vec!["run", s(&corpus), "--out", dir, "--with-mapping", mapping];
        if dir == "out" {
            args.push("--force");
        }
        let o = clam_in(home.path(), home.path(), &args);
        assert_eq!(o.status.code(), Some(1), "{mapping}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("must be outside the export folder"),
            "{mapping}: {}",
            stderr(&o)
        );
        assert!(
            !home.path().join(mapping).is_file(),
            "{mapping} was written"
        );
        if dir != "out" {
            assert!(!home.path().join(dir).exists(), "{dir} was exported");
        }
    }
    // Beside the export folder, relative: fine.
    let o = clam_in(
        home.path(),
        home.path(),
        &[
            "run",
            s(&corpus),
            "--out",
            "new5",
            "--with-mapping",
            "new5-mapping.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(home.path().join("new5-mapping.json").is_file());
}

// ---------------------------------------------------------------------------------
// 4. Adversarial content

fn assert_printable(what: &str, text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c != '\n' && clam::display::is_unsafe_char(c))
        .collect();
    assert!(
        bad.is_empty(),
        "{what} holds raw control/bidi characters {bad:?}"
    );
}

#[test]
fn escape_sequences_bidi_overrides_and_zero_width_joiners_stay_harmless() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    let esc_id = "esc\u{1b}[2J\u{1b}]0;owned\u{7}|id";
    let docs = [
        (
            esc_id.to_string(),
            "Ms. Priya Raman, or \u{1b}[31mPriya Raman\u{1b}[0m (MBR-448213), called from (555) 010-4417 \u{9b}6n about lupus nephritis.".to_string(),
        ),
        (
            "bidi\u{202e}txt.exe".to_string(),
            "Member MBR-448213: write to \u{202e}gro.elpmaxe@namar.ayirp\u{202c} or priya.raman@example.org; \u{202e}Priya Raman\u{202c}.".to_string(),
        ),
        (
            "zwj".to_string(),
            "Ms. Pri\u{200d}ya Ra\u{200d}man and Dr. Elise Varga (elise.varga@example.org) discussed lupus nephritis; member MBR-448213. Later Pri\u{200b}ya Ra\u{ad}man called.".to_string(),
        ),
    ];
    for (i, (id, content)) in docs.iter().enumerate() {
        write(&corpus, &format!("d{i}.json"), doc(id, content));
    }
    // A broken file whose name carries an escape sequence.
    write(&corpus, "evil\u{1b}[2J.json", "{not json");
    let out = home.path().join("out");
    let mapping = home.path().join("mapping.json");
    let o = clam(
        home.path(),
        &[
            "run",
            s(&corpus),
            "--out",
            s(&out),
            "--with-mapping",
            s(&mapping),
        ],
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert_printable("stderr", &stderr(&o));
    assert!(stderr(&o).contains("evil\\u{1b}[2J.json"), "{}", stderr(&o));
    for f in ["manifest.json", "report.md", "decisions.jsonl"] {
        assert_printable(f, &std::fs::read_to_string(out.join(f)).expect("read"));
    }
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("\\|id"),
        "a | in an id cannot split a table row"
    );
    // The manifest keeps the exact ids (escaped in JSON, not altered).
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).expect("read"))
            .expect("manifest");
    let ids: Vec<&str> = manifest["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .filter_map(|d| d["id"].as_str())
        .collect();
    assert!(ids.contains(&esc_id), "{ids:?}");
    let originals = mapping_originals(&mapping);
    let found = leaks(&out, &originals);
    assert!(found.is_empty(), "{found:?}");
    // What a reader sees, with invisible characters removed, still shows no direct
    // identifier of the corpus.
    for f in files_under(&out.join("redacted")) {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("json");
        let visible: String = v["content"]
            .as_str()
            .expect("content")
            .chars()
            .filter(|&c| !clam::entity::spans::is_ignorable(c))
            .collect();
        for value in [
            "Raman",
            "Priya Raman",
            "MBR-448213",
            "(555) 010-4417",
            "priya.raman@example.org",
        ] {
            assert!(
                !contains_word(&visible, value),
                "{}: {value} visible in {visible:?}",
                f.display()
            );
        }
    }
}

#[test]
fn a_one_megabyte_line_and_fifty_thousand_entities_complete_without_a_leak() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    // One 1 MB line of prose with identifiers at its start, middle and end.
    let filler = "the member asked about the status of the claim and the reply ";
    let mut line = String::from("Ms. Priya Raman wrote from priya.raman@example.org. ");
    while line.len() < 512 * 1024 {
        line.push_str(filler);
    }
    line.push_str(" Call (555) 010-4417 now. ");
    while line.len() < 1024 * 1024 {
        line.push_str(filler);
    }
    line.push_str(" Signed, Priya Raman, member MBR-448213.");
    write(&corpus, "long.txt", &line);
    // 50,000 distinct e-mail addresses in one document.
    let mut many = String::from("Distribution list for Priya Raman:\n");
    for i in 0..50_000 {
        many.push_str(&format!("member{i}@list.example.org\n"));
    }
    write(&corpus, "many.txt", &many);
    write(
        &corpus,
        "short.txt",
        "Priya Raman (MBR-448213) asked member7@list.example.org to call (555) 010-4417.",
    );
    let out = home.path().join("out");
    let mapping = home.path().join("mapping.json");
    let started = Instant::now();
    let o = clam(
        home.path(),
        &[
            "run",
            s(&corpus),
            "--out",
            s(&out),
            "--with-mapping",
            s(&mapping),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    eprintln!("1 MB line + 50,000 entities: {:?}", started.elapsed());
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).expect("read"))
            .expect("manifest");
    assert!(
        manifest["summary"]["entities"].as_u64().unwrap_or(0) >= 50_000,
        "{}",
        manifest["summary"]
    );
    let many_out = std::fs::read_to_string(out.join("redacted/many.txt")).expect("many");
    assert!(
        !many_out.contains("@list.example.org"),
        "every address is masked"
    );
    let long_out = std::fs::read_to_string(out.join("redacted/long.txt")).expect("long");
    for v in [
        "Priya Raman",
        "priya.raman@example.org",
        "(555) 010-4417",
        "MBR-448213",
    ] {
        assert!(!long_out.contains(v), "{v} left in the 1 MB line");
    }
    assert!(long_out.len() > 1_000_000, "the long line is kept");
    let _ = mapping_originals(&mapping);
}

#[test]
fn thousands_of_masked_ids_and_phones_redact_in_bounded_time() {
    // Each masked id or phone has its own pattern; before the prefilter every line of
    // the leak check ran all of them (4,000 of them took over ten minutes).
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    let mut text = String::from("Members:\n");
    for i in 0..2_000 {
        text.push_str(&format!(
            "member MBR-{} and phone (555) {:03}-{:04}\n",
            100_000 + i,
            100 + i % 900,
            i
        ));
    }
    write(&corpus, "ids.txt", &text);
    write(
        &corpus,
        "other.txt",
        "Ask member MBR 100042 or call 555.142.0042 today.",
    );
    let out = home.path().join("out");
    let started = Instant::now();
    let o = clam(home.path(), &["run", s(&corpus), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "took {:?}",
        started.elapsed()
    );
    let ids = std::fs::read_to_string(out.join("redacted/ids.txt")).expect("ids");
    assert!(!ids.contains("MBR") && !ids.contains("555"), "all masked");
    // Variants in another document are found through the prefilter too.
    let other = std::fs::read_to_string(out.join("redacted/other.txt")).expect("other");
    assert_eq!(
        other,
        "Ask member [PATIENT_ID] or call [PHONE_NUMBER] today."
    );
}

// ---------------------------------------------------------------------------------
// 6. Headless robustness

#[test]
fn run_on_a_partly_broken_corpus_exports_the_valid_documents_and_exits_4() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    let valid = [
        (
            "v01",
            "Priya Raman (MBR-448213) was seen at Cedar Clinic for lupus nephritis.",
        ),
        ("v02", "Call from (555) 010-4417 about member MBR-448213."),
        (
            "v03",
            "Dr. Elise Varga reviewed the claim of a member born 03/14/1968.",
        ),
        (
            "v04",
            "Jonathan Whitfield, a welder aged 42, filed claim MBR-991027.",
        ),
        ("v05", "Follow-up for MBR-991027 at Cedar Clinic."),
        ("v06", "General memo about the claims backlog."),
        ("v07", "Priya Raman asked about lupus nephritis coverage."),
        ("v08", "The welder Jonathan Whitfield called again."),
        ("v09", "Quarterly note: nothing personal here."),
        ("v10", "Reminder to archive the 2023 files."),
        ("v11", "Ms. Raman's address is 12 Elm Street, Springfield."),
        (
            "v12",
            "jonathan.whitfield@example.com wrote about the claim.",
        ),
    ];
    for (id, content) in valid {
        write(&corpus, &format!("{id}.json"), doc(id, content));
    }
    let big = doc("big", &"padding words ".repeat(400));
    let broken: [(&str, Vec<u8>, &str); 7] = [
        (
            "x1_bad_json.json",
            b"{\"id\": \"x\", \"content\": ".to_vec(),
            "not valid JSON",
        ),
        (
            "x2_bad_utf8.json",
            b"{\"id\":\"u\",\"content\":\"caf\xe9\"}".to_vec(),
            "not valid UTF-8",
        ),
        ("x3_empty.json", Vec::new(), "not valid JSON"),
        (
            "x4_too_large.json",
            big.into_bytes(),
            "over the document size limit",
        ),
        (
            "x5_duplicate.json",
            doc("v01", "A second document with id v01.").into_bytes(),
            "duplicate id",
        ),
        ("x6_array.json", b"[1, 2, 3]".to_vec(), "found an array"),
        ("x7_number.json", b"42".to_vec(), "found a number"),
    ];
    for (name, bytes, _) in &broken {
        write(&corpus, name, bytes);
    }
    let config = home.path().join("limits.toml");
    write(home.path(), "limits.toml", "max_document_bytes = 4096\n");
    let out = home.path().join("out");
    let o = clam(
        home.path(),
        &["run", s(&corpus), "--out", s(&out), "--config", s(&config)],
    );
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("leak check passed"), "{}", stderr(&o));
    let mut exported: Vec<String> = std::fs::read_dir(out.join("redacted"))
        .expect("redacted")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    exported.sort();
    let expected: Vec<String> = valid.iter().map(|(id, _)| format!("{id}.json")).collect();
    assert_eq!(exported, expected);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    let skipped = report
        .split("## Skipped input")
        .nth(1)
        .expect("report.md has a Skipped input section");
    let skipped = skipped.split("\n## ").next().unwrap_or_default();
    for (name, _, reason) in &broken {
        let line = skipped
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} is not listed as skipped:\n{skipped}"));
        assert!(line.contains(reason), "{name}: {line}");
    }
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).expect("read"))
            .expect("manifest");
    assert_eq!(
        manifest["corpus"]["skipped"].as_array().map(Vec::len),
        Some(broken.len())
    );
    // Read-only corpus: nothing was written into it.
    assert_eq!(files_under(&corpus).len(), valid.len() + broken.len());
}

#[test]
fn a_failed_leak_check_wins_over_skipped_input_exit_3() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    // A masked name that reads like its own placeholder: "[NAME]" still shows the
    // value "Name", which the independent check finds.
    write(
        &corpus,
        "a.json",
        r#"{"id": "a", "metadata": {"phones": [5550104417]}, "content": "Name: Name. Call (555) 010-4417 about member MBR-448213."}"#,
    );
    write(
        &corpus,
        "clam.toml",
        "[extract]\ndeny = { NAME = [\"Name\"] }\n",
    );
    write(&corpus, "b.json", "{broken");
    let out = home.path().join("out");
    let o = clam(home.path(), &["run", s(&corpus), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(!out.exists(), "nothing is exported");
}

#[test]
fn a_corpus_of_only_broken_files_fails_with_exit_1_and_exports_nothing() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    write(&corpus, "a.json", "{");
    write(&corpus, "b.json", b"\xff\xfe");
    let out = home.path().join("out");
    let o = clam(home.path(), &["run", s(&corpus), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no documents could be loaded"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

// ---------------------------------------------------------------------------------
// 1. Fuzz regressions (inputs found by the targets in fuzz/)

/// Found by the `redact` fuzz target (fuzz/seeds/redact/nul-value): a masked value
/// that is a NUL character matched the NUL that joins the pieces of a batched search,
/// so a line of the leak check or a string of the manifest got another's hit. Since
/// matching reads the projection (SPEC §5), control characters read as nothing.
#[test]
fn a_masked_nul_value_is_searched_piece_by_piece() {
    use clam::redact::{MaskedEntity, Mode, Replacer};
    let r = Replacer::new(
        vec![MaskedEntity {
            id: "e0".into(),
            entity_type: "NAME".into(),
            normalized: "\0".into(),
            originals: vec!["\0".into()],
        }],
        Mode::Value,
        &clam::Schema::default(),
        b"fuzz key",
    );
    let pieces = ["P;", "", "x \0 y", "plain"];
    let each = r.find_each(&pieces);
    for (p, hits) in pieces.iter().zip(&each) {
        assert_eq!(hits, &r.find(p), "piece {p:?}");
    }
    assert!(each.iter().all(Vec::is_empty));
    // NUL is invisible: a value made of it reads as nothing and is never found.
    assert_eq!(r.replace("P;\nx \0 y\n"), "P;\nx \0 y\n");
}

#[test]
fn fuzz_seed_inputs_never_panic() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let dir = tempfile::tempdir().expect("tempdir");
    for f in files_under(&seeds.join("corpus_load")) {
        let bytes = std::fs::read(&f).expect("seed");
        for name in ["x.json", "x.jsonl", "x.txt"] {
            write(dir.path(), name, &bytes);
            let _ = clam::corpus::load(&dir.path().join(name), &Default::default());
        }
    }
    for f in files_under(&seeds.join("config_parse")) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).expect("seed")).to_string();
        let _ = clam::config::ConfigLayer::from_toml(&text, "seed");
    }
    let mut buf = String::new();
    for f in files_under(&seeds.join("redact")) {
        buf.clear();
        std::fs::File::open(&f)
            .expect("seed")
            .read_to_string(&mut buf)
            .ok();
        let _ = clam::entity::spans::locate(&buf, "priya raman");
    }
    // The LLM response parser on the committed seeds: what it keeps is valid.
    let schema = clam::Schema::default();
    let mut parsed = 0;
    for f in files_under(&seeds.join("llm_response")) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).expect("seed")).to_string();
        let Some(entries) = clam::extract::llm::validate::entities_of(&text) else {
            continue;
        };
        parsed += 1;
        let (items, dropped) = clam::extract::llm::validate::validate(&entries, &schema);
        assert_eq!(
            items.len() + dropped.total(),
            entries.len(),
            "{}",
            f.display()
        );
        for it in &items {
            assert!(schema.contains(&it.entity_type) && (0.0..=1.0).contains(&it.relevance));
            assert!(!it.original.is_empty() && it.original.trim() == it.original);
        }
    }
    assert!(parsed >= 3, "bare, fenced and embedded seeds parse");
}
