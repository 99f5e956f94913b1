// Sound, made in code with WebAudio (no files): a tick a step, a low thud when health is
// lost, a rising chord for a new floor or a win, a falling one for a loss. Never needed to
// play; F2 or the button turns it off and on, and the choice is remembered.

let audio = null;
let muted = localStorage.getItem("byog.muted") === "1";

export function isMuted() { return muted; }

export function toggle() {
  muted = !muted;
  localStorage.setItem("byog.muted", muted ? "1" : "0");
  return muted;
}

// Browsers start audio only after a key or a click: called from those.
export function wake() {
  if (!audio && window.AudioContext) audio = new AudioContext();
  if (audio?.state === "suspended") audio.resume();
}

function tone(freq, start, length, type = "square", gain = 0.04) {
  if (!audio || muted) return;
  const t = audio.currentTime + start;
  const osc = audio.createOscillator();
  const g = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  g.gain.setValueAtTime(gain, t);
  g.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(g).connect(audio.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

// Sounds for the change from one frame's summary to the next.
export function react(before, after, message) {
  if (!before || !after) return;
  if (after.status !== before.status) {
    const up = after.status === "won";
    [0, 1, 2].forEach((i) => tone(up ? 330 * (1 + i * 0.25) : 330 / (1 + i * 0.25), i * 0.12, 0.25, "triangle", 0.06));
    return;
  }
  if (/health|hurt|hits you|springs/i.test(message || "")) tone(90, 0, 0.2, "sawtooth", 0.06);
  else if (/floor|B\d+/.test(message || "") && after.moves !== before.moves) tone(440, 0, 0.15, "triangle");
  else if (after.moves > before.moves) tone(180 + (after.moves % 4) * 10, 0, 0.03, "square", 0.015);
}
