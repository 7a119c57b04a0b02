// boardgame.io's Server for the bench: in memory, or with its FlatFile storage (files under
// DIR, written a move; no fsync). Prints "ready PORT" once it listens.
const { Server, FlatFile } = require("boardgame.io/server");
const { Dice } = require("./game.cjs");

const [port, dir] = [Number(process.argv[2]), process.argv[3]];
const db = dir ? new FlatFile({ dir, logging: false }) : undefined;
const server = Server({ games: [Dice], db, origins: ["*"] });
server.run({ port, lobbyConfig: { apiPort: port + 1 } }, () => console.log(`ready ${port}`));
