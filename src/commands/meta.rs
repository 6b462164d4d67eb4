//! Commands about clam itself rather than a corpus: `config show`, `init`,
//! `completions` and `man`.

use clap::CommandFactory;

use clam::config::template::{EffectiveSetting, commented_clam_toml, toml_value};
use clam::config::{CONFIG_FILE_NAME, resolve_traced};

use super::*;
use crate::cli::{ConfigShowArgs, InitArgs};

/// `clam config show [CORPUS]`: every setting in effect with its origin; a corpus adds
/// its folder's clam.toml and the adopted settings of its session.
pub(super) fn config_show(a: ConfigShowArgs) -> Result<u8> {
    let resolved = resolve_traced(&ConfigSources {
        user: true,
        corpus_dir: a.corpus.as_deref().and_then(corpus_dir),
        snapshot: None,
        file: a.planning.config.clone(),
        flags: a.planning.layer(None),
    })?;
    let mut layers = resolved.layers.clone();
    let mut settings = resolved.settings();
    // What-if settings adopted in the session (`clam review`) apply over the files.
    let session = match (&a.planning.session, &a.corpus) {
        (Some(p), _) => Some(p.clone()),
        (None, Some(c)) => default_session_path(c).filter(|p| p.is_file()),
        (None, None) => None,
    };
    if let Some(path) = session {
        if !path.is_file() {
            bail!("{}: no such session file", path.display());
        }
        let state = Session::open(&path)?.state()?;
        if !state.settings.is_empty() {
            let origin = format!("session {}", path.display());
            let (config, warnings) =
                clam::config::params::apply_settings(&resolved.config, &state.settings);
            for w in warnings {
                eprintln!("warning: {}", escape_line(&w));
            }
            let adopted: Vec<&String> = state.settings.iter().map(|(k, _)| k).collect();
            settings = clam::config::template::effective_settings(&config, |k| {
                if adopted.iter().any(|a| *a == k) {
                    origin.clone()
                } else {
                    resolved.origin_of(k).to_string()
                }
            });
            layers.push(origin);
        }
    }
    let mut out = super::stdout();
    if a.json {
        clam::display::write_json_pretty(
            &mut out,
            &json!({"layers": layers, "settings": settings}),
        )?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "# layers, lowest precedence first: defaults{}",
            layers
                .iter()
                .map(|l| format!(", {}", escape_line(l)))
                .collect::<String>()
        )?;
        let lines: Vec<(String, &EffectiveSetting)> = settings
            .iter()
            .map(|s| (format!("{} = {}", s.key, toml_value(&s.value)), s))
            .collect();
        let width = lines
            .iter()
            .map(|(l, _)| l.chars().count())
            .filter(|&w| w <= 60)
            .max()
            .unwrap_or(0);
        for (line, s) in &lines {
            writeln!(
                out,
                "{:<width$}  # {}",
                escape_line(line),
                escape_line(&s.origin)
            )?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

/// `clam init [DIR]`: a commented clam.toml, refused over an existing one without
/// `--force`.
pub(super) fn init(a: InitArgs) -> Result<u8> {
    if !a.dir.is_dir() {
        bail!("{}: no such folder", a.dir.display());
    }
    let path = a.dir.join(CONFIG_FILE_NAME);
    write_atomic(&path, &commented_clam_toml(), a.force)?;
    eprintln!(
        "wrote {} (every setting commented out at its default; `clam config show` prints what is in effect)",
        path.display()
    );
    Ok(EXIT_OK)
}

/// `clam completions SHELL`.
pub(super) fn completions(shell: clap_complete::Shell) -> Result<u8> {
    // Generated into memory: the generator panics on a failed write (`| head`).
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "clam", &mut script);
    let mut out = super::stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(EXIT_OK)
}

/// `clam man [--out DIR]`: the page of clam to stdout, or one page per command
/// (`clam-gold-import.1`) into DIR.
pub(super) fn man(out_dir: Option<PathBuf>) -> Result<u8> {
    let cmd = Cli::command();
    match out_dir {
        None => {
            let mut out = super::stdout();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            out.flush()?;
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("{}: cannot create", dir.display()))?;
            let mut written = 0;
            write_pages(cmd, "clam", &dir, &mut written)?;
            eprintln!("wrote {written} manual page(s) to {}", dir.display());
        }
    }
    Ok(EXIT_OK)
}

/// Writes `name.1` for `cmd` and a page for each of its subcommands (`name-sub.1`).
fn write_pages(cmd: clap::Command, name: &str, dir: &Path, written: &mut usize) -> Result<()> {
    let cmd = cmd.name(name.to_string()).bin_name(name.replace('-', " "));
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        write_pages(
            sub.clone(),
            &format!("{name}-{}", sub.get_name()),
            dir,
            written,
        )?;
    }
    let path = dir.join(format!("{name}.1"));
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page)?;
    std::fs::write(&path, page).with_context(|| format!("{}: cannot write", path.display()))?;
    *written += 1;
    Ok(())
}
