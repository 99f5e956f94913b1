// Paints a frame (docs/web.md, "Frames") on the canvas, and its text into the mirror: the
// page is a third painter of the frame the shell decides, beside the window and the
// terminal. Colours are the frame's own; walls drawn with box-drawing glyphs are painted
// as lines so that they join at any size.

export const HUD_ROWS = 2;
// The HUD's rows on a narrow canvas (a phone): a row's left and right texts each on a row of
// their own, so nothing is cut.
export const NARROW_HUD_ROWS = 4;
const HUD_BACKGROUND = "#181820";
const HINT = "#808080";

// Box-drawing glyphs as their arms: up, right, down, left (autotile's masks).
const ARMS = {
  "╵": 1, "╶": 2, "└": 3, "╷": 4, "│": 5, "┌": 6, "├": 7, "╴": 8, "┘": 9,
  "─": 10, "┴": 11, "┐": 12, "┤": 13, "┬": 14, "┼": 15,
};

// The cells of a wire view: [glyph, fg, bg, light] row by row from the top.
export function cells(view) {
  const looks = [];
  for (let i = 0; i + 1 < view.runs.length; i += 2) {
    const s = view.styles[view.runs[i]];
    for (let k = 0; k < view.runs[i + 1]; k++) looks.push(s);
  }
  const out = [];
  for (let y = 0; y < view.rows; y++) {
    const row = Array.from(view.text[y] ?? "");
    for (let x = 0; x < view.cols; x++) {
      const s = looks[y * view.cols + x] ?? "000000000000u";
      out.push([row[x] ?? " ", "#" + s.slice(0, 6), "#" + s.slice(6, 12), s[12]]);
    }
  }
  return out;
}

// Lines of `text` no wider than `cols` characters, broken at spaces.
function wrap(text, cols) {
  if (text.length <= cols) return [text];
  const out = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && (line + " " + word).length > cols) { out.push(line); line = word; }
    else line = line ? line + " " + word : word;
  }
  if (line) out.push(line);
  return out.flatMap((l) => l.length > cols ? l.match(new RegExp(`.{1,${cols}}`, "g")) : [l]);
}

