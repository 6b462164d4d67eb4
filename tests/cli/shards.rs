//! `clam extract --shard i/n` and the merge of its shard files by `clam plan --corpus`
//! and `clam run --snapshot`: three shards merged give, byte for byte, the plan and the
//! export of the unsharded corpus; bad shard values are usage errors; a corpus that
//! changed since, or an incomplete set of shards, is refused.

use super::*;

fn s(p: &Path) -> &str {
    p.to_str().expect("utf8")
}

/// A generated corpus of `docs` documents in `env`.
fn generated(env: &Env, docs: usize) -> PathBuf {
    let dir = env.path("gen");
    let o = env.clam(&["gen-corpus", "--docs", &docs.to_string(), "--out", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    dir.join("corpus.jsonl")
}

/// Extracts the shards 1/n … n/n of `corpus` into `dir`, in that order.
fn extract_shards(env: &Env, corpus: &Path, n: u32, dir: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).expect("mkdir");
    (1..=n)
        .map(|i| {
            let out = dir.join(format!("part-{i}.jsonl"));
            let shard = format!("{i}/{n}");
            let o = env.clam(&["extract", s(corpus), "--shard", &shard, "--out", s(&out)]);
            assert!(o.status.success(), "{shard}: {}", stderr(&o));
            assert!(
                stderr(&o).contains(&format!("wrote shard {shard}")),
                "{}",
                stderr(&o)
            );
            out
        })
        .collect()
}

fn files_of(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = read_all_files(root)
        .into_iter()
        .map(|(rel, _)| {
            let bytes = std::fs::read(root.join(&rel)).expect("read");
            (rel, bytes)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn three_shards_merged_plan_and_export_as_the_whole_corpus() {
    let env = Env::new();
    let mut corpora = vec![PathBuf::from(sample()), generated(&env, 300)];
    let devset = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/devset/corpus");
    if devset.is_dir() {
        corpora.push(devset);
    }
    for (k, corpus) in corpora.iter().enumerate() {
        let dir = env.path(&format!("c{k}"));
        let shards = extract_shards(&env, corpus, 3, &dir.join("shards"));
        // Every document in exactly one shard.
        let mut ids: Vec<String> = Vec::new();
        for p in &shards {
            let text = std::fs::read_to_string(p).expect("shard");
            for line in text.lines().skip(1) {
                let v: Value = serde_json::from_str(line).expect("json line");
                ids.push(v["id"].as_str().expect("id").to_string());
            }
        }
        let whole_snapshot = dir.join("whole.json");
        let o = env.clam(&["extract", s(corpus), "--out", s(&whole_snapshot)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let whole: Value =
            serde_json::from_slice(&std::fs::read(&whole_snapshot).expect("read")).expect("json");
        let mut all: Vec<String> = whole["documents"]
            .as_array()
            .expect("documents")
            .iter()
            .map(|d| d["id"].as_str().expect("id").to_string())
            .collect();
        all.sort();
        ids.sort();
        assert_eq!(ids, all, "{}", corpus.display());

        // clam plan: the merged shards, in any order, print the plan of the snapshot.
        let plan_whole = env.clam(&["plan", s(&whole_snapshot)]);
        assert!(plan_whole.status.success(), "{}", stderr(&plan_whole));
        let plan_merged = env.clam(&[
            "plan",
            "--corpus",
            s(corpus),
            s(&shards[2]),
            s(&shards[0]),
            s(&shards[1]),
        ]);
        assert!(plan_merged.status.success(), "{}", stderr(&plan_merged));
        assert!(plan_whole.stdout.len() > 1000);
        assert!(
            plan_whole.stdout == plan_merged.stdout,
            "{}: the merged plan differs",
            corpus.display()
        );

        // clam run: the export from the shards is the export of an unsharded run (one
        // session, so one project key).
        let session = dir.join("session.db");
        let (out_whole, out_merged) = (dir.join("export-whole"), dir.join("export-merged"));
        let o = run_to(&env, corpus, &out_whole, &["--session", s(&session)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut args = vec!["--session", s(&session), "--snapshot"];
        args.extend(shards.iter().map(|p| s(p)));
        let o = run_to(&env, corpus, &out_merged, &args);
        assert!(o.status.success(), "{}", stderr(&o));
        let (a, b) = (files_of(&out_whole), files_of(&out_merged));
        assert!(a.len() > 3);
        assert_eq!(
            a.iter().map(|(p, _)| p).collect::<Vec<_>>(),
            b.iter().map(|(p, _)| p).collect::<Vec<_>>()
        );
        for ((path, x), (_, y)) in a.iter().zip(&b) {
            assert!(x == y, "{}: {} differs", corpus.display(), path.display());
        }
    }
}

#[test]
fn shard_values_are_checked_as_usage_errors() {
    let env = Env::new();
    let out = env.path("part.jsonl");
    for (bad, says) in [
        ("0/3", "numbered from 1"),
        ("4/3", "only 3 shard(s)"),
        ("1/0", "at least 1 shard"),
        ("a/3", "expected I/N"),
        ("1", "expected I/N"),
    ] {
        let o = env.clam(&["extract", &sample(), "--shard", bad, "--out", s(&out)]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("--shard") && err.contains(says),
            "{bad}: {err}"
        );
        assert!(!out.exists());
    }
    let o = env.clam(&[
        "extract",
        &sample(),
        "--shard",
        "1/3",
        "--extractor",
        "llm",
        "--out",
        s(&out),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--shard"), "{}", stderr(&o));
}

#[test]
fn shard_sets_that_do_not_fit_the_corpus_are_refused() {
    let env = Env::new();
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    for i in 0..24 {
        write(
            &corpus,
            &format!("doc{i:02}.txt"),
            format!("Claim {i} for patient Rex Marin{i}, member ID MBR-4482{i:02}.").as_bytes(),
        );
    }
    let shards = extract_shards(&env, &corpus, 3, &env.path("shards"));
    let plan = |extra: &[&str]| {
        let mut args = vec!["plan"];
        args.extend_from_slice(extra);
        env.clam(&args)
    };
    // No corpus to merge against; a missing shard; a snapshot among shards.
    let o = plan(&[s(&shards[0]), s(&shards[1]), s(&shards[2])]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--corpus"), "{}", stderr(&o));
    let o = plan(&["--corpus", s(&corpus), s(&shards[0]), s(&shards[2])]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("2/3 missing"), "{}", stderr(&o));
    let whole = env.path("whole.json");
    assert!(
        env.clam(&["extract", s(&corpus), "--out", s(&whole)])
            .status
            .success()
    );
    let o = plan(&["--corpus", s(&corpus), s(&whole), s(&shards[0])]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    // A document added after the extraction: its shard file does not list it. The
    // documents already extracted stay in their shards (the shard follows the id).
    write(&corpus, "doc99.txt", b"A new claim for Ada Quist.");
    let o = plan(&[
        "--corpus",
        s(&corpus),
        s(&shards[0]),
        s(&shards[1]),
        s(&shards[2]),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("\"doc99\" of the corpus is in no shard file"),
        "{}",
        stderr(&o)
    );
    let again = extract_shards(&env, &corpus, 3, &env.path("again"));
    for (before, after) in shards.iter().zip(&again) {
        let ids = |p: &Path| -> Vec<String> {
            std::fs::read_to_string(p)
                .expect("shard")
                .lines()
                .skip(1)
                .map(|l| serde_json::from_str::<Value>(l).expect("json")["id"].to_string())
                .collect()
        };
        let (b, a) = (ids(before), ids(after));
        assert!(b.iter().all(|id| a.contains(id)), "{b:?} ⊄ {a:?}");
        assert!(a.len() - b.len() <= 1);
    }
    // A run whose configuration extracts otherwise (another date order) refuses them.
    let dmy = env.path("dmy.toml");
    std::fs::write(&dmy, "date_order = \"DMY\"\n").expect("write");
    let o = env.clam(&[
        "run",
        s(&corpus),
        "--out",
        s(&env.path("export")),
        "--config",
        s(&dmy),
        "--snapshot",
        s(&again[0]),
        s(&again[1]),
        s(&again[2]),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("other extraction settings"),
        "{}",
        stderr(&o)
    );
    // A document changed since: named, with the shard to extract again.
    write(&corpus, "doc03.txt", b"Claim 3 was edited.");
    let o = env.clam(&[
        "run",
        s(&corpus),
        "--out",
        s(&env.path("export")),
        "--snapshot",
        s(&again[0]),
        s(&again[1]),
        s(&again[2]),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("\"doc03\" has changed since it was extracted"),
        "{}",
        stderr(&o)
    );
    assert!(!env.path("export").exists());
}
