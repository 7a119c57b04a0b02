// The play page: a game at a table (every seat's token in the address) or one seat of a
// hosted game (its own token). It speaks the engine's protocol over the game server's
// WebSocket (docs/protocol.md) and draws the board the engine gives (docs/board.md): it
// never decides a rule itself. Everything a scenario names reaches the page as text nodes,
// never as markup.

import { Checker, Party } from "./shared.js";

const SVG = "http://www.w3.org/2000/svg";
const hash = new URLSearchParams(location.hash.slice(1));
const gameId = hash.get("game") || "";
const tokens = [...hash.getAll("seat"), ...hash.getAll("watch")];
let lang = hash.get("lang") === "ru" ? "ru" : "en";

const WORDS = {
  en: {
    connecting: "Connecting to the game...", reconnecting: "Connection lost: reconnecting...",
    waitingFor: "Waiting for {player}: {what}", yourMove: "{player} to decide: {what}",
    roll: "{player} rolls {dice}D6 ({purpose})", measure: "{player} measures at the table",
    over: "The game is over", won: "{winner} won", draw: "a draw",
    preview: "Preview", confirm: "Confirm", cancel: "Cancel", allowed: "Allowed",
    refused: "Refused", nearest: "Move to the nearest legal end", used: "uses {used}\"",
    send: "Send", clear: "Clear", faces: "Faces: {faces}", yes: "Yes", no: "No",
    notYours: "Not your decision: waiting for {player}.", undo: "Undo", redo: "Redo",
    other: "Русский", protocol: "This page speaks protocol 3; the server speaks {v}.",
    dice: "Shared dice: {n} rolls checked in this browser, each die made again from every seat's reveal and the server's.",
    diceBad: "The dice do not check: {why}", revealing: "Every seat's browser reveals its part of these dice...", receipts: "Receipts (signed by the server and both seats)",
    noGame: "No game in this address: open a seat's link from the lobby.",
    then: "Then: {what}", head: "Head {head} at record {n}",
    boardHint: "The board: drag a highlighted unit to move it; tap a unit to see its options.",
    command: "Command", commandHint: "option number, undo, redo, roll 3 5, or a command as JSON",
    log: "The game so far", needs: "needs {need}", tableMode: "Table mode: the units stand on your table.",
    unknown: "Not understood: {text}", result: "Result",
    explainHint: "Explain this step", step: "Step {step}", headCode: "head", close: "Close",
  },
  ru: {
    connecting: "Подключение к игре...", reconnecting: "Связь потеряна: подключаемся снова...",
    waitingFor: "Ждём {player}: {what}", yourMove: "Решает {player}: {what}",
    roll: "{player} бросает {dice}D6 ({purpose})", measure: "{player} измеряет на столе",
    over: "Игра окончена", won: "победа: {winner}", draw: "ничья",
    preview: "Предпросмотр", confirm: "Подтвердить", cancel: "Отмена", allowed: "Можно",
    refused: "Нельзя", nearest: "Ближайшее допустимое место", used: "расходует {used}\"",
    send: "Отправить", clear: "Сбросить", faces: "Грани: {faces}", yes: "Да", no: "Нет",
    notYours: "Решаете не вы: ждём {player}.", undo: "Отменить", redo: "Вернуть",
    other: "English", protocol: "Страница говорит на протоколе 3, сервер на {v}.",
    dice: "Общие кубики: в этом браузере проверено бросков: {n}; каждый кубик заново получен из раскрытий обоих мест и сервера.",
    diceBad: "Кубики не сходятся: {why}", revealing: "Браузер каждого места раскрывает свою часть этих кубиков...", receipts: "Квитанции (подписаны сервером и обоими местами)",
    noGame: "В адресе нет игры: откройте ссылку места из лобби.",
    then: "Затем: {what}", head: "Голова {head} на записи {n}",
    boardHint: "Поле: перетащите выделенный отряд, чтобы его передвинуть; нажмите на отряд, чтобы увидеть его варианты.",
    command: "Команда", commandHint: "номер варианта, undo, redo, roll 3 5 или команда в JSON",
    log: "Ход игры", needs: "нужно {need}", tableMode: "Режим стола: отряды стоят на вашем столе.",
    unknown: "Не понято: {text}", result: "Итог",
    explainHint: "Объяснить этот шаг", step: "Шаг {step}", headCode: "голова", close: "Закрыть",
  },
};
const t = (key, vars = {}) => (WORDS[lang][key] ?? WORDS.en[key] ?? key)
  .replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
const words = (s) => String(s ?? "").replace(/_/g, " ");
const $ = (id) => document.getElementById(id);