// A text screen's lines as paragraphs when some are wider than `cols`: the game breaks its
// sentences at about 60 columns, and a narrow page that wrapped each line again would show
// them ragged. A plain line joins the one before it when that one is plain too, of the same
// colour and style, and this one goes on a sentence (it starts in lower case); lists,
// titles and legends keep their lines.
function paragraphs(lines, cols) {
  if (lines.every(([text]) => text.length <= cols)) return lines;
  const out = [];
  for (const line of lines) {
    const [text, colour, style, glyph] = line;
    const last = out[out.length - 1];
    const plain = !glyph && style !== "title" && style !== "heading";
    if (plain && last && !last[3] && last[1] === colour && last[2] === style && /^[a-z(]/.test(text)) {
      out[out.length - 1] = [`${last[0]} ${text}`, colour, style, glyph];
    } else {
      out.push(line);
    }
  }
  return out;
}

export class Painter {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.cell = 16;
    this.cols = 80;
    this.rows = 30;
    this.hudRows = HUD_ROWS;
  }

  // Sizes the canvas for `cols × (rows + hudRows)` cells of `cell` pixels.
  resize(cols, rows, cell, hudRows = HUD_ROWS) {
    this.cols = cols; this.rows = rows; this.cell = cell; this.hudRows = hudRows;
    const dpr = window.devicePixelRatio || 1;
    const w = cols * cell, h = (rows + hudRows) * cell;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.canvas.style.width = w + "px";
    this.canvas.style.height = h + "px";
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }

  font(bold) {
    return `${bold ? "bold " : ""}${Math.round(this.cell * 0.85)}px "DejaVu Sans Mono", ui-monospace, monospace`;
  }

  // The view cell under canvas pixel (px, py) (CSS pixels), or null off the view.
  cellAt(px, py) {
    const x = Math.floor(px / this.cell), y = Math.floor(py / this.cell) - this.hudRows;
    if (!this.view || x < 0 || y < 0 || x >= this.view.cols || y >= this.view.rows) return null;
    return [x, y];
  }

  paint(frame) {
    const { ctx, cell } = this;
    const W = this.cols * cell, H = (this.rows + this.hudRows) * cell;
    ctx.fillStyle = "#000";
    ctx.fillRect(0, 0, W, H);
    ctx.textBaseline = "middle";
    ctx.textAlign = "center";
    this.view = frame.view;
    if (frame.screen.kind === "text") {
      this.text(frame.screen, W, H);
      return;
    }
    if (frame.view) this.world(frame.view);
    if (frame.minimap) this.minimap(frame.minimap, frame.view);
    this.hud(frame.screen.hud, W);
  }

  text(screen, W, H) {
    const { ctx, cell } = this;
    const cols = Math.max(10, Math.floor(W / (cell * 0.62)));
    let y = Math.floor(H / cell / 4);
    for (const [text, colour, style, glyph] of paragraphs(screen.lines, cols)) {
      ctx.font = this.font(style === "title" || style === "heading");
      ctx.fillStyle = "#" + colour;
      for (const line of wrap(text, cols)) {
        ctx.fillText(line, W / 2, (y + 0.5) * cell);
        if (glyph) {
          // A legend's glyph, as the game draws it, two cells before the words.
          const x = W / 2 - ctx.measureText(line).width / 2 - 2 * cell;
          ctx.fillStyle = "#" + glyph[2];
          ctx.fillRect(x, y * cell, cell, cell);
          ctx.fillStyle = "#" + glyph[1];
          ctx.fillText(glyph[0], x + cell / 2, (y + 0.5) * cell);
          ctx.fillStyle = "#" + colour;
        }
        y += 1;
      }
    }
    if (screen.message) {
      const [text, colour] = screen.message;
      ctx.font = this.font(false);
      ctx.fillStyle = "#" + colour;
      const rows = wrap(text, cols);
      let my = Math.max(y, Math.floor(H / cell) - 2 - rows.length);
      for (const line of rows) ctx.fillText(line, W / 2, (my++ + 0.5) * cell);
    }
  }

  // The HUD's rows at the top, laid out as the shell lays them out for a terminal
  // (`hud_lines`): a row's left and right texts share a row when they fit; when not, the
  // message wraps onto rows of its own, any other left text is cut with "…", and the right
  // text (the game's numbers) wraps at its " · " rather than being cut. Rows past the HUD's
  // own are drawn over the top of the world, on the HUD's background.
  hud(rows, W) {
    const { ctx, cell } = this;
    ctx.font = this.font(false);
    const lines = hudLines(rows, W - cell, (t) => ctx.measureText(t).width);
    ctx.fillStyle = HUD_BACKGROUND;
    ctx.fillRect(0, 0, W, Math.max(this.hudRows, lines.length) * cell);
    lines.forEach(([left, colour, right], i) => {
      const y = (i + 0.5) * cell;
      ctx.textAlign = "right";
      ctx.fillStyle = HINT;
      ctx.fillText(right, W - cell * 0.5, y);
      ctx.textAlign = "left";
      ctx.fillStyle = "#" + colour;
      ctx.fillText(left, cell * 0.5, y);
    });
    ctx.textAlign = "center";
  }

  world(view) {
    const { ctx, cell } = this;
    const top = this.hudRows * cell;
    ctx.font = this.font(false);
    const all = cells(view);
    for (let i = 0; i < all.length; i++) {
      const [glyph, fg, bg, light] = all[i];
      if (light === "u" && glyph === " ") continue;
      const x = (i % view.cols) * cell, y = top + Math.floor(i / view.cols) * cell;
      ctx.fillStyle = bg;
      ctx.fillRect(x, y, cell, cell);
      if (glyph === " ") continue;
      ctx.fillStyle = fg;
      const arms = ARMS[glyph];
      if (arms !== undefined) {
        this.boxLines(x, y, arms, fg);
      } else {
        ctx.fillText(glyph, x + cell / 2, y + cell / 2 + 1);
      }
    }
  }

  boxLines(x, y, arms, colour) {
    const { ctx, cell } = this;
    const t = Math.max(1, Math.round(cell / 6));
    const cx = x + Math.floor((cell - t) / 2), cy = y + Math.floor((cell - t) / 2);
    ctx.fillStyle = colour;
    ctx.fillRect(cx, cy, t, t);
    if (arms & 1) ctx.fillRect(cx, y, t, cy - y + t);
    if (arms & 4) ctx.fillRect(cx, cy, t, y + cell - cy);
    if (arms & 8) ctx.fillRect(x, cy, cx - x + t, t);
    if (arms & 2) ctx.fillRect(cx, cy, x + cell - cx, t);
  }

  minimap(m, view) {
    const { ctx, cell } = this;
    if (!view) return;
    const scale = Math.max(1, Math.floor(Math.min((view.cols * cell) / 4 / m.width, (view.rows * cell) / 3 / m.height)));
    const w = m.width * scale, h = m.height * scale;
    // In the corner of the view the frame names (where it hides nothing seen), top-right by
    // default.
    const corner = m.corner ?? "TopRight";
    const right = corner.endsWith("Right"), top = corner.startsWith("Top");
    const x0 = right ? view.cols * cell - w - 4 : 4;
    const y0 = top ? this.hudRows * cell + 4 : (this.hudRows + view.rows) * cell - h - 4;
    ctx.fillStyle = "rgba(0,0,0,0.8)";
    ctx.fillRect(x0 - 2, y0 - 2, w + 4, h + 4);
    let i = 0;
    for (let r = 0; r + 1 < m.runs.length; r += 2) {
      const colour = m.colours[m.runs[r]], n = m.runs[r + 1];
      if (colour && colour.slice(6) !== "00") {
        ctx.fillStyle = "#" + colour;
        for (let k = i; k < i + n; k++) {
          ctx.fillRect(x0 + (k % m.width) * scale, y0 + Math.floor(k / m.width) * scale, scale, scale);
        }
      }
      i += n;
    }
    if (m.outline) {
      const [ox, oy, ow, oh] = m.outline;
      ctx.strokeStyle = "#808080";
      ctx.strokeRect(x0 + ox * scale + 0.5, y0 + oy * scale + 0.5, ow * scale, oh * scale);
    }
    for (const [p, c] of [[m.exit, "#ffc800"], [m.avatar, "#ffffff"]]) {
      if (p) { ctx.fillStyle = c; ctx.fillRect(x0 + p[0] * scale - 1, y0 + p[1] * scale - 1, scale + 2, scale + 2); }
    }
  }
}

