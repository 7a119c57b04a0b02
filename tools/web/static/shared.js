// Shared dice in the browser (docs/protocol.md, "Shared dice"), with WebCrypto alone:
// SHA-256, HMAC-SHA-256 and Ed25519. A seat's part (Party: its chain, its key, kept
// non-extractable in IndexedDB) and every record checked as `regiment verify` does (Checker:
// each commitment's signature, each reveal against its chain, each die made again).

const enc = new TextEncoder();
export const LENGTH = 1024;   // rounds a chain can reveal: a game rolls a few hundred times
const SERVER = "@server";

export const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
const bytes = (h) => Uint8Array.from(h.match(/../g) || [], (x) => parseInt(x, 16));
const sha256 = async (b) => new Uint8Array(await crypto.subtle.digest("SHA-256", b));

// The parties' values in the order they key the dice: the host's first, then the seats'.
const order = (values) => Object.keys(values).sort((a, b) =>
  (a !== SERVER) - (b !== SERVER) || (a < b ? -1 : a > b ? 1 : 0));

// Die j of round k: the first byte below 252 of HMAC-SHA-256(the values joined,
// "regiment-dice/1 GAME K HEAD J BLOCK"), mod 6, plus 1 (core/shared.py's shared_faces).
export async function faces(values, gameId, k, head, count) {
  const joined = new Uint8Array(order(values).flatMap((p) => [...bytes(values[p])]));
  const key = await crypto.subtle.importKey("raw", joined, { name: "HMAC", hash: "SHA-256" },
    false, ["sign"]);
  const out = [];
  for (let j = 0; j < count; j++) {
    let face = 0;
    for (let block = 0; !face; block++) {
      const msg = enc.encode(`regiment-dice/1 ${gameId} ${k} ${head} ${j} ${block}`);
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, msg));
      const byte = mac.find((b) => b < 252);
      if (byte !== undefined) face = (byte % 6) + 1;
    }
    out.push(face);
  }
  return out;
}

async function verified(keyHex, sigHex, text) {
  try {
    const key = await crypto.subtle.importKey("raw", bytes(keyHex), { name: "Ed25519" }, false,
      ["verify"]);
    return await crypto.subtle.verify({ name: "Ed25519" }, key, bytes(sigHex), enc.encode(text));
  } catch { return false; }
}

// IndexedDB: the seat's key pair, its private key not extractable (WebCrypto keeps it so
// across a reload: a structured clone of the CryptoKey).
function keyStore() {
  return new Promise((done, fail) => {
    const open = indexedDB.open("regiment", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("keys");
    open.onsuccess = () => done(open.result);
    open.onerror = () => fail(open.error);
  });
}
async function kept(name, make) {
  const db = await keyStore();
  const get = (mode) => db.transaction("keys", mode).objectStore("keys");
  const found = await new Promise((done) => {
    const r = get("readonly").get(name); r.onsuccess = () => done(r.result); r.onerror = () => done(undefined);
  });
  if (found) return found;
  const made = await make();
  await new Promise((done) => { const r = get("readwrite").put(made, name); r.onsuccess = r.onerror = done; });
  return made;
}

// A seat's part of shared dice in this browser: its chain (x[LENGTH] a secret kept with the
// page's origin, so that a reload reveals the same chain) and its key.
export class Party {
  static async open(gameId, seat) {
    const p = new Party();
    p.gameId = gameId; p.seat = seat;
    const name = `regiment:${gameId}:${seat}`;
    let seed = localStorage.getItem(`${name}:chain`);
    if (!seed) { seed = hex(crypto.getRandomValues(new Uint8Array(32))); localStorage.setItem(`${name}:chain`, seed); }
    const values = [bytes(seed)];
    for (let i = 0; i < LENGTH; i++) values.push(await sha256(values[values.length - 1]));
    p.values = values.reverse();   // values[k] = x[k]
    p.keys = await kept(name, () => crypto.subtle.generateKey({ name: "Ed25519" }, false,
      ["sign", "verify"]));
    p.public = hex(await crypto.subtle.exportKey("raw", p.keys.publicKey));
    return p;
  }
  value(k) { return hex(this.values[k]); }
  async signText(text) { return hex(await crypto.subtle.sign({ name: "Ed25519" }, this.keys.privateKey, enc.encode(text))); }
  async commitment() {
    const anchor = this.value(0);
    const sig = await this.signText(`regiment-dice/1 commit ${this.gameId} ${this.seat} ${anchor} ${LENGTH}`);
    return { anchor, length: LENGTH, key: this.public, sig };
  }
  async sign(step, head) { return this.signText(`regiment-receipt/1 ${this.gameId} ${step} ${head}`); }
}

// Every record of a game checked as it comes: commitments, reveals and dice. `rounds`: the
// rounds checked; `problem`: the first thing that did not hold (then nothing more is trusted).
export class Checker {
  constructor(gameId) { this.gameId = gameId; this.last = {}; this.rounds = 0; this.problem = ""; this.made = null; this.chain = Promise.resolve(); }
  feed(records) { for (const r of records) this.chain = this.chain.then(() => this.check(r)); return this.chain; }
  fail(text) { if (!this.problem) this.problem = text; }
  async check(r) {
    if (this.problem) return;
    const d = r.data;
    if (r.type === "DiceCommitted") {
      const text = `regiment-dice/1 commit ${this.gameId} ${d.party} ${d.anchor} ${d.length}`;
      if (!(await verified(d.key, d.sig, text))) this.fail(`record ${r.seq}: ${d.party}'s commitment is not signed by its key`);
      this.last[d.party] = d.anchor;
    } else if (r.type === "DiceRevealed") {
      for (const [party, value] of Object.entries(d.values)) {
        if (hex(await sha256(bytes(value))) !== this.last[party]) {
          this.fail(`record ${r.seq}: ${party}'s reveal for round ${d.round} does not hash to its previous value`);
          return;
        }
        this.last[party] = value;
      }
      this.made = await faces(d.values, this.gameId, d.round, d.head, d.dice);
    } else if (r.type === "DiceRolled" && this.made) {
      const told = d.faces.slice(d.faces.length - this.made.length);
      if (told.join() !== this.made.join()) this.fail(`record ${r.seq}: the dice show ${told}; the reveals make ${this.made}`);
      else this.rounds += 1;
      this.made = null;
    }
  }
}
