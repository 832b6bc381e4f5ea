import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';

// The dev server forwards every server-owned path to the API so the SPA can use relative URLs
// (cookie auth then works without CORS).
const apiTarget = `http://127.0.0.1:${process.env.MOMENTS_API_PORT || 8080}`;

export default defineConfig({
  // The plugin is hoisted to the root node_modules and typed against the root's newer Vite (pulled
  // in by vitest); at runtime it supports this workspace's Vite 7, so only the types disagree.
  plugins: [react() as unknown as PluginOption],
  server: {
    proxy: {
      '/api': { target: apiTarget },
      '/sys': { target: apiTarget },
      '/files': { target: apiTarget },
      '/stomp-ws': { target: apiTarget, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        manualChunks(id: string) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          if (/node_modules\/(@mantine|@floating-ui)\//.test(id)) return 'mantine';
          if (id.includes('node_modules/zod/')) return 'zod';
          return 'vendor';
        },
      },
    },
  },
});