// The frame as text: the HUD's rows (left · right) or the text screen's lines, then the
// view's rows: what the text mirror shows and screen readers read.
export function mirrorText(frame) {
  const lines = [];
  if (frame.screen.kind === "text") {
    for (const [text, , , glyph] of frame.screen.lines) lines.push(glyph ? `${glyph[0]}  ${text}` : text);
    if (frame.screen.message) lines.push("", frame.screen.message[0]);
  } else {
    for (const [left, , right] of frame.screen.hud) lines.push(left ? `${left} · ${right}` : right);
    if (frame.view) for (const row of frame.view.text) lines.push(row);
  }
  return lines.join("\n");
}

// The message a screen reader announces: the HUD's message (never the tile under the
// pointer, nor the numbers every move changes), or the text screen's.
export function messageOf(frame) {
  if (frame.screen.kind === "text") return frame.screen.message?.[0] ?? frame.screen.lines[0]?.[0] ?? "";
  return frame.screen.hud[1][0] || "";
}

// Pieces of `text` no wider than `max` (by `width`), broken at " · " where it can be, else
// at spaces, else inside a word.
function wrapPx(text, max, width) {
  if (width(text) <= max) return [text];
  const out = [];
  const put = (parts, sep, next) => {
    let line = "";
    for (const part of parts) {
      const joined = line ? line + sep + part : part;
      if (width(joined) <= max) { line = joined; continue; }
      if (line) out.push(line);
      if (width(part) <= max) line = part;
      else { next(part); line = ""; }
    }
    if (line) out.push(line);
  };
  const chars = (word) => {
    let line = "";
    for (const ch of word) {
      if (line && width(line + ch) > max) { out.push(line); line = ""; }
      line += ch;
    }
    if (line) out.push(line);
  };
  put(text.split(" · "), " · ", (part) => put(part.split(" "), " ", chars));
  return out;
}

