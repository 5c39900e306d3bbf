// Development: the contract compiler in watch mode, the API with reload, and Vite with hot reload on :5173.
import { spawn, spawnSync } from 'node:child_process';

spawnSync('npx', ['tsc', '-b', 'packages/contract'], { stdio: 'inherit' });
const processes = [
  spawn('npx', ['tsc', '-b', 'packages/contract', '--watch', '--preserveWatchOutput'], { stdio: 'inherit' }),
  spawn('npx', ['tsx', 'watch', 'apps/api/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173' },
  }),
  spawn('npx', ['vite', '--config', 'apps/console/vite.config.ts'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of processes) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of processes) child.on('exit', stop);
