// The lobby: a new game, your games, the games being played, the boards, the account.

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  let json = {};
  try { json = await r.json(); } catch { /* an empty answer */ }
  if (!r.ok) throw new Error(json.error || `${r.status} ${r.statusText}`);
  return json;
}

// The secrets of the games this browser started, by game id.
export function secrets() {
  try { return JSON.parse(localStorage.getItem("byog.secrets") || "{}"); } catch { return {}; }
}

export function remember(game, secret) {
  if (!secret) return;
  const all = secrets();
  all[game] = secret;
  localStorage.setItem("byog.secrets", JSON.stringify(all));
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function describe(g) {
  const s = g.summary;
  const seed = g.seed ?? "hidden seed";
  const what = g.mode ? `${g.mode} ${seed}` : "at the menu";
  const numbers = s ? ` · ${s.status} · ${s.moves} moves${s.score != null ? ` · ${s.score} points` : ""}` : "";
  return `${what} (${g.board})${numbers}`;
}

export async function showLiveGames(list, watchLinks) {
  const { games } = await api("/api/games");
  list.replaceChildren(...(games.length ? games.map((g) => el("li", {},
    el("a", { href: `/watch/${g.id}`, "data-link": "", text: `${g.player ?? "someone"}: ${describe(g)}` }),
    ` ${g.watchers} watching${g.connected ? "" : " · player away"}`)) : [el("li", { text: "nobody is playing right now" })]));
  if (watchLinks) watchLinks();
}

export async function showMyGames(list) {
  const mine = secrets();
  const me = await api("/api/me");
  const rows = new Map();
  for (const g of me.games || []) rows.set(g.id, g);
  const items = [];
  for (const [id, g] of rows) {
    const label = `${describe(g)} · ${g.state}`;
    items.push(el("li", {}, g.state === "finished" ? el("a", { href: `/watch/${id}`, "data-link": "", text: label })
      : el("a", { href: `/play/${id}`, "data-link": "", text: "resume: " + label })));
  }
  for (const id of Object.keys(mine)) {
    if (rows.has(id)) continue;
    try {
      const g = await api(`/api/games/${id}`);
      const label = `${describe(g)} · ${g.state}`;
      items.push(el("li", {}, g.state === "finished" ? el("a", { href: `/watch/${id}`, "data-link": "", text: label })
        : el("a", { href: `/play/${id}`, "data-link": "", text: "resume: " + label })));
    } catch { /* forgotten by the server */ }
  }
  list.replaceChildren(...(items.length ? items : [el("li", { text: "none yet" })]));
  return me;
}

export async function showBoard(form, table, note) {
  const data = new FormData(form);
  const q = new URLSearchParams({ board: data.get("board"), mode: data.get("mode") });
  if (data.get("day")) q.set("day", data.get("day"));
  const b = await api(`/api/scores?${q}`);
  note.textContent = b.board === "daily"
    ? `The daily ${b.mode} of ${b.day}${b.hidden ? ": its seed and keys are revealed once the day is over" : ""}.`
    : `The ${b.board} board of ${b.mode} games, best first: scored by the server's replay of their keys.`;
  const body = table.tBodies[0];
  body.replaceChildren(...b.scores.map((s, i) => el("tr", {},
    el("td", { text: String(i + 1) }), el("td", { text: s.player }), el("td", { text: String(s.score) }),
    el("td", { text: String(s.moves) }), el("td", { text: s.status }), el("td", { text: s.seed ?? "hidden" }),
    el("td", {}, s.game && !b.hidden ? el("a", { href: `/watch/${s.game}`, "data-link": "", text: "watch" }) : ""))));
  if (!b.scores.length) body.append(el("tr", {}, el("td", { colspan: "7", text: "no scores yet" })));
}
