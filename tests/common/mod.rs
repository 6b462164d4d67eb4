//! Shared by the end-to-end tests: run the `clam` binary with its own config, data and
//! cache directories, so no test reads or writes the user's.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

pub struct Env {
    pub home: tempfile::TempDir,
}

impl Env {
    pub fn new() -> Self {
        Env {
            home: tempfile::tempdir().expect("tempdir"),
        }
    }

    /// Runs `clam args…` with this environment's directories.
    pub fn clam(&self, args: &[&str]) -> Output {
        self.clam_with(args, &[])
    }

    /// Runs `clam args…` with this environment's directories and the variables `vars`.
    pub fn clam_with(&self, args: &[&str], vars: &[(&str, &str)]) -> Output {
        self.command(env!("CARGO_BIN_EXE_clam"))
            .args(args)
            .envs(vars.iter().copied())
            .output()
            .expect("run clam")
    }

    /// `program` with this environment's directories (for running clam inside another
    /// program, such as `script` for a terminal).
    pub fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("XDG_CONFIG_HOME", self.home.path().join("config"))
            .env("XDG_DATA_HOME", self.home.path().join("data"))
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env("HOME", self.home.path());
        c
    }

    /// A path inside this environment's temporary home.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.home.path().join(rel)
    }
}
