// The lobby: a bundled battle started by name (or a scenario uploaded), one link a seat to
// share, a spectator's link, the bot as an opponent, and the games this browser made (kept
// in its own storage: a seat's token is a secret only its holder has).

const $ = (id) => document.getElementById(id);
function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, String(v));
  }
  for (const kid of kids) node.append(kid);
  return node;
}
const KEPT = "regiment.games";
const kept = () => { try { return JSON.parse(localStorage.getItem(KEPT) || "[]"); } catch { return []; } };

function seatLink(id, tokens) {
  const hash = new URLSearchParams({ game: id });
  for (const t of tokens) hash.append("seat", t);
  return `${location.origin}/play#${hash}`;
}

function showGames() {
  const box = $("made");
  box.replaceChildren();
  for (const g of kept().slice().reverse()) {
    const list = el("ul");
    for (const [player, token] of Object.entries(g.seats))
      list.append(el("li", {}, el("a", { href: seatLink(g.id, [token]), "data-seat": player },
        `play as ${player}`)));
    if (Object.keys(g.seats).length > 1)
      list.append(el("li", {}, el("a", { href: seatLink(g.id, Object.values(g.seats)),
        "data-seat": "table" }, "play every seat on this device (a table)")));
    list.append(el("li", {}, el("a", { href: `${location.origin}${g.spectate}`, "data-seat": "watch" },
      "watch (spectators' link)")));
    box.append(el("article", { "data-game": g.id }, el("h3", {}, `${g.title} (${g.id.slice(0, 8)})`), list));
  }
}

async function create(query, body, title) {
  $("status").textContent = "Starting...";
  const bot = $("bot").value;
  const url = `/games?${new URLSearchParams({ ...query, ...(bot ? { bot } : {}) })}`;
  const answer = await fetch(url, { method: "POST", body: body || "" });
  const made = await answer.json();
  if (!answer.ok) { $("status").textContent = made.error ? made.error.message : `refused (${answer.status})`; return; }
  localStorage.setItem(KEPT, JSON.stringify([...kept(), { id: made.id, title, seats: made.seats,
    spectate: made.spectate }]));
  $("status").textContent = `Started ${title}: share a seat's link with its player.`;
  showGames();
}

async function start() {
  const answer = await fetch("/battles");
  const { battles } = await answer.json();
  const players = new Set();
  for (const b of battles) {
    for (const p of b.players) players.add(p);
    $("battles").append(el("li", {}, el("button", { type: "button", "data-battle": b.name,
      onclick: () => create({ battle: b.name }, "", b.title) }, `${b.title} (${b.players.join(" v ")})`)));
  }
  for (const p of [...players].sort())
    $("bot").append(el("option", { value: p }, `the bundled bot, as ${p}`));
  $("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) create({}, await file.text(), file.name);
  });
  showGames();
}

start();
