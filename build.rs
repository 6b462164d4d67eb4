//! Records the git commit the binary is built from, for `clam --version`
//! (`clam 0.1.0 (1a2b3c4 2026-11-25)`). Outside a git checkout (a crates.io or source
//! tarball, a vendored copy) or without git, the commit is "unknown" and the build goes
//! on; `CLAM_GIT_COMMIT` set at build time wins (packagers).

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CLAM_GIT_COMMIT");
    let commit = match std::env::var("CLAM_GIT_COMMIT") {
        Ok(c) if !c.trim().is_empty() => c.trim().to_string(),
        _ => describe().unwrap_or_else(|| "unknown".to_string()),
    };
    println!("cargo:rustc-env=CLAM_GIT_COMMIT={commit}");
}

/// `1a2b3c4 2026-11-25` of HEAD, watching the files that change with it.
fn describe() -> Option<String> {
    // Only a checkout of this package: not a parent repository that vendors it.
    let top = PathBuf::from(git(&["rev-parse", "--show-toplevel"])?);
    let here = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    if top.canonicalize().ok()? != here.canonicalize().ok()? {
        return None;
    }
    let hash = git(&["rev-parse", "--short", "HEAD"])?;
    let date = git(&["log", "-1", "--format=%cd", "--date=short", "HEAD"]);
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let dir = PathBuf::from(dir);
        println!("cargo:rerun-if-changed={}", dir.join("HEAD").display());
        let common = git(&["rev-parse", "--git-common-dir"])
            .map(PathBuf::from)
            .map(|c| if c.is_absolute() { c } else { here.join(c) })
            .unwrap_or(dir);
        // A missing file would rerun this script on every build: only those there.
        let head_ref = git(&["symbolic-ref", "-q", "HEAD"]).map(|r| common.join(r));
        for path in head_ref.into_iter().chain([common.join("packed-refs")]) {
            if path.is_file() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    Some(match date {
        Some(d) => format!("{hash} {d}"),
        None => hash,
    })
}
