//! The terminal's keys, translated: what crossterm reports becomes a key for the shared
//! session ([`Shell::key`](byog_shell::Shell::key): arrows move like `W` `A` `S` `D`,
//! Backspace and Esc become U+0008 and U+001B, Tab the sight key), or quitting at once
//! (Ctrl-C, which raw mode delivers as a key instead of a signal).

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use byog_shell::keys::{BACKSPACE, END, ENTER, ESCAPE, HOME, SIGHT_KEY, WAIT_KEY, move_key};
use byog_tile_engine::Direction;

/// What a key press asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A key for the session (Tab is [`SIGHT_KEY`], which never reaches the interpreter).
    Key(char),
    /// Ctrl-C: quit now, without saving.
    Interrupt,
}

/// The input a key event asks for; `None` for key releases and for keys with no meaning here
/// (function keys, Ctrl or Alt with anything but Ctrl-C). Home and End become the watch's
/// [`HOME`] and [`END`] (the session drops them outside a watch).
pub fn translate(event: KeyEvent) -> Option<Input> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let control = event.modifiers.contains(KeyModifiers::CONTROL);
    let alt = event.modifiers.contains(KeyModifiers::ALT);
    match event.code {
        KeyCode::Char('c' | 'C') if control => Some(Input::Interrupt),
        _ if control || alt => None,
        KeyCode::Char(c) => Some(Input::Key(c)),
        KeyCode::Up => Some(Input::Key(move_key(Direction::Up))),
        KeyCode::Left => Some(Input::Key(move_key(Direction::Left))),
        KeyCode::Down => Some(Input::Key(move_key(Direction::Down))),
        KeyCode::Right => Some(Input::Key(move_key(Direction::Right))),
        KeyCode::Backspace => Some(Input::Key(BACKSPACE)),
        KeyCode::Esc => Some(Input::Key(ESCAPE)),
        KeyCode::Enter => Some(Input::Key(ENTER)),
        KeyCode::Tab => Some(Input::Key(SIGHT_KEY)),
        // The numpad's 5 with Num Lock off, as terminals that speak the kitty keyboard
        // protocol report it: the wait key, as `5` is with Num Lock on.
        KeyCode::KeypadBegin => Some(Input::Key(WAIT_KEY)),
        KeyCode::Home => Some(Input::Key(HOME)),
        KeyCode::End => Some(Input::Key(END)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Option<Input> {
        translate(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn keys_translate_as_in_the_window() {
        let none = KeyModifiers::NONE;
        assert_eq!(key(KeyCode::Char('n'), none), Some(Input::Key('n')));
        assert_eq!(
            key(KeyCode::Char('N'), KeyModifiers::SHIFT),
            Some(Input::Key('N'))
        );
        assert_eq!(key(KeyCode::Up, none), Some(Input::Key('W')));
        assert_eq!(key(KeyCode::Right, none), Some(Input::Key('D')));
        assert_eq!(key(KeyCode::Backspace, none), Some(Input::Key(BACKSPACE)));
        assert_eq!(key(KeyCode::Esc, none), Some(Input::Key(ESCAPE)));
        assert_eq!(key(KeyCode::Tab, none), Some(Input::Key(SIGHT_KEY)));
        assert_eq!(key(KeyCode::KeypadBegin, none), Some(Input::Key('.')));
        assert_eq!(
            key(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Some(Input::Interrupt)
        );
        assert_eq!(key(KeyCode::Char('z'), KeyModifiers::CONTROL), None);
        assert_eq!(key(KeyCode::F(1), none), None);
        assert_eq!(key(KeyCode::Home, none), Some(Input::Key(HOME)));
        assert_eq!(key(KeyCode::End, none), Some(Input::Key(END)));
    }
}