// An element with attributes and children; a string child is a text node, never markup.
function el(tag, attrs = {}, ...kids) {
  const svg = tag.startsWith("svg:");
  const node = svg ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) node.append(kid);
  return node;
}

// What the page knows: all of it comes from the server's messages.
const game = {
  conns: [], records: 0, told: 0, pending: null, head: "", board: null, before: null,
  legal: [], said: [], chosen: null, faces: [], drag: null, over: null, steps: new Map(),
  latencies: [],   // ms from a command sent to the board redrawn after its step (make bench)
  checker: new Checker(gameId), receipts: new Map(),   // shared dice (shared.js)
  errors: [],   // every refusal the server sent, for a test or the console
};
window.regiment = game;   // for a test, or a curious player at the console

function connect(conn) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${location.host}/games/${encodeURIComponent(gameId)}/ws?token=` +
    `${encodeURIComponent(conn.token)}&after=${game.records}`;
  const ws = new WebSocket(url);
  conn.ws = ws;
  ws.onmessage = (m) => receive(conn, JSON.parse(m.data));
  ws.onclose = () => {
    conn.open = false;
    if (conn.ws !== ws) return;
    status(t("reconnecting"));
    setTimeout(() => connect(conn), conn.retry = Math.min(8000, (conn.retry || 500) * 2));
  };
  // joined again: what the server held of this seat in memory may be gone, so sent again
  ws.onopen = () => { conn.open = true; conn.retry = 500; conn.committing = false; conn.revealed = new Set(); pump(conn); };
}

// Shared dice, without the player noticing: a seat's connection commits when the server
// names it, reveals when a roll waits for it, and signs every head it is shown (the newest
// rides along with its next message); the receipts it keeps are signed by all three.
async function shared(conn, d) {
  if (d.shared) conn.isShared = true;   // the server says so in every step's message
  if (!conn.isShared || !conn.seat || conn.seat === "spectate") return;
  conn.party = conn.party || Party.open(gameId, conn.seat);
  const party = await conn.party;
  for (const [seat, s] of Object.entries(d.cosigned || (d.shared && d.shared.cosigned) || {})) {
    const r = game.receipts.get(s.step);
    if (r) r.seats[seat] = { head: s.head, key: s.key, sig: s.sig };
  }
  if (d.shared) conn.committed = !d.shared.commit.includes(conn.seat);
  if (d.receipt) {
    const r = d.receipt;
    if (!game.receipts.has(r.step)) game.receipts.set(r.step, { ...r, seats: {} });
    const sig = await party.sign(r.step, r.head);
    game.receipts.get(r.step).seats[conn.seat] = { head: r.head, key: party.public, sig };
    if (!conn.unsigned || conn.unsigned.step < r.step) conn.unsigned = { step: r.step, head: r.head, sig };
  }
  if (d.shared && !conn.committed && !conn.committing) {
    conn.committing = true;
    send(conn, { commit: await party.commitment() });
  }
  const p = d.pending;
  conn.revealed = conn.revealed || new Set();
  if (p && p.kind === "roll" && p.round && (p.parties || []).includes(conn.seat) && !conn.revealed.has(p.round)) {
    conn.revealed.add(p.round);
    conn.reveal = { reveal: { round: p.round, value: party.value(p.round) } };   // sent again if refused for the rate
    send(conn, conn.reveal);
  }
  if (p && p.kind === "over" && conn.unsigned) send(conn, {});
  showDice();
}

// A message to the server, with the newest head this seat was shown, signed; paced below a
// seat's rate (20 a second, 40 at once: the server drops the rest), queued meanwhile.
function send(conn, message) {
  if (conn.committed && conn.unsigned) { message = { ...message, signed: conn.unsigned }; conn.unsigned = null; }
  (conn.queue = conn.queue || []).push(JSON.stringify(message));
  pump(conn);
}
function pump(conn) {
  const now = performance.now();
  conn.tokens = Math.min(30, (conn.tokens ?? 30) + (now - (conn.at ?? now)) * 0.016);
  conn.at = now;
  while (conn.queue.length && conn.tokens >= 1 && conn.open) { conn.ws.send(conn.queue.shift()); conn.tokens -= 1; }
  if (conn.queue.length && !conn.pumping) {
    conn.pumping = setTimeout(() => { conn.pumping = null; pump(conn); }, conn.open ? (1 - conn.tokens) / 0.016 + 1 : 250);
  }
}

function showDice() {
  const c = game.checker;
  if (!c.rounds && !c.problem) return;
  const over = game.pending && game.pending.kind === "over";
  const shown = JSON.stringify([c.rounds, c.problem, over && game.receipts.size,
    over && [...game.receipts.values()].map((r) => Object.keys(r.seats).length)]);
  if (shown === game.diceShown) return;   // drawn again only when it changed (a link kept)
  game.diceShown = shown;
  const box = clear($("dice"));
  box.className = c.problem ? "alarm" : "hint";
  box.append(c.problem ? t("diceBad", { why: c.problem }) : t("dice", { n: c.rounds }));
  if (game.receipts.size && over) {
    const lines = [...game.receipts.keys()].sort((a, b) => a - b)
      .map((k) => JSON.stringify(game.receipts.get(k))).join("\n") + "\n";
    const link = el("a", { download: `receipts-${gameId}.jsonl`, id: "receipts",
      href: URL.createObjectURL(new Blob([lines], { type: "application/jsonl" })) }, t("receipts"));
    box.append(" ", link);
  }
}

const primary = () => game.conns[0];
const mine = (player) => game.conns.some((c) => c.seat === player);
function ask(request) {
  const c = primary();
  if (c && c.open) send(c, { ...request, lang });
}
function command(cmd) {
  const conn = game.conns.find((c) => c.seat === cmd.by) || primary();
  if (!conn || !conn.open) return;
  game.sentAt = performance.now();
  send(conn, cmd);
}

function receive(conn, d) {
  if ("protocol" in d) {
    if (d.protocol !== 3) { status(t("protocol", { v: d.protocol })); return; }
    conn.seat = d.seat;
    if (conn !== primary() && game.pending) refresh();   // a seat more to decide for
  }
  shared(conn, d).catch((e) => { game.checker.fail(String(e)); showDice(); });
  if (d.error) game.errors.push(d.error);
  if (d.error && ["wrong_round", "no_reveal_pending"].includes(d.error.code)) return;   // made meanwhile
  if (d.error) {
    showRefusal(d.error);
    if (d.error.code === "rate_limited") {
      setTimeout(refresh, 1000 * (d.error.retry_after || 1));
      if (conn.reveal) setTimeout(() => send(conn, conn.reveal), 1000 * (d.error.retry_after || 1));
    }
  }
  if (conn !== primary()) return;   // every step comes to every connection: one tells it
  if (d.pending) { game.pending = d.pending; game.head = d.head || game.head; }
  if (d.events) {
    game.checker.feed(d.events).then(showDice);
    for (const r of d.events) {
      game.records = Math.max(game.records, r.seq + 1);
      if (r.type === "GameStarted" && r.data.scenario && r.data.scenario.name)
        $("title").textContent = document.title = `regiment: ${r.data.scenario.name}`;
      if (!game.steps.has(r.step)) game.steps.set(r.step, []);
    }
    game.chosen = null;
    clear($("preview"));
    if (game.sentAt !== undefined) { game.stepAt = game.sentAt; game.sentAt = undefined; }
    refresh();
  } else if (d.pending && !d.story && !d.board && !d.legal && !d.try && !d.reach) {
    drawDecision();
  }
  if (d.story) tell(d.story);
  if (d.board) {
    game.before = game.board; game.board = d.board; drawBoard();
    if (game.stepAt !== undefined) {
      game.latencies.push(performance.now() - game.stepAt);
      game.stepAt = undefined;
    }
  }
  if (d.legal) {
    game.legal = d.legal; game.said = d.said || []; game.ready = game.records;
    drawDecision(); drawBoard();
  }
  if (d.try) showTry(d.try);
  if (d.reach) showReach(d.reach);
}

function refresh() {
  ask({ query: "story", after: game.told });
  ask({ query: "board" });
  const p = game.pending;
  if (p && p.kind === "decision" && mine(p.player)) ask({ query: "legal" });
  else {
    game.legal = []; game.said = []; drawDecision();
    if (game.conns.every((c) => c.seat !== undefined)) game.ready = game.records;   // all heard
  }
}

function status(text) { $("status").textContent = text; }
function clear(node) { while (node.firstChild) node.firstChild.remove(); return node; }

// --- the log: each step's sentences, a live region a screen reader reads out -------------
function tell(story) {
  const log = $("log");
  for (const line of story) {
    if (line.seq < game.told) continue;
    const first = !log.querySelector(`li[data-step="${line.step}"]`);
    const item = el("li", { "data-step": line.step, "data-seq": line.seq,
      tabindex: first ? 0 : -1, title: t("explainHint") }, line.text);
    if (first) item.className = "step";
    if (first && line.head) item.append(" ", el("code", { class: "head" }, line.head.slice(0, 10)));
    item.addEventListener("click", () => explain(line.step, line.head));
    item.addEventListener("keydown", (e) => { if (e.key === "Enter") explain(line.step, line.head); });
    log.append(item);
    game.told = line.seq + 1;
    if (line.type === "GameEnded") game.over = line.text;
  }
  game.told = Math.max(game.told, game.records);
  log.scrollTop = log.scrollHeight;
  if (game.head) $("head").textContent = t("head", { head: game.head.slice(0, 10), n: game.records });
}

// One step explained: every sentence it told (each with the rule that decided it) and the
// head code to note (the hash of its last record: a receipt of what the log held then).
function explain(step, head) {
  const box = clear($("preview"));
  box.append(el("h2", {}, t("step", { step }) + (head ? ` (${t("headCode")} ${head.slice(0, 10)})` : "")));
  const list = el("ul");
  for (const li of document.querySelectorAll(`#log li[data-step="${step}"]`))
    list.append(el("li", {}, li.firstChild ? li.firstChild.textContent : ""));
  box.append(list, el("button", { type: "button", onclick: () => clear($("preview")) }, t("close")));
}

