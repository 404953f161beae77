import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = process.env.PORTAL_DEV_BACKEND ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each screen loads (scripts/client-bundle-size.mjs).
    manifest: true,
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, changeOrigin: true, ws: true },
      '/collab': { target: backend, changeOrigin: true, ws: true },
    },
  },
});
