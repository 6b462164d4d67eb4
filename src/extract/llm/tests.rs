//! Tests of the LLM extractor that need no server: a run can be spawned on its own runtime.
use super::*;

fn assert_send<T: Send>(_: &T) {}

/// The terminal UI runs the extractor as a task on its own runtime.
#[test]
fn a_run_can_be_spawned() {
    let config = Config {
        llm: settings::LlmSettings {
            model: "m".into(),
            ..settings::LlmSettings::default()
        },
        ..Config::default()
    };
    let opts = LlmOptions {
        no_cache: true,
        prompt_dir: Some(PathBuf::from("/nonexistent")),
        ..LlmOptions::default()
    };
    let ex = LlmExtractor::new(&config, &opts).expect("extractor");
    let fut = ex.run(&[], None);
    assert_send(&fut);
    let run = ex.run_blocking(&[], None).expect("run");
    assert!(run.items.is_empty());
    assert_eq!(run.report.requests, 0);
}
