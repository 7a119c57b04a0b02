// The peer's game: two players roll a die in turn (boardgame.io's own seeded D6), a move a
// turn, the higher total after the moves wins; what bench/peer.py drives as bench/hosted.py
// drives regiment.
const Dice = {
  name: "dice",
  setup: () => ({ scores: [0, 0], moves: 0 }),
  moves: {
    roll: ({ G, random }, player) => {
      G.scores[player] += random.D6();
      G.moves += 1;
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G }) => (G.moves >= 100000 ? { winner: G.scores[0] > G.scores[1] ? "0" : "1" } : undefined),
};
module.exports = { Dice };
