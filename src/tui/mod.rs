//! `clam review`: the terminal workspace where a privacy officer watches the pipeline
//! run, reads documents with their entities, sees how documents link, and accepts,
//! overrides or pins every masking decision before exporting (SPEC §6, §8).
//!
//! The shape follows ratatui's component template: an event task, one [`Action`]
//! enum, keymaps and themes as data, one job system for every piece of background
//! work (extraction, which plans each burst of results on a copy of the workspace,
//! re-plans, what-if, sweeps, gold measurement, export: [`app::Jobs`]), and an app
//! loop that `select!`s over terminal events and job reports, installs the newest
//! results and draws at most once per frame. Every number on screen comes from the library's `Workspace`;
//! nothing here computes risk.

pub mod action;
pub mod app;
pub mod event;
pub mod graph;
pub mod keymap;
pub mod sanitize;
pub mod state;
pub mod theme;
pub mod ui;
pub mod worker;

use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use tokio_util::sync::CancellationToken;

pub use action::Action;
pub use app::App;
pub use keymap::Keymap;
pub use theme::Theme;

use crate::workspace::Workspace;

/// Shortest time between two frames.
pub const FRAME: Duration = Duration::from_millis(16);

/// How `clam review` was asked to look and who is deciding.
pub struct ReviewOptions {
    pub theme: Theme,
    pub keymap: Keymap,
    pub actor: String,
    /// The corpus as named on the command line (header, default export folder).
    pub corpus_name: String,
    /// `--extractor llm`: the model extracts (the offline recognizers otherwise).
    pub llm: Option<crate::extract::llm::LlmExtractor>,
    /// `--gold FILE`: persons and questions for the leak rate and utility, with the
    /// file's name.
    pub gold: Option<(crate::eval::Gold, String)>,
}

/// Runs the application on the real terminal until the user quits. `ws` should come
/// from [`Workspace::pending`]: extraction starts here, in the background.
pub fn run(ws: Workspace, opts: ReviewOptions) -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(run_async(ws, opts))
}

async fn run_async(ws: Workspace, opts: ReviewOptions) -> std::io::Result<()> {
    let pending = !ws.extraction_complete();
    let offline = crate::extract::offline::OfflineExtractor::from_config(ws.config());
    let mut app = App::new(ws, opts.theme, opts.keymap, opts.actor, opts.corpus_name);
    if let Some((gold, name)) = opts.gold
        && let Err(e) = app.set_gold_eval(&gold, name)
    {
        app.error(e);
    }
    if pending {
        match opts.llm {
            Some(llm) => app.start_llm_extraction(llm, tokio::runtime::Handle::current()),
            None => app.start_extraction(Box::new(offline)),
        }
    }
    let cancel = CancellationToken::new();
    let mut terminal = ratatui::init();
    let mouse = crossterm::execute!(std::io::stdout(), crossterm::event::EnableMouseCapture);
    // `ratatui::init` restores the screen on panic; mouse reporting must go too, or
    // the shell receives escape codes for every mouse move after a crash.
    let restore = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(std::io::stdout(), crossterm::event::DisableMouseCapture);
        restore(info);
    }));
    let result = event_loop(&mut terminal, &mut app, cancel.clone()).await;
    cancel.cancel();
    app.jobs.cancel_all();
    if mouse.is_ok() {
        let _ = crossterm::execute!(std::io::stdout(), crossterm::event::DisableMouseCapture);
    }
    ratatui::restore();
    result
}

fn draw(terminal: &mut DefaultTerminal, app: &mut App) -> std::io::Result<()> {
    let mut rects = None;
    terminal.draw(|f| rects = Some(ui::draw(f, app)))?;
    if let Some(r) = rects {
        app.set_rects(r);
    }
    app.dirty = false;
    Ok(())
}

async fn event_loop(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    cancel: CancellationToken,
) -> std::io::Result<()> {
    let mut events = event::spawn(cancel);
    let mut tick = tokio::time::interval(FRAME);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    draw(terminal, app)?;
    let mut last_draw = Instant::now();
    loop {
        tokio::select! {
            ev = events.recv() => match ev {
                Some(event::Event::Key(k)) => app.handle_key(k),
                Some(event::Event::Mouse(m)) => app.handle_mouse(m),
                Some(event::Event::Resize) => app.dirty = true,
                None => break,
            },
            Some(msg) = app.jobs.recv() => {
                app.on_job(msg);
                app.pump_jobs();
            },
            _ = tick.tick() => {
                app.expire_message(Instant::now());
                if !app.is_ready() {
                    // The header's progress and timers move.
                    app.dirty = true;
                }
            }
        }
        if app.quit {
            break;
        }
        if app.has_pending() {
            draw(terminal, app)?;
            app.run_pending();
            last_draw = Instant::now();
        }
        if app.dirty && last_draw.elapsed() >= FRAME {
            draw(terminal, app)?;
            last_draw = Instant::now();
        }
    }
    Ok(())
}
