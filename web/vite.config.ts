import { defineConfig } from 'vitest/config';

// In development (`npm run dev`) the API and the websocket go to a running `bughouse serve`;
// set BUGHOUSE_SERVER to its address if it is not the default.
const server = process.env.BUGHOUSE_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  appType: 'spa',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: {
      '/api': { target: server, changeOrigin: true },
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true, changeOrigin: true },
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
