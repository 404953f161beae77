// `npm run dev`: server recompiled on change and restarted, client served by Vite with hot reload.
// Open the Vite URL it prints (it proxies /api, /live and /collab to the server on PORT, default 3000).
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsc', '-p', 'server/tsconfig.build.json', '--watch', '--preserveWatchOutput'], {
    stdio: 'inherit',
  }),
  spawn('node', ['--watch-path=server/dist', '--watch-preserve-output', 'server/dist/main.js'], {
    stdio: 'inherit',
    env: { LOG_LEVEL: 'info', ...process.env },
  }),
  spawn('npx', ['vite'], { cwd: 'client', stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
