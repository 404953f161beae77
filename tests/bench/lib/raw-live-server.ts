/**
 * Baseline of the `live` benchmark: a bare Socket.IO server (same path and namespace as the portal,
 * no authentication, no event store) that broadcasts the JSON body of each `POST /emit` as a `live`
 * message to every socket of `/live`, then answers 204. Prints `RAW_READY {port}`.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { LIVE_NAMESPACE, LIVE_PATH } from '../../../projections/src/live-contract.js';

const http = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/emit') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    io.of(LIVE_NAMESPACE).emit('live', message);
    res.writeHead(204).end();
  });
});
const io = new Server(http, { path: LIVE_PATH, serveClient: false });
io.of(LIVE_NAMESPACE).on('connection', () => {});
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  process.stdout.write(`RAW_READY ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  void io.close();
  http.close(() => process.exit(0));
});
