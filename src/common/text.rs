//! How text from outside is shown back in messages: quoted, cut short and with unseen
//! characters escaped, the same way in every layer's errors. And what separates the words of
//! every text command.

/// What separates tokens: ASCII space and tab, nothing else. Other whitespace (a non-breaking
/// space, U+2000..U+200A, U+3000, a vertical tab, a form feed, a carriage return inside the
/// line) is part of the token it stands in.
pub const SEPARATORS: [char; 2] = [' ', '\t'];

/// How many characters of bad input an error quotes at most.
pub const QUOTE_LIMIT: usize = 32;

/// Bad input as an error quotes it: in single quotes, at most [`QUOTE_LIMIT`] characters of it
/// followed by `...` and its length in bytes, and with control characters and whitespace other
/// than a space escaped (`\r`, `\u{a0}`), so a GUI sees why a token did not split.
pub fn quote(text: &str) -> String {
    let mut quoted = String::from("'");
    for (count, c) in text.chars().enumerate() {
        if count == QUOTE_LIMIT {
            quoted.push_str(&format!("...' ({} bytes)", text.len()));
            return quoted;
        }
        push_visible(&mut quoted, c);
    }
    quoted.push('\'');
    quoted
}

/// Whether a reply shows `c` escaped: a control character, whitespace other than a space (U+00A0,
/// U+2000..U+200A, U+2028, U+2029, U+3000 ...), or an invisible format character (zero-width
/// spaces and joiners, the word joiner, the byte-order mark, the bidirectional controls).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}'
        )
}

/// The one escaping of bad input in replies (errors' quotes, `info string`, the xboard player's
/// errors): `c` as is, or `\t`, `\r`, `\n`, or `\u{<hex>}` when [`is_hidden`].
pub fn push_visible(text: &mut String, c: char) {
    match c {
        '\t' | '\r' | '\n' => text.extend(c.escape_default()),
        c if is_hidden(c) => text.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        c => text.push(c),
    }
}

/// `text` with every character as [`push_visible`] writes it.
pub fn visible(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        push_visible(&mut shown, c);
    }
    shown
}
