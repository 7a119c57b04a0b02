// A client of `regiment serve` in another language, written from docs/protocol.md and
// docs/board.md alone: it starts the engine as a child process, checks the protocol's version,
// draws nothing but counts the board's pieces, and plays a random legal command for whoever
// decides until the game is over. Node.js 18 or newer, no packages.
//
//     node examples/client.mjs SCENARIO [REGIMENT]
//
// REGIMENT is how to run regiment (default: "regiment"), e.g. ".venv/bin/regiment".
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const [scenario, regiment = "regiment"] = process.argv.slice(2);
const engine = spawn(regiment, ["serve", scenario, "--store", ":memory:"],
                     { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: engine.stdout })[Symbol.asyncIterator]();
const next = async () => JSON.parse((await lines.next()).value);
const send = async (message) => { engine.stdin.write(JSON.stringify(message) + "\n"); return next(); };

const hello = await next();
if (hello.protocol !== 1) throw new Error(`protocol ${hello.protocol}: this client speaks 1`);
const board = (await send({ query: "board" })).board;
console.log(`game ${hello.game_id}: ${board.pieces.length} pieces on a ` +
            `${board.table.width}" x ${board.table.depth}" table (${board.frame.units})`);
let pending = hello.pending, steps = 0;
while (pending.kind === "decision") {
  const legal = pending.legal.filter((c) => c.cmd !== "undo" && c.cmd !== "redo");
  const command = legal[Math.floor(Math.random() * legal.length)];
  const tried = (await send({ query: "try", cmd: command })).try;   // a what-if first
  if (tried.refused) throw new Error(`a legal command was refused: ${tried.refused.message}`);
  const answer = await send(command);
  if (answer.error) throw new Error(`refused: ${answer.error.message}`);
  pending = answer.pending;
  steps += 1;
}
console.log(`over after ${steps} steps: ${pending.kind === "over" ?
            (pending.winner ? `${pending.winner} won` : "no winner") : pending.kind}`);
engine.stdin.end();
