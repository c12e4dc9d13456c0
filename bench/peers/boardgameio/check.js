// Checks of the peer's rules, run by tests/bench/test_peers.py (or `npm run
// check`): carriages are conserved, an outbid player gets back all but one, a stake must be
// strictly higher, and each seat's view shows no card text but its own.
//
// Three clients play through boardgame.io's own Local master, so every view checked is the
// one playerView filtered for that seat, as the socket.io server sends it.

const assert = require('node:assert/strict');
const { Client } = require('boardgame.io/client');
const { Local } = require('boardgame.io/multiplayer');
const { HolmesVisit, TOTAL_CARRIAGES, CARDS } = require('./game');

const SEATS = ['0', '1', '2'];
const results = { passed: 0, failed: 0 };

function table() {
  const multiplayer = Local();
  const clients = SEATS.map((playerID) =>
    Client({ game: HolmesVisit, numPlayers: 3, multiplayer, playerID }),
  );
  clients.forEach((client) => client.start());
  return clients;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

async function move(client, name, ...args) {
  client.moves[name](...args);
  await settle();
}

function carriagesIn(G) {
  const held = Object.values(G.carriages).reduce((sum, n) => sum + n, 0);
  const staked = Object.values(G.stakes).reduce((sum, stake) => sum + stake.carriages, 0);
  return held + staked + G.stock;
}

function assertViewsPrivate(clients) {
  for (const [seat, client] of clients.entries()) {
    const seen = JSON.stringify(client.getState());
    const own = client.getState().G.card;
    for (const [location, card] of Object.entries(CARDS)) {
      if (own && own.location === Number(location)) continue;
      assert.ok(!seen.includes(card.text), `seat ${seat} sees the card of location ${location}`);
    }
  }
}

// A small seeded generator, so that a failure can be replayed.
function randomFrom(seed) {
  let value = seed;
  return () => {
    value = (value * 1103515245 + 12345) % 2147483648;
    return value / 2147483648;
  };
}

async function randomGame(seed, moves) {
  const random = randomFrom(seed);
  const clients = table();
  let played = 0;
  let cardsRead = 0;
  while (played < moves) {
    const waiting = clients.filter((client) => client.getState().G.legal.length > 0);
    assert.ok(waiting.length > 0, `game ${seed}: nobody can move after ${played} moves`);
    const client = waiting[Math.floor(random() * waiting.length)];
    const { legal } = client.getState().G;
    const chosen = legal[Math.floor(random() * legal.length)];
    const before = client.getState()._stateID;
    if (chosen.type === 'visit') await move(client, 'visit', chosen.location, chosen.carriages);
    else await move(client, chosen.type);
    assert.ok(client.getState()._stateID > before, `game ${seed}: ${chosen.type} refused`);
    played += 1;
    const { G } = clients[0].getState();
    assert.equal(carriagesIn(G), TOTAL_CARRIAGES, `game ${seed}: carriages after ${played}: ${JSON.stringify(G)} ${chosen.type}`);
    assert.ok(Object.values(G.carriages).every((n) => n >= 0) && G.stock >= 0);
    cardsRead += clients.filter((each) => each.getState().G.card !== null).length;
    assertViewsPrivate(clients);
  }
  clients.forEach((client) => client.stop());
  return cardsRead;
}

async function outbidReturnsAllButOne() {
  const clients = table();
  const [first, second, third] = clients;
  await move(first, 'visit', 3, 2);
  const stockBefore = first.getState().G.stock;
  await move(second, 'visit', 3, 3);
  const { G } = first.getState();
  assert.equal(G.pawns['0'], null, 'the outbid pawn goes home');
  assert.equal(G.carriages['0'], 4 - 2 + (2 - 1), 'all but one of its carriages come back');
  assert.equal(G.stock, stockBefore + 1, 'the one kept goes to the stock');
  assert.equal(G.carriages['1'], 4 - 3);
  assert.equal(first.getState().ctx.currentPlayer, '2');
  await move(third, 'visit', 3, 3); // not strictly more than 3: refused
  assert.equal(third.getState().G.stakes[3].player, '1');
  assert.equal(third.getState().ctx.currentPlayer, '2');
  clients.forEach((client) => client.stop());
}

async function check(name, body) {
  try {
    await body();
    results.passed += 1;
    console.log(`ok ${name}`);
  } catch (error) {
    results.failed += 1;
    console.log(`FAILED ${name}: ${error.stack}`);
  }
}

async function main() {
  await check('outbid returns all but one, equal stakes refused', outbidReturnsAllButOne);
  await check('random games conserve carriages and keep cards private', async () => {
    let cardsRead = 0;
    for (let seed = 1; seed <= 6; seed += 1) cardsRead += await randomGame(seed, 40);
    assert.ok(cardsRead > 20, `the games reached the reading phase (${cardsRead} views)`);
  });
  console.log(`${results.passed} passed, ${results.failed} failed`);
  process.exitCode = results.failed ? 1 : 0;
}

main();
