use super::*;

fn p(s: &str) -> String {
    project(s)
}

#[test]
fn white_space_of_every_kind_is_one_space() {
    let want = p("Edith Marlowe");
    for s in [
        "Edith\nMarlowe",
        "Edith  Marlowe",
        "Edith\u{a0}Marlowe",
        "Edith\u{2009}Marlowe",
        "Edith\u{3000}Marlowe",
        "Edith\r\n\t Marlowe",
        "Edith\u{2028}Marlowe",
    ] {
        assert_eq!(p(s), want, "{s:?}");
    }
}

#[test]
fn invisible_and_control_characters_are_dropped() {
    let want = p("Marlowe");
    for s in [
        "Mar\u{200b}lowe",
        "Mar\u{ad}lowe",
        "Mar\u{200d}lowe",
        "\u{202e}Marlowe\u{202c}",
        "Mar\u{feff}lowe",
        "Mar\u{0}lowe",
        "Mar\u{7f}lowe",
        "Mar\u{fe0f}lowe",
    ] {
        assert_eq!(p(s), want, "{s:?}");
    }
}

#[test]
fn escape_sequences_read_as_white_space() {
    assert_eq!(p("\u{1b}[1;31mEdith\u{1b}[0m Marlowe"), p(" Edith Marlowe"));
    assert_eq!(p("x\u{1b}]0;title\u{7}Edith"), p("x Edith"));
}

#[test]
fn hyphenated_line_wraps_join_and_other_hyphens_stay() {
    assert_eq!(p("Mar-\nlowe"), p("Marlowe"));
    assert_eq!(p("Mar-  \r\n   lowe"), p("Marlowe"));
    assert_eq!(p("Mar\u{2010}\nlowe"), p("Marlowe"));
    // Not a wrap: no line break, or no letter on either side.
    assert_eq!(p("Marlowe-Smith"), "rnarlowe-srnith");
    assert_eq!(p("12-\n34"), "12- 34");
    assert_eq!(p("Smith -\nJones"), "srnith - jones");
    assert!(has_hyphen_break("Mar-\nlowe"));
    assert!(!has_hyphen_break("Mar-lowe\n"));
    // Read without joining, the compound keeps its hyphen.
    let mut kept = String::new();
    for_each_projected("Marlowe-\nSmith", false, |c, _, _| kept.push(c));
    assert_eq!(kept, "rnarlowe- srnith");
}

#[test]
fn width_look_alikes_accents_and_case_meet() {
    let want = p("Edith Marlowe");
    for s in [
        "ＥＤＩＴＨ ＭＡＲＬＯＷＥ",
        "EDITH MARLOWE",
        "Edith M\u{430}rlowe",       // Cyrillic а
        "Edith Marl\u{3bf}we",       // Greek ο
        "\u{c9}dith Marl\u{f6}we",   // precomposed accents
        "E\u{301}dith Marlowe",      // combining accent
        "\u{1d404}dith Marlowe",     // mathematical bold E
        "Edith \u{41c}arlowe",       // Cyrillic capital Em
        "\u{415}dith Marlow\u{435}", // Cyrillic Ie, both cases
    ] {
        assert_eq!(p(s), want, "{s:?}");
    }
}

#[test]
fn capital_look_alikes_read_as_the_latin_capital() {
    // Cyrillic К, Т, Н and Greek Κ look like K, T, H in either case.
    assert_eq!(p("\u{41a}\u{422}\u{41d}"), p("KTH"));
    assert_eq!(p("\u{43a}\u{442}\u{43d}"), p("kth"));
    assert_eq!(p("\u{39a}abama"), p("Kabama"));
    // Latin I and l stay apart (case-insensitive, not confusable-folded for ASCII).
    assert_ne!(p("Ines"), p("lnes"));
}

#[test]
fn digits_of_every_script_are_ascii_and_dashes_are_hyphens() {
    assert_eq!(p("３１２–５５５—０１７７"), "312-555-0177");
    assert_eq!(p("\u{663}\u{661}\u{662}"), "312"); // Arabic-Indic
    assert_eq!(p("\u{969}\u{967}\u{968}"), "312"); // Devanagari
    assert_eq!(p("\u{1d7d1}"), "3"); // mathematical digit
}

#[test]
fn offsets_cover_the_whole_original_span() {
    let text = "Dr. E\u{301}dith\u{a0}\u{a0}Mar-\nlowe!";
    let proj = Projected::new(text);
    let value = p("Edith Marlowe");
    let at = proj.text.find(&value).expect("found");
    let (s, e) = proj.original_span(at, at + value.len()).expect("span");
    let original: String = text
        .chars()
        .skip(s as usize)
        .take((e - s) as usize)
        .collect();
    assert_eq!(original, "E\u{301}dith\u{a0}\u{a0}Mar-\nlowe");
}

#[test]
fn the_projection_of_a_concatenation_is_the_concatenation_of_projections() {
    // The property matching relies on (white space aside).
    for (a, b) in [
        ("Zoë", "Ｍüller"),
        ("Mar", "\u{200b}lowe"),
        ("x", "\u{300}y"),
    ] {
        assert_eq!(
            p(&format!("{a}{b}")),
            format!("{}{}", p(a), p(b)),
            "{a} {b}"
        );
    }
}

#[test]
fn the_reading_drops_what_a_reader_does_not_see_and_keeps_the_rest() {
    assert!(super::reading("Plain ASCII text,\nwith lines.\tTabs too.").is_none());
    assert!(super::reading("Café Müller, Straße").is_none());
    let text = "Patient:\u{A0}Har\u{200B}old\u{2009}Brennan \u{1b}[31mX\u{1b}[0m\u{2028}end";
    let r = super::reading(text).expect("changed");
    assert_eq!(r.text, "Patient: Harold Brennan  X \nend");
    // "Harold Brennan" in the reading is the whole original span, ZWSP included.
    let start = r.text.find("Harold").expect("found");
    let end = start + "Harold Brennan".len();
    let (s, e) = r.original_span(start, end).expect("span");
    let original: String = text.chars().skip(s).take(e - s).collect();
    assert_eq!(original, "Har\u{200B}old\u{2009}Brennan");
    // The escape sequence is one space that covers all of it.
    let x = r.text.find('X').expect("X");
    let (s, e) = r.original_span(x - 1, x).expect("span");
    let esc: String = text.chars().skip(s).take(e - s).collect();
    assert_eq!(esc, "\u{1b}[31m");
}