// --- what the game waits for, as buttons and pickers -------------------------------------
function drawDecision() {
  const p = game.pending;
  // drawn again only when it changed: a player's focus and a test's click stay where they are
  const shown = JSON.stringify([p, game.legal, game.over, [...game.conns.map((c) => c.seat)]]);
  if (shown === game.shown) return;
  game.shown = shown;
  const box = clear($("decision"));
  if (!p) return;
  const who = p.player || "";
  if (p.kind === "over") {
    const outcome = p.outcome || {};
    const text = `${t("over")}: ${outcome.winner ? t("won", { winner: outcome.winner }) : t("draw")}` +
      (outcome.rule ? ` (${outcome.rule})` : "");
    status(text);
    box.append(el("div", { id: "result", role: "status" }, el("strong", {}, t("result")), el("br"),
      game.over || text));
    return;
  }
  if (p.kind === "decision") {
    status((mine(who) ? t("yourMove", { player: who, what: words(p.decision) }) :
      t("waitingFor", { player: who, what: words(p.decision) })));
    box.append(el("h2", {}, `${words(p.decision)} (${who})`));
    if (!mine(who)) { box.append(el("p", {}, t("notYours", { player: who }))); return; }
    const list = el("div", { class: "options", role: "group", "aria-label": words(p.decision) });
    game.legal.forEach((cmd, i) => {
      if (cmd.cmd === "undo" || cmd.cmd === "redo") return;
      list.append(el("button", { type: "button", "data-option": i, onclick: () => preview(i) },
        `${i + 1}. ${game.said[i] || words(cmd.cmd)}`));
    });
    box.append(list);
  } else if (p.kind === "roll") {
    status(t("roll", { player: who, dice: p.dice, purpose: words(p.purpose) }));
    box.append(el("h2", {}, t("roll", { player: who, dice: p.dice, purpose: words(p.purpose) })));
    if (p.need) box.append(el("p", {}, t("needs", { need: p.need })));
    if (p.round) box.append(el("p", { class: "hint" }, t("revealing")));   // shared: no pad
    else if (mine(who)) box.append(dicePad(p));
  } else if (p.kind === "measurement") {
    status(t("measure", { player: who }));
    box.append(el("h2", {}, p.asks || words(p.question)));
    if (mine(who)) box.append(measurePicker(p));
  }
}

