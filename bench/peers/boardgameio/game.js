// The load benchmark's loop as a boardgame.io game: three players take turns to send
// their pawn to a location (on foot, or staking carriages), outbid a stake with strictly
// more, or wait at the carriage stop; once every pawn is placed, each visitor reads the
// card of its location, which only it may see, and says when it is done; then the next
// round begins.
//
// It is the same work as the visiting and reading steps that `python -m bench load`
// plays on Holmes, in the form boardgame.io expects (moves, phases, playerView), so that
// `python -m bench peers` can drive both servers with the same simulated players.
//
// Carriages are never created nor lost: those held, those staked and the stock always
// add up to TOTAL_CARRIAGES (check.js asserts it over many random games).

const { INVALID_MOVE } = require('boardgame.io/core');

const PLAYERS = ['0', '1', '2'];
const LOCATIONS = [1, 2, 3, 4, 5, 6, 7, 8];
const START_CARRIAGES = 4;
const START_STOCK = 12;
const TOTAL_CARRIAGES = START_CARRIAGES * PLAYERS.length + START_STOCK;
const CARRIAGE_STOP = 'carriage stop';
const CARRIAGE_STOP_INCOME = 1;

// What each location's card says, and the carriages reading it brings. Texts live here,
// not in G, so that nothing secret reaches a client through the initial state or the
// log, which boardgame.io sends without passing them through playerView.
const CARDS = {
  1: { gain: 0, text: 'The porter swears the lamp in the back office burned past midnight.' },
  2: { gain: 1, text: 'A cab driver remembers a fare who paid in foreign silver.' },
  3: { gain: 0, text: 'Fresh clay on the scullery step, of a kind not found in the street.' },
  4: { gain: 1, text: 'The pawnbroker’s ledger shows a watch redeemed a day early.' },
  5: { gain: 0, text: 'A torn telegram form, the first word pressed hard enough to read.' },
  6: { gain: 0, text: 'The landlady heard two voices, one of them with a stammer.' },
  7: { gain: 1, text: 'The river police logged a skiff without a name at low tide.' },
  8: { gain: 0, text: 'A chemist sold chloral to a gentleman with ink-stained cuffs.' },
};

function newRound(G) {
  G.pawns = Object.fromEntries(PLAYERS.map((player) => [player, null]));
  G.stakes = {}; // location -> { player, carriages }
  G.reading = {}; // player -> location whose card the player reads this round
  G.done = {}; // player -> true once they have finished reading
}

function setup() {
  const G = {
    carriages: Object.fromEntries(PLAYERS.map((player) => [player, START_CARRIAGES])),
    stock: START_STOCK,
    diary: '0', // who starts the round: the player who placed the last pawn
    round: 1,
  };
  newRound(G);
  return G;
}

function isWholeNumber(value) {
  return Number.isInteger(value) && value >= 0;
}

// The smallest stake that takes `location` now: 0 (on foot) when free, one more than the
// stake on it otherwise.
function smallestStake(G, location) {
  const stake = G.stakes[location];
  return stake === undefined ? 0 : stake.carriages + 1;
}

function nextWithoutPawn(G, ctx, from) {
  for (let step = 1; step <= PLAYERS.length; step += 1) {
    const position = (from + step) % ctx.numPlayers;
    if (G.pawns[ctx.playOrder[position]] === null) return position;
  }
  return undefined; // everyone has a pawn out: the visiting phase is over
}

function visit({ G, playerID, events }, location, carriages) {
  if (!LOCATIONS.includes(location) || !isWholeNumber(carriages)) return INVALID_MOVE;
  if (carriages < smallestStake(G, location) || carriages > G.carriages[playerID]) {
    return INVALID_MOVE;
  }
  const beaten = G.stakes[location];
  if (beaten !== undefined) {
    // The outbid pawn goes home; its carriages come back but one, which goes to the stock.
    const fee = beaten.carriages > 0 ? 1 : 0;
    G.carriages[beaten.player] += beaten.carriages - fee;
    G.stock += fee;
    G.pawns[beaten.player] = null;
  }
  G.carriages[playerID] -= carriages;
  G.stakes[location] = { player: playerID, carriages };
  G.pawns[playerID] = location;
  placed(G, playerID, events);
}

