//! Reading the files a configuration names: the configuration file itself and its
//! gazetteer files, each capped in size.

use std::path::Path;

use super::MAX_GAZETTEER_FILE_BYTES;

/// The text of a gazetteer file, or why it is refused (see
/// [`super::ConfigLayer::read_gazetteer_files`]).
pub(super) fn read_gazetteer_file(
    path: &Path,
    base: &Path,
    confined: bool,
) -> Result<String, String> {
    let shown = crate::display::escape_line(&path.display().to_string());
    let real = std::fs::canonicalize(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if confined {
        let folder =
            std::fs::canonicalize(base).map_err(|e| format!("cannot read {shown}: {e}"))?;
        if !real.starts_with(&folder) {
            return Err(format!(
                "{shown} is outside the corpus folder; a corpus's clam.toml may only name files inside it (name it in your own config or a --config file)"
            ));
        }
    }
    let meta = std::fs::metadata(&real).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown} is not a regular file"));
    }
    if meta.len() > MAX_GAZETTEER_FILE_BYTES {
        return Err(format!(
            "{shown} is {} bytes; a gazetteer file may have at most {MAX_GAZETTEER_FILE_BYTES}",
            meta.len()
        ));
    }
    read_capped(&real, MAX_GAZETTEER_FILE_BYTES)
        .map_err(|e| format!("cannot read {shown}: {e}"))?
        .ok_or_else(|| {
            format!("{shown} grew past {MAX_GAZETTEER_FILE_BYTES} bytes while it was read")
        })
}

/// The text of `path`, never reading more than `cap` bytes of it: `None` when it is
/// longer (however long it is, or grows while it is read).
pub(super) fn read_capped(path: &Path, cap: u64) -> std::io::Result<Option<String>> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(cap + 1)
        .read_to_string(&mut text)?;
    Ok((text.len() as u64 <= cap).then_some(text))
}
