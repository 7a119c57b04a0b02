// The load client (another process): GAMES matches made through the lobby API, both seats of
// each a boardgame.io Client over its socket.io transport, each seat moving as soon as it is
// its turn, until every match has made MOVES moves. Prints one JSON line: the moves made, the
// wall time, each move's latency (sent to the state after it, seen by the mover) and the bytes
// each seat was sent over the moves (socket.io's frames as its engine received them).
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Dice } = require("./game.cjs");

const [port, games, moves] = process.argv.slice(2).map(Number);
const STALL = 15000;
const api = `http://127.0.0.1:${port + 1}`;

async function post(path, body) {
  const r = await fetch(`${api}${path}`, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

async function main() {
  const matches = [];
  for (let i = 0; i < games; i++) {
    const { matchID } = await post("/games/dice/create", { numPlayers: 2 });
    const seats = [];
    for (const playerID of ["0", "1"]) {
      const { playerCredentials } = await post(`/games/dice/${matchID}/join`, { playerID, playerName: `p${playerID}` });
      seats.push({ playerID, credentials: playerCredentials });
    }
    matches.push({ matchID, seats });
  }
  const latencies = [];
  let received = 0;
  let made = 0, left = games, started = false, finish;
  const done = new Promise((r) => { finish = r; });
  const seats = [];
  for (const m of matches) {
    m.made = 0;
    for (const s of m.seats) {
      const seat = { ...s, match: m, sent: null };
      seat.client = Client({ game: Dice, numPlayers: 2, matchID: m.matchID, playerID: s.playerID,
        credentials: s.credentials, multiplayer: SocketIO({ server: `localhost:${port}` }), debug: false });
      seat.client.subscribe((state) => act(seat, state));
      seat.client.start();
      seat.client.transport.socket.io.engine.on("data", (data) => {
        if (started && left > 0) received += typeof data === "string" ? Buffer.byteLength(data) : data.length;
      });
      seats.push(seat);
    }
  }
  let last = 0, stalled = 0;
  function act(seat, state) {
    if (!state || !started || seat.match.over) return;
    if (seat.sent && state._stateID > seat.sent.id) {   // its move came back as the new state
      latencies.push(performance.now() - seat.sent.at);
      last = performance.now();
      seat.sent = null; made++;
      if (++seat.match.made >= moves) { seat.match.over = true; if (--left === 0) finish(); return; }
    }
    if (!seat.sent && state.ctx.currentPlayer === seat.playerID) {
      seat.sent = { id: state._stateID, at: performance.now() };
      seat.client.moves.roll(Number(seat.playerID));
    }
  }
  await new Promise((r) => setTimeout(r, 1000));   // every seat connected and synced
  console.log("start");   // the server's CPU is read from here (bench/peer.py)...
  const start = performance.now();
  started = true;
  last = start;
  // when no move has come back for STALL ms, the matches not done are counted as stalled and
  // left: boardgame.io's FlatFile at 200 matches once left a match waiting for ever
  const watch = setInterval(() => {
    if (performance.now() - last > STALL) { stalled = left; left = 0; finish(); }
  }, 1000);
  for (const seat of seats) act(seat, seat.client.getState());
  await done;
  clearInterval(watch);
  const wall = ((stalled ? last : performance.now()) - start) / 1000;
  console.log("end");     // ...to here
  for (const seat of seats) seat.client.stop();
  // exit once the line is written: a pipe takes 64 KiB at once, and exit would cut it
  process.stdout.write(JSON.stringify({ moves: made, wall, latencies, received, stalled }) + "\n", () => process.exit(0));
}
main().catch((e) => { console.error(e); process.exit(1); });
