//! The configuration parser on arbitrary text: never panics; a layer that parses and
//! validates applies to the defaults without panicking, and the result validates or
//! names the offending key.
#![no_main]

use clam::Config;
use clam::config::ConfigLayer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(layer) = ConfigLayer::from_toml(&text, "fuzz.toml") else {
        return;
    };
    let mut config = Config::default();
    if layer.apply(&mut config, "fuzz.toml").is_ok() {
        let _ = config.validate("fuzz.toml");
        let _ = config.hash(b"fuzz project key");
        let _ = config.export_json();
        let _ = clam::extract::llm::secret::redact_url(&config.llm.base_url);
    }
    // A layer survives a JSON round trip (snapshots store the config as JSON).
    if let Ok(v) = serde_json::to_value(&layer) {
        let _ = ConfigLayer::from_json(&v, "fuzz.json");
    }
});
