//! JSONL files: lines read in order, a batch at a time, parsed on every core and
//! accepted in order; a line over the size limit is never held whole.

use super::*;

impl Loader<'_> {
    /// Loads a JSONL file: lines are read in order and parsed on every core, a batch
    /// at a time, then accepted in order.
    pub(super) fn load_jsonl(&mut self, abs: &Path, rel: &str) {
        let file = match fs::File::open(abs) {
            Ok(file) => file,
            Err(e) => {
                self.skip(rel, None, format!("the file cannot be read: {e}; skipped"));
                return;
            }
        };
        let size = file.metadata().map_or(0, |m| m.len());
        self.progress.stage("loading", size, Unit::Bytes);
        self.load_jsonl_from(&mut BufReader::new(file), rel);
    }

    /// Loads the JSONL lines of `reader` (a file, or standard input) as the file
    /// `rel`. A file whose first line is a gold mention is passed over whole.
    pub(super) fn load_jsonl_from(&mut self, mut reader: &mut dyn BufRead, rel: &str) {
        let max = self.max_bytes();
        let cap = usize::try_from(max).unwrap_or(usize::MAX);
        let mut buf = Vec::new();
        let mut line_no = 0usize;
        let mut any_content = false;
        let mut batch = LineBatch::default();
        loop {
            if batch.full() {
                self.accept_lines(&mut batch, rel);
            }
            let len = match read_line_capped(&mut reader, cap, &mut buf) {
                Ok(Some(len)) => len,
                Ok(None) => break,
                Err(e) => {
                    self.accept_lines(&mut batch, rel);
                    self.skip(
                        rel,
                        None,
                        format!(
                            "the file cannot be read after line {line_no}: {e}; the rest of the file is skipped"
                        ),
                    );
                    return;
                }
            };
            line_no += 1;
            self.progress.advance(len as u64 + 1);
            let mut len = len as u64;
            let mut bom_len = 0;
            if line_no == 1 && buf.starts_with(BOM) {
                buf.drain(..BOM.len());
                len = len.saturating_sub(BOM.len() as u64);
                bom_len = BOM.len();
            }
            if len > max {
                any_content = true;
                batch.push(line_no, Err(oversized_message("the line", len, max)));
                continue;
            }
            if buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let first = !any_content;
            any_content = true;
            match String::from_utf8(std::mem::take(&mut buf)) {
                Ok(text) if first && is_gold_mention(&text) => {
                    self.pass_over(
                        rel,
                        "a gold mentions file ({\"doc\", \"start\", \"end\"} per line), not a document",
                    );
                    return;
                }
                Ok(text) => batch.push(line_no, Ok(text)),
                Err(e) => batch.push(
                    line_no,
                    Err(format!(
                        "the line is not valid UTF-8 text (byte offset {} in the line); skipped",
                        e.utf8_error().valid_up_to() + bom_len
                    )),
                ),
            }
        }
        self.accept_lines(&mut batch, rel);
        if !any_content {
            self.skip(
                rel,
                None,
                "the file holds no documents; nothing to load".to_string(),
            );
        }
    }

    /// Parses a batch of JSONL lines on every core and accepts them in order.
    fn accept_lines(&mut self, batch: &mut LineBatch, rel: &str) {
        use rayon::prelude::*;
        let parsed: Vec<(usize, Result<Value, String>)> = std::mem::take(&mut batch.lines)
            .into_par_iter()
            .map(|(line, text)| {
                let value = text.and_then(|text| {
                    serde_json::from_str::<Value>(&text)
                        .map_err(|e| format!("not valid JSON: {}; skipped", json_error_on_line(&e)))
                });
                (line, value)
            })
            .collect();
        batch.bytes = 0;
        for (line, value) in parsed {
            match value {
                Ok(value) => self.accept_json(value, rel, Some(line)),
                Err(message) => self.skip(rel, Some(line), message),
            }
        }
    }
}

/// JSONL lines read but not parsed yet: (line number, text or why it is skipped).
#[derive(Default)]
struct LineBatch {
    lines: Vec<(usize, Result<String, String>)>,
    bytes: usize,
}

impl LineBatch {
    const LINES: usize = 4096;
    const BYTES: usize = 16 << 20;

    fn push(&mut self, line: usize, text: Result<String, String>) {
        self.bytes += text.as_ref().map_or(0, String::len);
        self.lines.push((line, text));
    }

    fn full(&self) -> bool {
        self.lines.len() >= Self::LINES || self.bytes >= Self::BYTES
    }
}

/// Reads one line (without its `\n`, and without a `\r` before it) into `out`,
/// keeping at most `cap + 1` bytes so a huge line is never held in memory.
/// Returns the line's full length, or `None` at the end of the input.
pub(super) fn read_line_capped(
    reader: &mut impl BufRead,
    cap: usize,
    out: &mut Vec<u8>,
) -> io::Result<Option<usize>> {
    out.clear();
    let keep = cap.saturating_add(2);
    let mut total = 0usize;
    let mut read_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = keep.saturating_sub(out.len());
        out.extend_from_slice(&part[..part.len().min(room)]);
        total = total.saturating_add(part.len());
        reader.consume(used);
        if done {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    // `out` holds the whole line whenever the line is short enough to matter.
    if total == out.len() && out.last() == Some(&b'\r') {
        out.pop();
        total -= 1;
    }
    Ok(Some(total))
}