function dicePad(p) {
  const pad = el("div", { class: "faces", role: "group", "aria-label": "D6" });
  const shown = el("p", { "aria-live": "polite" }, t("faces", { faces: game.faces.join(" ") }));
  for (let f = 1; f <= 6; f++) {
    pad.append(el("button", { type: "button", "data-face": f, onclick: () => {
      if (game.faces.length < p.dice) game.faces.push(f);
      shown.textContent = t("faces", { faces: game.faces.join(" ") });
      if (game.faces.length === p.dice) {
        const faces = game.faces; game.faces = [];
        command({ cmd: "roll", by: p.player, faces });
      }
    } }, String(f)));
  }
  pad.append(el("button", { type: "button", onclick: () => {
    game.faces = []; shown.textContent = t("faces", { faces: "" });
  } }, t("clear")));
  return el("div", {}, pad, shown);
}

function measurePicker(p) {
  const send = (value) => command({ cmd: "measure", by: p.player, value });
  const box = el("div", { class: "options" });
  if (p.measure === "yes_no") {
    box.append(el("button", { type: "button", "data-answer": "yes", onclick: () => send(true) }, t("yes")),
      el("button", { type: "button", "data-answer": "no", onclick: () => send(false) }, t("no")));
  } else if (p.measure === "count" || p.measure === "number") {
    for (let n = p.measure === "count" ? 1 : 0; n <= p.most; n++)
      box.append(el("button", { type: "button", "data-answer": n, onclick: () => send(n) }, String(n)));
  } else if (p.measure === "distance") {
    const input = el("input", { type: "number", min: 0, max: p.most, step: "0.1",
      "aria-label": p.asks || "inches", inputmode: "decimal" });
    box.append(input, el("button", { type: "button", class: "primary",
      onclick: () => send(Number(input.value)) }, t("send")));
  } else if (p.measure === "units") {
    const picked = new Set();
    for (const o of p.options || []) {
      const box2 = el("input", { type: "checkbox", value: o,
        onchange: (e) => e.target.checked ? picked.add(o) : picked.delete(o) });
      box.append(el("label", {}, box2, ` ${nameOf(o)}`));
    }
    box.append(el("button", { type: "button", class: "primary", onclick: () => send([...picked]) },
      t("send")));
  } else {
    for (const o of p.options || [])
      box.append(el("button", { type: "button", "data-answer": o, onclick: () => send(o) }, nameOf(o)));
  }
  return box;
}

