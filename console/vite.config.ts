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
  },
});
