//! The agent's protocol (`docs/agent.md`, "The protocol"): JSON lines. Each line in is a
//! JSON string of keys or `{"reset": "KEYS"}` ([`parse_line`]); each is answered with one
//! line out, the observation's JSON or `{"error": "..."}` ([`Agent::answer`]); [`serve`]
//! runs a session over a reader and a writer, as `byog agent` does on its standard input
//! and output.

use std::io::{self, BufRead, Write};

use super::session::{Agent, error_json};

/// The longest line [`serve`] reads, in bytes (16 MiB: some 16 million keys); a longer line
/// is answered with an error and skipped.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// One line of the protocol, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// A JSON string: keys to play.
    Keys(String),
    /// `{"reset": KEYS}`: a fresh game from the menu with those keys.
    Reset(String),
}

/// Reads one line of the protocol (without its line break): a JSON string of keys, or the
/// object `{"reset": "KEYS"}`.
///
/// # Errors
/// A sentence saying what is wrong: not JSON, JSON of another type, an unknown field, a
/// `reset` that is not a string.
pub fn parse_line(line: &str) -> Result<Request, String> {
    const FORM: &str = r#"a line is a JSON string of keys, e.g. "WASD", or {"reset": "R42S"}"#;
    if line.trim().is_empty() {
        return Err(format!(
            r#"an empty line: {FORM} ("" plays no key and observes)"#
        ));
    }
    let value: serde_json::Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            let hint = if line
                .trim()
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ':')
            {
                format!(" (to play these keys, quote them: \"{}\")", line.trim())
            } else {
                String::new()
            };
            return Err(format!("not JSON ({e}): {FORM}{hint}"));
        }
    };
    match value {
        serde_json::Value::String(keys) => Ok(Request::Keys(keys)),
        serde_json::Value::Object(map) => {
            if let Some(field) = map.keys().find(|k| *k != "reset") {
                return Err(format!(
                    "unknown field {}: {FORM}",
                    serde_json::Value::from(field.as_str())
                ));
            }
            match map.get("reset") {
                Some(serde_json::Value::String(keys)) => Ok(Request::Reset(keys.clone())),
                Some(other) => Err(format!(
                    r#""reset" takes a string of keys, e.g. {{"reset": "R42S"}}, not {other}"#
                )),
                None => Err(format!("an empty object: {FORM}")),
            }
        }
        other => Err(format!("{} is not a request: {FORM}", json_type(&other))),
    }
}

/// The JSON type of `value` in words ("a number", "an array").
fn json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

impl Agent {
    /// Answers one line of the protocol (without its line break) with one line of JSON (no
    /// newline): the observation after the keys, or `{"error": "..."}`.
    pub fn answer(&mut self, line: &str) -> String {
        let result = match parse_line(line) {
            Err(why) => return error_json(&why),
            Ok(Request::Keys(keys)) => self.step(&keys),
            Ok(Request::Reset(keys)) => self.reset(&keys),
        };
        match result {
            Ok(observation) => observation.to_json(),
            Err(e) => e.to_json(),
        }
    }
}

/// The session of `byog agent`: reads lines from `input` until its end, answers each with
/// one line of JSON on `output`, flushed at once (a program waits for it). A line that is
/// not UTF-8, or longer than [`MAX_LINE_BYTES`], is answered with an error object.
///
/// # Errors
/// Reading `input` or writing `output` failed (a closed pipe included).
pub fn serve(
    agent: &mut Agent,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<()> {
    let mut line = Vec::new();
    while let Some(whole) = read_line(input, &mut line, MAX_LINE_BYTES)? {
        let answer = if !whole {
            error_json(&format!(
                "a line longer than {MAX_LINE_BYTES} bytes: send fewer keys a line"
            ))
        } else {
            match std::str::from_utf8(&line) {
                Ok(text) => agent.answer(text.strip_suffix('\r').unwrap_or(text)),
                Err(e) => error_json(&format!(
                    "the line is not UTF-8 text (byte {})",
                    e.valid_up_to()
                )),
            }
        };
        output.write_all(answer.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// Reads one line into `line` (without its `\n`): `None` at the end of the input,
/// `Some(true)` for a line of at most `max` bytes, `Some(false)` for a longer one (read to
/// its end and dropped). A last line without a line break counts.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    line.clear();
    let (mut any, mut whole) = (false, true);
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(any.then_some(whole));
        }
        any = true;
        let end = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..end.unwrap_or(available.len())];
        if whole && line.len() + chunk.len() <= max {
            line.extend_from_slice(chunk);
        } else {
            whole = false;
            line.clear();
        }
        let used = end.map_or(available.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            return Ok(Some(whole));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_whole_bounded_and_to_the_end() {
        let mut input = io::Cursor::new(b"\"W\"\n0123456789\nlast".to_vec());
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), Some(true));
        assert_eq!(line, b"\"W\"");
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), Some(false));
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), Some(true));
        assert_eq!(line, b"last");
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), None);
    }

    #[test]
    fn requests_are_strings_or_a_reset() {
        assert_eq!(parse_line(r#""WASD""#), Ok(Request::Keys("WASD".into())));
        assert_eq!(
            parse_line(r#" {"reset":"R1S"} "#),
            Ok(Request::Reset("R1S".into()))
        );
        for (line, says) in [
            ("", "an empty line"),
            ("WASD", "quote them: \"WASD\""),
            ("42", "a number is not a request"),
            (r#"{"reset":"R1S","x":1}"#, "unknown field \"x\""),
            (r#"{"reset":7}"#, "takes a string of keys"),
            ("{}", "an empty object"),
            ("[\"W\"]", "an array"),
        ] {
            let why = parse_line(line).unwrap_err();
            assert!(why.contains(says), "{line}: {why}");
        }
    }
}