function nameOf(id) {
  const piece = game.board && game.board.pieces.find((x) => x.id === id);
  return piece ? piece.name : words(id);
}

// --- a command tried before it is sent: the engine's answer, then the player confirms ----
// Undo's answers change no table: nothing to preview, the choice is the confirmation.
const UNTRIED = new Set(["grant_undo", "refuse_undo", "undo", "redo"]);
function preview(i) {
  game.chosen = game.legal[i];
  if (UNTRIED.has(game.chosen.cmd)) { command(game.chosen); return; }
  ask({ query: "try", cmd: game.chosen });
}

function showTry(tried) {
  const box = clear($("preview"));
  if (!game.chosen) return;
  box.append(el("h2", {}, t("preview")));
  if (tried.refused) {
    box.append(el("p", { class: "refused" }, `${t("refused")}: ${tried.refused.translated ||
      tried.refused.message} (${tried.refused.rule || ""})`));
  } else {
    box.append(el("p", { class: "allowed" }, t("allowed")));
    const list = el("ul");
    for (const e of tried.events || []) if (e.text) list.append(el("li", {}, e.text));
    box.append(list);
    if (tried.then) box.append(el("p", {}, t("then", { what: words(tried.then.decision ||
      tried.then.purpose || tried.then.kind) })));
  }
  confirmButtons(box, tried.refused ? null : game.chosen);
}

function confirmButtons(box, cmd) {
  const row = el("div", { id: "tools" });
  if (cmd) row.append(el("button", { type: "button", class: "primary", id: "confirm",
    onclick: () => { command(cmd); clear($("preview")); } }, t("confirm")));
  row.append(el("button", { type: "button", onclick: () => { game.chosen = null;
    game.drag = null; clear($("preview")); drawBoard(); } }, t("cancel")));
  box.append(row);
  const first = row.querySelector("button");
  if (first) first.focus();
}

function showRefusal(error) {
  const box = clear($("preview"));
  box.append(el("p", { class: "refused", role: "alert" },
    `${t("refused")}: ${error.translated || error.message}${error.rule ? ` (${error.rule})` : ""}`));
}

// --- the board, drawn in table inches (y up: the table's near edge at the bottom) --------
const COLOURS = ["#b3322b", "#2d5ea8", "#7a4fa0", "#c77d1a"];
function colour(player) {
  const players = game.players || (game.players = []);
  if (!players.includes(player)) players.push(player);
  return COLOURS[players.indexOf(player) % COLOURS.length];
}

