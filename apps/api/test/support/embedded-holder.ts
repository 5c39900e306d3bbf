// Test helper process: starts the embedded PostgreSQL of DATA_DIR (argv[2]), prints its URL, and holds it
// until killed. With SIGKILL it leaves PostgreSQL running, as a killed portal does.
import { startEmbeddedPostgres } from '../../src/db/embedded.js';

const server = await startEmbeddedPostgres(process.argv[2] ?? '', { durable: false, log: () => undefined });
process.stdout.write(`${JSON.stringify({ url: server.url, pid: server.pid })}\n`);
process.on('SIGTERM', () => void server.stop().finally(() => process.exit(0)));
setInterval(() => undefined, 60_000);
