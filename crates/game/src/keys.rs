//! The keys, named once (`docs/keys.md`): every front-end (the window, the terminal, the
//! browser) turns what its keyboard reports into these characters and hands them to the
//! shell, which feeds the interpreter or keeps them as view keys; input strings are made of
//! them too. The shell re-exports this module (`byog_shell::keys`), so a front-end needs
//! nothing below the shell to name a key.
//!
//! - keys with no printable character: [`BACKSPACE`], [`ESCAPE`], [`ENTER`], and a watch's
//!   [`HOME`] and [`END`];
//! - moves: [`move_key`] (the arrow keys' `W` `A` `S` `D`), [`WAIT_KEY`] and the aliases of
//!   [`move_alias`] (vi's and the numpad's);
//! - the shell's view keys, which never reach the interpreter: [`SIGHT_KEY`],
//!   [`MINIMAP_KEY`], [`HELP_KEY`] and [`LOG_KEY`], and the menu's [`WATCH_KEY`];
//! - what a key is called in a player's words ([`key_name`]) and which characters a player
//!   can type at all ([`is_typed`], what the browser's page may send).

use byog_tile_engine::Direction;

use crate::action::Action;

/// Backspace as a key (U+0008): deletes the last seed digit.
pub const BACKSPACE: char = '\u{8}';
/// Escape as a key (U+001B): leaves seed entry, an ended game or a watch for the menu.
pub const ESCAPE: char = '\u{1b}';
/// Enter as the front-ends hand it (U+000D, a carriage return, as terminals send it).
pub const ENTER: char = '\r';
/// The Home key as the front-ends hand it to a watch (a private-use character, U+E000: no
/// input string or typed text holds it): back to the first step.
pub const HOME: char = '\u{E000}';
/// The End key as the front-ends hand it to a watch (U+E001, see [`HOME`]): on to the last
/// step.
pub const END: char = '\u{E001}';
/// The wait key (`.`): a turn in which only the monsters act (`docs/keys.md`, Waiting).
pub const WAIT_KEY: char = Action::Wait.key();
/// The key that toggles sight in a classic game: Tab (runs and explorations are always
/// played in sight). A view key of the shell: never fed to the interpreter.
pub const SIGHT_KEY: char = '\t';
/// The key that shows or hides the minimap while a world is shown (either case). A view key
/// of the shell: never fed to the interpreter.
pub const MINIMAP_KEY: char = 'M';
/// The key that shows the help screen of the current mode, at the menu or in a game. A view
/// key of the shell: never fed to the interpreter.
pub const HELP_KEY: char = '?';
/// The key that shows the message log while a game is played (either case). A view key of
/// the shell: never fed to the interpreter.
pub const LOG_KEY: char = 'P';
/// The menu key that watches the save (`crate::watch`; either case). A key of the shell:
/// never fed to the interpreter.
pub const WATCH_KEY: char = 'V';

/// The key that moves one tile in `direction`: `W` up, `A` left, `S` down, `D` right (the
/// sp18 spec's keys, which the arrow keys stand for in every front-end).
pub const fn move_key(direction: Direction) -> char {
    Action::Move(direction).key()
}

/// The move a key stands for while a game is played, besides `W` `A` `S` `D`: vi's `h` `j`
/// `k` `l` and the numpad's `4` `2` `8` `6` (Rogue's and NetHack's keys), and the numpad's
/// `5` for the wait key `.`. Only in play, where those keys mean nothing else: `L` still
/// loads at the menu and digits still type a seed. The history records the `W` `A` `S` `D`
/// (or `.`) key.
pub fn move_alias(key: char) -> Option<char> {
    match key.to_ascii_lowercase() {
        'h' | '4' => Some(move_key(Direction::Left)),
        'j' | '2' => Some(move_key(Direction::Down)),
        'k' | '8' => Some(move_key(Direction::Up)),
        'l' | '6' => Some(move_key(Direction::Right)),
        '5' => Some(WAIT_KEY),
        _ => None,
    }
}

/// Whether `key` is one a player can type on a keyboard, as a browser's page sends them:
/// printable ASCII, Space, Tab ([`SIGHT_KEY`]), Backspace and Esc. Anything else (control
/// characters, the watch's private-use [`HOME`] and [`END`], letters beyond ASCII) is no key
/// of byog's.
pub fn is_typed(key: char) -> bool {
    key.is_ascii_graphic() || matches!(key, ' ' | SIGHT_KEY | BACKSPACE | ESCAPE)
}

/// The name of a key in a player's words: `'x'`, or `Backspace`, `Esc`, `Enter`, `Tab`,
/// `Space`, or `U+XXXX` for another invisible character.
pub fn key_name(key: char) -> String {
    match key {
        BACKSPACE => "Backspace".into(),
        ESCAPE => "Esc".into(),
        '\n' | ENTER => "Enter".into(),
        '\t' => "Tab".into(),
        ' ' => "Space".into(),
        c if c.is_control() => format!("U+{:04X}", c as u32),
        c => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arrow_keys_are_the_moves_the_interpreter_knows() {
        for d in Direction::ALL {
            assert_eq!(Action::from_key(move_key(d)), Some(Action::Move(d)));
        }
        assert_eq!(
            ['W', 'A', 'S', 'D'],
            [
                Direction::Up,
                Direction::Left,
                Direction::Down,
                Direction::Right
            ]
            .map(move_key)
        );
        assert_eq!(Action::from_key(WAIT_KEY), Some(Action::Wait));
    }

    #[test]
    fn aliases_stand_for_moves_and_the_wait_in_either_case() {
        for (keys, to) in [
            ("hH4", 'A'),
            ("jJ2", 'S'),
            ("kK8", 'W'),
            ("lL6", 'D'),
            ("5", '.'),
        ] {
            for k in keys.chars() {
                assert_eq!(move_alias(k), Some(to), "{k:?}");
            }
        }
        for k in "wasdWASD.xX>:qQnN0139 \t".chars() {
            assert_eq!(move_alias(k), None, "{k:?}");
        }
    }

    #[test]
    fn typed_keys_are_printable_ascii_space_tab_backspace_and_esc() {
        let typed: Vec<char> = (0..=0x7f_u8)
            .map(char::from)
            .filter(|&c| is_typed(c))
            .collect();
        // 94 printable characters, Space, Tab, Backspace and Esc.
        assert_eq!(typed.len(), 94 + 4);
        for k in [' ', '\t', BACKSPACE, ESCAPE, '~', '!', 'a', 'Z', '0'] {
            assert!(is_typed(k), "{k:?}");
        }
        for k in [ENTER, '\n', '\0', '\u{7f}', HOME, END, 'é', '\u{85}'] {
            assert!(!is_typed(k), "{k:?}");
        }
    }

    #[test]
    fn keys_have_names_a_player_reads() {
        assert_eq!(key_name(BACKSPACE), "Backspace");
        assert_eq!(key_name(ESCAPE), "Esc");
        assert_eq!(key_name(ENTER), "Enter");
        assert_eq!(key_name(SIGHT_KEY), "Tab");
        assert_eq!(key_name(' '), "Space");
        assert_eq!(key_name('\u{7}'), "U+0007");
        assert_eq!(key_name('x'), "'x'");
    }
}