function drawBoard() {
  const b = game.board;
  if (!b) return;
  const svg = clear($("board"));
  $("board-label").textContent = t("boardHint");
  if (!b.table.mapped) { clear($("legend")); drawRoster(b); return; }
  $("roster").hidden = true;
  svg.style.display = "";
  const W = b.table.width, D = b.table.depth, Y = (y) => D - y;
  svg.setAttribute("viewBox", `-1 -1 ${W + 2} ${D + 2}`);
  const pxPerInch = (svg.clientWidth || 800) / (W + 2);
  const font = Math.max(0.8, 13 / pxPerInch);
  const pts = (poly) => poly.map(([x, y]) => `${x},${Y(y)}`).join(" ");
  svg.append(el("svg:rect", { x: 0, y: 0, width: W, height: D, fill: "#7d9c62", stroke: "#4b5e3a",
    "stroke-width": 0.15 }));
  const terrain = { hills: "#9c8f5a", soft_cover: "#4f7a3a", hard_cover: "#6d6a64",
    blocking: "#3e3a34", cover: "#4f7a3a", difficult: "#8a6f4a" };
  for (const [kind, fill] of Object.entries(terrain))
    for (const poly of b.table[kind] || [])
      svg.append(el("svg:polygon", { points: pts(poly), fill, opacity: 0.75, class: `terrain ${kind}` },
        el("svg:title", {}, words(kind))));
  for (let x = 0; x <= W; x += 6)   // an inch scale along the near edge: a tick every 6"
    svg.append(el("svg:line", { x1: x, y1: D, x2: x, y2: D + 0.6, stroke: "#2a2117", "stroke-width": 0.08 }));
  svg.append(el("svg:text", { x: 0.2, y: D + 0.9, "font-size": Math.min(0.9, font), class: "scale" },
    '6"'));
  const concerned = new Set(game.legal.flatMap((c) => [c.unit, c.target, c.character].filter(Boolean)));
  const movable = new Set(game.legal.filter((c) => c.cmd === "move").map((c) => c.unit));
  const details = (game.pending && game.pending.details) || {};
  for (const [id, wedge] of Object.entries(details.front_arcs || {}))   // GEO.ARCS: who it sees
    if (concerned.has(id))
      svg.append(el("svg:polygon", { points: pts(wedge), class: "arc", fill: "#ffcc33",
        "fill-opacity": 0.12, stroke: "#ffcc33", "stroke-opacity": 0.5, "stroke-width": 0.1,
        "pointer-events": "none" }));
  const moved = lastMoves(b);
  for (const m of moved)
    svg.append(el("svg:line", { x1: m.from[0], y1: Y(m.from[1]), x2: m.to[0], y2: Y(m.to[1]),
      stroke: colour(m.player), "stroke-width": 0.25, class: "path", "marker-end": "" }));
  const labels = [];
  game.labels = labelled(b.pieces);
  game.boxes = b.pieces.filter((p) => p.corners || p.circles).map((p) => ({ id: p.id, box: bounds(p) }));
  for (const piece of b.pieces) {
    if (!piece.corners && !piece.circles) continue;
    const g = el("svg:g", { class: `unit${concerned.has(piece.id) ? " concerned" : ""}` +
      `${movable.has(piece.id) ? " movable" : ""}`, "data-id": piece.id, tabindex: 0,
      role: "button", "aria-label": `${piece.name} (${piece.player}, ${words(piece.status)})` });
    const fill = colour(piece.player), dim = piece.status === "fleeing" ? 0.45 : 0.85;
    const width = concerned.has(piece.id) ? 0.3 : 0.1;
    if (piece.corners) {
      g.append(el("svg:polygon", { points: pts(piece.corners), fill, "fill-opacity": dim,
        stroke: "#1d1a16", "stroke-width": width }));
      const [fl, fr] = piece.corners;   // the front edge, drawn thick: where it faces
      g.append(el("svg:line", { x1: fl[0], y1: Y(fl[1]), x2: fr[0], y2: Y(fr[1]),
        stroke: "#fff", "stroke-width": 0.25 }));
    } else {
      for (const [x, y, r] of piece.circles)
        g.append(el("svg:circle", { cx: x, cy: Y(y), r, fill, "fill-opacity": dim,
          stroke: "#1d1a16", "stroke-width": width / 2 }));
    }
    g.append(el("svg:title", {}, piece.name));
    g.addEventListener("pointerdown", (e) => startDrag(e, piece));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter") optionsOf(piece.id); });
    svg.append(g);
    labels.push({ piece, at: centre(piece) });
  }
  const legend = clear($("legend"));
  for (const piece of b.pieces) {
    const shown = piece.corners || piece.circles;
    legend.append(el("li", { class: shown ? "" : "gone", style: `color: ${colour(piece.player)}` },
      el("b", {}, short(piece)), ` ${piece.name} (${words(piece.status)})`));
  }
  const placed = [];
  for (const { piece, at } of labels) {
    const text = short(piece), [x, y] = place(piece, at, text.length * font * 0.62, font, placed);
    svg.append(el("svg:text", { x, y: Y(y) + font * 0.35, "font-size": font,
      "text-anchor": "middle", class: "label", "stroke-width": font * 0.18, "data-for": piece.id },
      text));
  }
}

