// The keyboard, as the terminal reads it (docs/keys.md): arrows and the numpad move, vi-keys
// and digits go to the shell as typed (it moves with them only in play, where they mean
// nothing else), Tab, Backspace and Escape as their characters. Keys with Ctrl, Alt or Meta
// are the browser's.

const NAMED = {
  ArrowUp: "W", ArrowDown: "S", ArrowLeft: "A", ArrowRight: "D",
  Tab: "\t", Backspace: "\b", Escape: "\u001b",
};

// The key a KeyboardEvent stands for, or null for one the game does not take. The numpad's
// 5 waits in play (`inPlay`: the world is shown) and types 5 elsewhere (a seed); its other
// digits are digits, which the shell takes as moves in play.
export function keyOf(e, inPlay) {
  if (e.ctrlKey || e.altKey || e.metaKey) return null;
  if (e.code === "Numpad5") return inPlay ? "." : "5";
  if (e.key in NAMED) return NAMED[e.key];
  if (e.code && e.code.startsWith("Numpad") && /^[0-9]$/.test(e.code.slice(6))) return e.code.slice(6);
  if (e.key.length === 1 && e.key >= " " && e.key <= "~") return e.key;
  return null;
}

// The page's own key: sound on and off.
export const MUTE_KEY = "F2";