// `text` cut with "…" to fit `max`.
function ellipsizePx(text, max, width) {
  if (width(text) <= max) return text;
  let shown = text;
  while (shown && width(shown + "…") > max) shown = shown.slice(0, -1);
  return shown + "…";
}

// A message (the second row's left text) that does not fit beside its row's status kept to
// the HUD's two rows, as the shell's `two_row_message`, keeping the full statuses (the
// bottom one ends with what `X` costs) where it can: with nothing named under the pointer,
// begun on the top row left of the top's full status and ended beside the bottom's; else
// beside the short status; else broken so beside the statuses that fit. Null when none
// fits, or when it fits beside the full status anyway.
function twoRowMessage(rows, max, width) {
  const gap = width("  ");
  const [top, [msg, colour, full]] = rows;
  if (!msg) return null;
  const room = (right) => max - width(right) - gap;
  if (width(msg) <= room(full)) return null;
  // The status a row shows: the full one when it fits beside `need` pixels, else the short.
  const status = ([, , f, s], need) =>
    [f, s].find((r, k) => (k === 0 || r) && room(r) >= need) ?? null;
  const fullOnly = ([, , f], need) => (room(f) >= need ? f : null);
  const words = msg.split(" ");
  const broken = (statusOf) => {
    if (top[0]) return null;
    for (let k = words.length - 1; k >= 1; k--) {
      const a = words.slice(0, k).join(" "), b = words.slice(k).join(" ");
      const up = statusOf(top, width(a)), down = statusOf(rows[1], width(b));
      if (up !== null && down !== null) return [[a, colour, up], [b, colour, down]];
    }
    return null;
  };
  const kept = broken(fullOnly);
  if (kept) return kept;
  const beside = status(rows[1], width(msg));
  if (beside !== null) {
    const first = hudLines([top, ["", colour, "", ""]], max, width);
    if (first.length !== 2) return null;
    return [first[0], [msg, colour, beside]];
  }
  return broken(status);
}

// The HUD's rows laid out in `max` pixels (`width` measures a text): [left, colour, right]
// rows, as the shell's `hud_lines` lays them out in characters.
export function hudLines(rows, max, width) {
  const two = twoRowMessage(rows, max, width);
  if (two) return two;
  const gap = width("  ");
  const out = [];
  rows.forEach(([left, colour, full, short], i) => {
    // The whole right text, wrapped, unless it takes more than two rows: then its short form.
    const whole = wrapPx(full, max, width);
    const right = short && whole.length > 2 ? short : full;
    if (!left || !right || width(left) + gap + width(right) <= max) {
      const parts = wrapPx(right, max, width);
      if (!left || !right || parts.length === 1) {
        out.push([left, colour, parts[0] ?? ""]);
        for (const r of parts.slice(1)) out.push(["", colour, r]);
        return;
      }
    }
    // The second row's left text is the message: it is never cut.
    if (i === 1) {
      for (const l of wrapPx(left, max, width)) out.push([l, colour, ""]);
    } else {
      out.push([ellipsizePx(left, max, width), colour, ""]);
    }
    for (const r of wrapPx(right, max, width)) out.push(["", colour, r]);
  });
  return out;
}