function bounds(piece) {   // [x0, y0, x1, y1] in table inches
  const pts = piece.corners || piece.circles.flatMap(([x, y, r]) => [[x - r, y - r], [x + r, y + r]]);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

// A label where it covers no other piece and no other label: on its piece if there is room,
// else the nearest free place around it (a character beside a unit, units in contact).
function place(piece, at, w, h, placed) {
  const hits = (x, y) => {
    const box = [x - w / 2, y - h / 2, x + w / 2, y + h / 2];
    const over = (b) => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3];
    return game.boxes.some((o) => o.id !== piece.id && over(o.box)) || placed.some(over);
  };
  const tries = [[0, 0]];
  for (let r = 1; r <= 8; r++)
    for (const [dx, dy] of [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, 1], [1, -1], [-1, -1]])
      tries.push([dx * r * w * 0.6, dy * r * h * 0.9]);
  const [dx, dy] = tries.find(([dx, dy]) => !hits(at[0] + dx, at[1] + dy)) || [0, 0];
  const x = at[0] + dx, y = at[1] + dy;
  placed.push([x - w / 2, y - h / 2, x + w / 2, y + h / 2]);
  return [x, y];
}

// Where a point of the table is on the screen (for a test, or a helper page of one's own).
game.screen = (x, y) => {
  const svg = $("board"), D = game.board.table.depth;
  const p = new DOMPoint(x, D - y).matrixTransform(svg.getScreenCTM());
  return [p.x, p.y];
};

function initials(name) {   // a label that fits a unit: its name's initials
  const parts = String(name).split(/\s+/).filter(Boolean);
  return parts.length > 1 ? parts.map((w) => w[0]).join("").slice(0, 3) : String(name).slice(0, 3);
}

// Each piece's label, told apart where two names share their initials (EC, EC2).
function labelled(pieces) {
  const out = new Map(), seen = new Map();
  for (const p of pieces) {
    const base = initials(p.name), n = (seen.get(base) || 0) + 1;
    seen.set(base, n);
    out.set(p.id, n > 1 ? `${base}${n}` : base);
  }
  return out;
}
const short = (piece) => (game.labels && game.labels.get(piece.id)) || initials(piece.name);

function centre(piece) {
  const pts = piece.corners || piece.circles;
  return [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
}

function lastMoves(b) {
  const before = game.before;
  if (!before || !before.table.mapped) return [];
  const was = new Map(before.pieces.filter((p) => p.corners || p.circles).map((p) => [p.id, centre(p)]));
  const out = [];
  for (const p of b.pieces) {
    if (!(p.corners || p.circles) || !was.has(p.id)) continue;
    const from = was.get(p.id), to = centre(p);
    if (Math.hypot(to[0] - from[0], to[1] - from[1]) > 0.05) out.push({ from, to, player: p.player });
  }
  return out;
}

function drawRoster(b) {
  $("board").style.display = "none";
  $("board-label").textContent = t("tableMode");
  const table = clear($("roster"));
  table.hidden = false;
  for (const p of b.pieces)
    table.append(el("tr", {}, el("td", {}, p.name), el("td", {}, p.player),
      el("td", {}, String(p.models)), el("td", {}, words(p.status))));
}

function optionsOf(id) {
  const i = game.legal.findIndex((c) => c.unit === id || c.character === id);
  if (i >= 0) {
    const button = document.querySelector(`[data-option="${i}"]`);
    if (button) button.focus();
  }
}

// --- dragging a unit: Pointer Events, so a mouse and a finger take one path --------------
function svgPoint(e) {
  const svg = $("board"), m = svg.getScreenCTM().inverse();
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m);
  return [p.x, p.y];
}

function startDrag(e, piece) {
  const cmd = game.legal.find((c) => c.cmd === "move" && c.unit === piece.id);
  if (!cmd) { optionsOf(piece.id); return; }
  e.preventDefault();
  const target = e.currentTarget;
  target.setPointerCapture(e.pointerId);
  const start = svgPoint(e);
  const ghost = target.cloneNode(true);
  ghost.setAttribute("class", "ghost");
  $("board").append(ghost);
  let delta = [0, 0];
  const move = (ev) => {
    const p = svgPoint(ev);
    delta = [p[0] - start[0], p[1] - start[1]];
    ghost.setAttribute("transform", `translate(${delta[0]} ${delta[1]})`);
  };
  const up = () => {
    target.removeEventListener("pointermove", move);
    target.removeEventListener("pointerup", up);
    target.removeEventListener("pointercancel", up);
    if (Math.hypot(delta[0], delta[1]) < 0.2) { ghost.remove(); optionsOf(piece.id); return; }
    dropped(piece, cmd, delta[0], -delta[1]);
  };
  target.addEventListener("pointermove", move);
  target.addEventListener("pointerup", up);
  target.addEventListener("pointercancel", up);
}

