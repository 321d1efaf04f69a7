import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is served by verdict serve below /console/ and embedded in the
// binary from dist/, which is committed: the build must give the same bytes
// on every machine (no source maps, content-hashed names only).
export default defineConfig({
  base: '/console/',
  resolve: {
    alias: {
      '@verdict/client': fileURLToPath(new URL('../clients/typescript/src/client.ts', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    // The playground's GraphiQL is one large chunk by nature; it loads only there.
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      // The console, and the GraphQL playground served at /playground.
      // Libraries marked for React server components say "use client",
      // which means nothing in a browser bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        playground: fileURLToPath(new URL('playground.html', import.meta.url)),
      },
    },
  },
});
