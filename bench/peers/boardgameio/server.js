// The peer's server, as boardgame.io's documentation sets one up: Server() from
// 'boardgame.io/server' with the game, its lobby API and socket.io transport on one port.
//
//   node server.js PORT                 in-memory storage (boardgame.io's default)
//   node server.js PORT DATABASE_URL    bgio-postgres: every state written to PostgreSQL
//
// It listens on 127.0.0.1 only (`python -m bench peers` talks over the loopback) and
// prints "listening" once the lobby and the sockets accept connections.

const { Server } = require('boardgame.io/server');
const { HolmesVisit } = require('./game');

function storage(url) {
  if (!url) return undefined; // boardgame.io's in-memory store
  const { PostgresStore } = require('bgio-postgres');
  return new PostgresStore(url, { logging: false });
}

async function main() {
  const [port, databaseUrl] = process.argv.slice(2);
  if (!port) {
    console.error('usage: node server.js PORT [DATABASE_URL]');
    process.exit(2);
  }
  const server = Server({ games: [HolmesVisit], db: storage(databaseUrl), origins: [] });
  // Node's listen() takes {port, host}: boardgame.io passes it on as it is.
  await server.run({ port: { port: Number(port), host: '127.0.0.1' } });
  console.log('listening');
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