// A unit dropped: a fantasy unit's front centre asked of ``reach`` (the legal end nearest to
// it if not there); a squad's first model tried where it was dropped.
function dropped(piece, cmd, dx, dy) {
  game.drag = { piece, cmd };
  if (piece.position) {
    ask({ query: "reach", unit: piece.id, x: round(piece.position[0] + dx),
      y: round(piece.position[1] + dy), kind: cmd.kind === "march" ? "march" : "forward" });
  } else {
    const [x, y] = piece.circles[0];
    game.chosen = { cmd: "move", by: cmd.by, unit: piece.id, x: round(x + dx), y: round(y + dy) };
    ask({ query: "try", cmd: game.chosen });
  }
}
const round = (v) => Math.round(v * 1000) / 1000;

function showReach(r) {
  const drag = game.drag;
  const box = clear($("preview"));
  if (!drag) return;
  const base = { cmd: "move", by: drag.cmd.by, unit: drag.piece.id };
  let chosen = null, end = null;
  if (r.legal) {
    box.append(el("p", { class: "allowed" }, `${t("allowed")}: ${t("used", { used: r.used.toFixed(1) })}`));
    chosen = { ...base, path: r.path };
    end = r.end;
  } else {
    box.append(el("p", { class: "refused" }, `${t("refused")}: ${r.refused ? r.refused.message : ""}` +
      (r.refused && r.refused.rule ? ` (${r.refused.rule})` : "")));
    if (r.nearest) {
      box.append(el("p", {}, `${t("nearest")}: ${t("used", { used: r.nearest.used.toFixed(1) })}`));
      chosen = { ...base, path: r.nearest.path };
      end = r.nearest.end;
    }
  }
  drawBoard();
  if (end) ghostAt(drag.piece, end);
  game.chosen = chosen;
  confirmButtons(box, chosen);
}

function ghostAt(piece, end) {   // the unit where the move would leave it (docs/board.md)
  const D = game.board.table.depth, f = end.facing * Math.PI / 180;
  const F = [Math.sin(f), Math.cos(f)], R = [Math.cos(f), -Math.sin(f)];
  const w = piece.width / 2, d = piece.depth;
  const corners = [[-w, 0], [w, 0], [w, -d], [-w, -d]].map(([r, b]) =>
    [end.x + R[0] * r + F[0] * b, end.y + R[1] * r + F[1] * b]);
  $("board").append(el("svg:polygon", { class: "ghost", points: corners.map(([x, y]) => `${x},${D - y}`).join(" "),
    fill: colour(piece.player), stroke: "#ffcc33", "stroke-width": 0.3 }));
}

// --- the command box: what `regiment play` takes, by keyboard ----------------------------
function typed(text) {
  text = text.trim();
  const p = game.pending || {};
  const seat = mine(p.player) ? p.player : (game.conns.find((c) => c.seat) || {}).seat;
  if (/^\d+$/.test(text) && game.legal[Number(text) - 1]) { command(game.legal[Number(text) - 1]); return; }
  if (text === "undo" || text === "redo") { command({ cmd: text, by: seat }); return; }
  const roll = text.match(/^roll((?:\s+[1-6])+)$/);
  if (roll) { command({ cmd: "roll", by: p.player, faces: roll[1].trim().split(/\s+/).map(Number) }); return; }
  if (text === "confirm" && game.chosen) { command(game.chosen); return; }
  try {
    const cmd = JSON.parse(text);
    if (cmd && typeof cmd === "object") { command({ by: seat, ...cmd }); return; }
  } catch { /* not JSON: said so below */ }
  showRefusal({ message: t("unknown", { text }) });
}

function start() {
  document.documentElement.lang = lang;
  $("undo").textContent = t("undo"); $("redo").textContent = t("redo"); $("lang").textContent = t("other");
  $("log-title").textContent = t("log");
  $("command").placeholder = t("commandHint");
  document.querySelector("label[for=command]").textContent = t("command");
  $("command-box").querySelector("button").textContent = t("send");
  status(t("connecting"));
  if (!gameId || !tokens.length) { status(t("noGame")); return; }
  $("title").textContent = `regiment: ${gameId}`;
  const seatOf = () => { const p = game.pending || {};
    return mine(p.player) ? p.player : (game.conns.find((c) => c.seat) || {}).seat; };
  $("undo").onclick = () => command({ cmd: "undo", by: seatOf() });
  $("redo").onclick = () => command({ cmd: "redo", by: seatOf() });
  $("lang").onclick = () => {
    hash.set("lang", lang === "en" ? "ru" : "en");
    location.hash = hash.toString();
    location.reload();
  };
  $("command-box").addEventListener("submit", (e) => {
    e.preventDefault(); typed($("command").value); $("command").value = "";
  });
  addEventListener("resize", drawBoard);
  for (const token of tokens) { const conn = { token }; game.conns.push(conn); connect(conn); }
}

start();
