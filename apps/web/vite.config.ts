import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dev server forwards every server-owned path to the API so the SPA can use relative URLs
// (cookie auth then works without CORS).
const apiTarget = `http://127.0.0.1:${process.env.MOMENTS_API_PORT || 8080}`;

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': { target: apiTarget },
      '/sys': { target: apiTarget },
      '/files': { target: apiTarget },
      // The home page's default moment list sits outside /api.
      '/highlight_moment': { target: apiTarget },
      '/stomp-ws': { target: apiTarget, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
              priority: 3,
            },
            { name: 'mantine', test: /node_modules[\\/](@mantine|@floating-ui)[\\/]/, priority: 2 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 2 },
            // The shell's own libraries only: page libraries (the password checker's
            // dictionaries, the note editor, the caption renderer, uploads) load with their page,
            // not with every page; they were 1.9 MB of a 2.25 MB chunk every first visit paid.
            {
              name: 'vendor',
              test: /node_modules[\\/](@tanstack|@tabler|@stomp|@floating-ui|clsx|react-)/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
