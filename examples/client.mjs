// A client of `regiment serve` in another language, written from docs/protocol.md,
// docs/board.md and the published schema (docs/schema/regiment.json) alone: it reads the
// schema, starts the engine as a child process, checks the protocol's version against the
// schema's, checks every message it gets and every command it sends against the schema,
// counts the board's pieces, tries each command before it sends it, and plays a random legal
// command for whoever decides until the game is over. Node.js 18 or newer, no packages.
//
//     node examples/client.mjs SCENARIO [REGIMENT] [SCHEMA]
//
// REGIMENT is how to run regiment (default: "regiment"), e.g. ".venv/bin/regiment"; SCHEMA
// the schema's file (default: docs/schema/regiment.json beside this file's folder).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const here = new URL("..", import.meta.url);
const [scenario, regiment = "regiment",
       schemaPath = new URL("docs/schema/regiment.json", here)] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, "utf-8"));

// The parts of JSON Schema (draft 2020-12) the published schema uses, checked plainly:
// the first thing that does not hold is returned as a path and a reason, null if all holds.
function check(value, rule, path = "$") {
  if (rule === true || rule === undefined) return null;
  if (rule.$ref) {
    const found = check(value, rule.$ref.slice(2).split("/").reduce((o, k) => o[k], schema), path);
    if (found) return found;
  }
  const kind = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
  if (rule.type) {
    const types = [].concat(rule.type);
    const fits = types.some((t) => t === kind || (t === "integer" && Number.isInteger(value)) ||
                             (t === "number" && kind === "number"));
    if (!fits) return `${path}: expected ${types.join(" or ")}, got ${kind}`;
  }
  if ("const" in rule && value !== rule.const) return `${path}: expected ${rule.const}`;
  if (rule.enum && !rule.enum.includes(value)) return `${path}: not one of ${rule.enum}`;
  if (rule.pattern && kind === "string" && !new RegExp(rule.pattern).test(value)) {
    return `${path}: does not match ${rule.pattern}`;
  }
  if (rule.minimum !== undefined && kind === "number" && value < rule.minimum) {
    return `${path}: below ${rule.minimum}`;
  }
  if (kind === "object") {
    for (const key of rule.required ?? []) if (!(key in value)) return `${path}: no ${key}`;
    for (const [key, sub] of Object.entries(rule.properties ?? {})) {
      if (key in value) { const found = check(value[key], sub, `${path}.${key}`); if (found) return found; }
    }
    if (rule.additionalProperties !== undefined && rule.additionalProperties !== true) {
      for (const [key, item] of Object.entries(value)) {
        if (rule.properties && key in rule.properties) continue;
        if (rule.additionalProperties === false) return `${path}: unknown field ${key}`;
        const found = check(item, rule.additionalProperties, `${path}.${key}`);
        if (found) return found;
      }
    }
  }
  if (kind === "array") {
    if (rule.minItems !== undefined && value.length < rule.minItems) return `${path}: too short`;
    if (rule.maxItems !== undefined && value.length > rule.maxItems) return `${path}: too long`;
    const first = rule.prefixItems ?? [];
    for (let i = 0; i < value.length; i++) {
      const found = check(value[i], i < first.length ? first[i] : rule.items, `${path}[${i}]`);
      if (found) return found;
    }
  }
  for (const sub of rule.allOf ?? []) { const found = check(value, sub, path); if (found) return found; }
  if (rule.anyOf) {
    const why = rule.anyOf.map((sub) => check(value, sub, path));
    if (why.every((found) => found)) return `${path}: fits none of its shapes (${why.join("; ")})`;
  }
  if (rule.oneOf && rule.oneOf.filter((sub) => !check(value, sub, path)).length !== 1) {
    return `${path}: fits not exactly one of ${rule.oneOf.length} shapes`;
  }
  return null;
}

function valid(value, part) {
  const found = check(value, { $ref: `#/$defs/${part}` });
  if (found) throw new Error(`not a valid ${part}: ${found}`);
  return value;
}

const engine = spawn(regiment, ["serve", scenario, "--store", ":memory:"],
                     { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: engine.stdout })[Symbol.asyncIterator]();
const next = async () => valid(JSON.parse((await lines.next()).value), "Message");
const send = async (message) => { engine.stdin.write(JSON.stringify(message) + "\n"); return next(); };

const hello = await next();
if (hello.protocol !== schema.protocol) {
  throw new Error(`protocol ${hello.protocol}: this client reads the schema of ${schema.protocol}`);
}
const board = (await send(valid({ query: "board" }, "Request"))).board;
console.log(`game ${hello.game_id}: ${board.pieces.length} pieces on a ` +
            `${board.table.width}" x ${board.table.depth}" table (${board.frame.units})`);
let pending = hello.pending, steps = 0, checked = 1;
while (pending.kind === "decision") {
  const legal = pending.legal.filter((c) => c.cmd !== "undo" && c.cmd !== "redo");
  const command = valid(legal[Math.floor(Math.random() * legal.length)], "Command");
  const tried = (await send({ query: "try", cmd: command })).try;   // a what-if first
  if (tried.refused) throw new Error(`a legal command was refused: ${tried.refused.message}`);
  const answer = await send(command);
  if (answer.error) throw new Error(`refused: ${answer.error.code}: ${answer.error.message}`);
  pending = answer.pending;
  steps += 1;
  checked += 2;
}
const outcome = pending.outcome;
console.log(`over after ${steps} steps (${checked} messages valid): ` +
            (outcome ? (outcome.winner ? `${outcome.winner} won` : "no winner") +
             ` (${outcome.ending.code}, ${outcome.rule})` : pending.kind));
engine.stdin.end();
