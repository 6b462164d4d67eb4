//! `clam review`: the terminal workspace.

use super::*;

/// `clam review`: loads the corpus and the session (created if needed), then hands a
/// workspace whose documents are still pending to the terminal application, which
/// extracts them in the background.
pub(super) fn review(a: ReviewArgs, actor: String, bars: &Bars) -> Result<u8> {
    if corpus::is_stdin(&a.corpus.corpus) {
        return Err(UsageError(
            "clam review reads its keys from the terminal, so it cannot read the corpus from stdin (`-`) too: save the corpus to a file first (e.g. `… > corpus.jsonl; clam review corpus.jsonl`)".into(),
        )
        .into());
    }
    let config = load_config(Some(&a.corpus.corpus), &a.planning, a.mode, None)?;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    // --theme, else `[ui] theme` of the configuration, else dark.
    let theme = match (&a.theme, &config.ui.theme) {
        (Some(name), _) => clam::tui::Theme::select(Some(name), no_color)?,
        (None, Some(name)) => clam::tui::Theme::select(Some(name), no_color).map_err(|e| {
            anyhow::anyhow!(
                "{}: key `ui.theme`: {e}",
                config.ui.theme_origin.as_deref().unwrap_or("configuration")
            )
        })?,
        (None, None) => clam::tui::Theme::select(None, no_color)?,
    };
    let keymap_file =
        directories::ProjectDirs::from("", "", "clam").map(|d| d.config_dir().join("keymap.toml"));
    let keymap = clam::tui::Keymap::load(keymap_file.as_deref())?;
    let corpus = load_corpus(&a.corpus, &config, bars)?;
    let session = open_session(&a.corpus.corpus, a.planning.session.as_ref(), true)?;
    if session.is_none() {
        bail!("this platform has no user data directory for the session; pass --session FILE");
    }
    for d in &corpus.diagnostics {
        tracing::warn!(%d, "skipped input");
    }
    // The LLM extractor is checked (endpoint, model, key, prompts) before the screen
    // is taken over, so a refusal is an ordinary error message.
    let llm = match a.extractor.extractor {
        ExtractorKind::Offline => None,
        ExtractorKind::Llm => Some(llm_extractor(
            &config,
            &a.extractor,
            corpus.documents.len(),
        )?),
    };
    let gold = match &a.gold {
        Some(p) => Some((clam::eval::load(p, None)?, p.display().to_string())),
        None => None,
    };
    let name = if llm.is_some() { "llm" } else { "offline" };
    let ws = Workspace::pending(corpus, config, session, name)?;
    let corpus_name = a
        .corpus
        .corpus
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| a.corpus.corpus.display().to_string());
    clam::tui::run(
        ws,
        clam::tui::ReviewOptions {
            theme,
            keymap,
            actor,
            corpus_name,
            llm,
            gold,
        },
    )?;
    Ok(EXIT_OK)
}
