//! The words of a text as the name recognizer reads them: byte spans, folded letters
//! (invisible characters inside a word skipped) and shape.

/// One word of the text: byte span, shape, and where its folded letters (lower case,
/// accents removed) are in [`Tokens::buf`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    pub(super) start: usize,
    pub(super) end: usize,
    fold: (usize, usize),
    pub(super) shape: Shape,
}

/// The words of a text; their folded letters share one buffer (no allocation per word).
pub(super) struct Tokens {
    buf: String,
    toks: Vec<Tok>,
}

impl Tokens {
    /// The folded letters of a word of this text.
    pub(super) fn fold_of(&self, t: &Tok) -> &str {
        &self.buf[t.fold.0..t.fold.1]
    }
    /// The folded letters of word `i`.
    pub(super) fn folded(&self, i: usize) -> &str {
        self.fold_of(&self.toks[i])
    }
}

impl std::ops::Deref for Tokens {
    type Target = [Tok];
    fn deref(&self) -> &[Tok] {
        &self.toks
    }
}

/// A word folded as the tokens are: lower case, accents removed.
pub(super) fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        fold_letter(c, &mut out);
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// "Brennan", "McDonald", "O'Neil", "Quintero-Hale".
    Cap,
    /// "BRENNAN".
    Upper,
    /// "C." or a lone capital "C".
    Initial,
    /// Lower case.
    Lower,
    /// Digits or anything else.
    Other,
}

fn fold_letter(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    for d in std::iter::once(c).nfkd() {
        if !is_combining_mark(d) {
            out.extend(d.to_lowercase());
        }
    }
}

fn is_joiner(c: char) -> bool {
    // "Ulug‘bek": Uzbek writes o‘ and g‘ with a turned comma.
    matches!(c, '\'' | '’' | '‘' | '-' | '\u{2010}' | '\u{2011}')
}

/// The words of `text` (letters and digits, inner apostrophes and hyphens); invisible
/// characters inside a word are skipped.
pub(super) fn tokens(text: &str) -> Tokens {
    let mut out = Vec::new();
    let mut buf = String::with_capacity(text.len() + text.len() / 8);
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if !c.is_alphanumeric() {
            continue;
        }
        let start = i;
        let mut end = i + c.len_utf8();
        let fold_start = buf.len();
        let folded = &mut buf;
        let mut upper = 0usize;
        let mut lower = 0usize;
        let mut digits = 0usize;
        let mut first_upper = c.is_uppercase();
        let mut letters = 0usize;
        let mut push = |c: char, folded: &mut String| {
            if c.is_alphabetic() {
                letters += 1;
                if c.is_uppercase() {
                    upper += 1;
                } else if c.is_lowercase() {
                    lower += 1;
                }
                fold_letter(c, folded);
            } else if c.is_numeric() {
                digits += 1;
                folded.push(c);
            } else {
                folded.push(if matches!(c, '’' | '‘') {
                    '\''
                } else {
                    '-'
                });
            }
        };
        push(c, folded);
        while let Some(&(j, d)) = it.peek() {
            if d.is_alphanumeric() || crate::text::is_dropped(d) {
                it.next();
                if !crate::text::is_dropped(d) {
                    push(d, folded);
                    end = j + d.len_utf8();
                }
                continue;
            }
            if is_joiner(d) {
                let mut ahead = it.clone();
                ahead.next();
                // A possessive "'s" is not part of the word ("BRENNAN's", "Kļaviņa’s").
                if matches!(d, '\'' | '’') {
                    let mut s = ahead.clone();
                    if s.next().is_some_and(|(_, e)| e == 's' || e == 'S')
                        && !s.peek().is_some_and(|&(_, e)| e.is_alphanumeric())
                    {
                        break;
                    }
                }
                if ahead.peek().is_some_and(|&(_, e)| e.is_alphabetic()) {
                    it.next();
                    push(d, folded);
                    continue;
                }
            }
            break;
        }
        if first_upper && !c.is_alphabetic() {
            first_upper = false;
        }
        let shape = if digits > 0 {
            Shape::Other
        } else if letters == 1 && upper == 1 {
            Shape::Initial
        } else if first_upper && lower > 0 {
            Shape::Cap
        } else if upper >= 2 && lower == 0 {
            Shape::Upper
        } else if upper == 0 {
            Shape::Lower
        } else {
            Shape::Other
        };
        let fold = (fold_start, buf.len());
        out.push(Tok {
            start,
            end,
            fold,
            shape,
        });
    }
    Tokens { buf, toks: out }
}

/// The text between two words is one space (any white space but a line break or a tab,
/// which separates the cells of a row; at most a few characters) — or, for an
/// initial, its period and a space.
pub(super) fn joined(text: &str, a: &Tok, b: &Tok) -> bool {
    let gap = &text[a.end..b.start];
    let gap = if a.shape == Shape::Initial {
        gap.strip_prefix('.').unwrap_or(gap)
    } else {
        gap
    };
    // Dutch "van 't Wel": the particle "'t" (het) after a space.
    if matches!(gap, " '" | " ’") && &text[b.start..b.end] == "t" {
        return true;
    }
    !gap.is_empty()
        && gap.chars().count() <= 3
        && gap.chars().all(|c| {
            (c.is_whitespace() && !matches!(c, '\n' | '\r' | '\t')) || crate::text::is_dropped(c)
        })
}

pub(super) fn in_list(list: &[&str], w: &str) -> bool {
    list.contains(&w)
}

/// A house number ("326", "48g", "18/7"), not a year (1900–2099).
pub(super) fn house_number(word: &str) -> bool {
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let year = digits == 4
        && word.len() == 4
        && word.parse::<u32>().is_ok_and(|y| (1900..2100).contains(&y));
    // What follows the digits: nothing, a letter ("221B"), or a range or unit of
    // digits ("12-14", "7/2"), never words ("47-year-old", "3rd").
    let rest = &word[digits..];
    let number_like = match rest.strip_prefix(['-', '/']) {
        Some(more) => {
            let d = more.chars().take_while(char::is_ascii_digit).count();
            d > 0 && more[d..].chars().count() <= 1
        }
        None => rest.chars().count() <= 1,
    };
    !year && number_like
}

/// After an initial's end, its period ("Ines C." ends after the dot).
pub(super) fn period_end(text: &str, end: usize) -> usize {
    if text[end..].starts_with('.') {
        end + 1
    } else {
        end
    }
}