function carriage_stop({ G, playerID, events }) {
  G.pawns[playerID] = CARRIAGE_STOP;
  placed(G, playerID, events);
}

function placed(G, playerID, events) {
  if (PLAYERS.every((player) => G.pawns[player] !== null)) {
    G.diary = playerID;
    payStakes(G);
  }
  events.endTurn();
}

function done_reading({ G, playerID }) {
  G.done[playerID] = true;
}

// Stakes are paid to the stock when the cards are read. Done by the move that places the
// last pawn, not in the reading phase's onBegin: boardgame.io asks the new phase's endIf
// before running its onBegin.
function payStakes(G) {
  for (const [location, stake] of Object.entries(G.stakes)) {
    G.stock += stake.carriages;
    stake.carriages = 0;
    G.reading[stake.player] = Number(location);
  }
}

// As far as the stock goes: the carriage stop's income, then what the cards bring.
function endReading({ G }) {
  const gain = (player, wanted) => {
    const given = Math.min(wanted, G.stock);
    G.stock -= given;
    G.carriages[player] += given;
  };
  for (const player of PLAYERS) {
    if (G.pawns[player] === CARRIAGE_STOP) gain(player, CARRIAGE_STOP_INCOME);
  }
  for (const [player, location] of Object.entries(G.reading)) gain(player, CARDS[location].gain);
  G.round += 1;
  newRound(G);
}

// The moves `player` may make now, as Holmes's views list theirs: for each location the
// smallest stake that takes it (a larger one is legal too).
function legalMoves(G, ctx, player) {
  if (ctx.phase === 'reading') {
    const reading = G.reading[player] !== undefined && !G.done[player];
    return reading ? [{ type: 'done_reading' }] : [];
  }
  if (ctx.currentPlayer !== player) return [];
  const moves = [{ type: 'carriage_stop' }];
  for (const location of LOCATIONS) {
    const stake = G.stakes[location];
    const carriages = smallestStake(G, location);
    if (stake !== undefined && stake.player === player) continue;
    if (carriages <= G.carriages[player]) moves.push({ type: 'visit', location, carriages });
  }
  return moves;
}

// What one seat sees: the public board, its own card text, and its legal moves.
function playerView({ G, ctx, playerID }) {
  const location = G.reading[playerID];
  const card = location === undefined ? null : { location, text: CARDS[location].text };
  const legal = playerID === null || playerID === undefined ? [] : legalMoves(G, ctx, playerID);
  return { ...G, card, legal };
}

const HolmesVisit = {
  name: 'holmes-visit',
  minPlayers: PLAYERS.length,
  maxPlayers: PLAYERS.length,
  setup,
  playerView,
  phases: {
    visiting: {
      start: true,
      next: 'reading',
      moves: { visit, carriage_stop },
      turn: {
        order: {
          first: ({ G, ctx }) => ctx.playOrder.indexOf(G.diary),
          next: ({ G, ctx }) => nextWithoutPawn(G, ctx, ctx.playOrderPos),
        },
      },
    },
    reading: {
      next: 'visiting',
      onEnd: endReading,
      // Those at the carriage stop have nothing to read: only the visitors are waited for.
      endIf: ({ G }) => Object.keys(G.reading).every((player) => G.done[player]),
      turn: {
        onBegin: ({ G, events }) => {
          const readers = Object.keys(G.reading).map((player) => [player, 'reading']);
          events.setActivePlayers({ value: Object.fromEntries(readers), maxMoves: 1 });
        },
        stages: { reading: { moves: { done_reading } } },
      },
    },
  },
};

module.exports = { HolmesVisit, TOTAL_CARRIAGES, CARDS, legalMoves };
