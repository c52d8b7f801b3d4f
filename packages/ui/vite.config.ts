import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The Weir Console build: hashed assets under dist/assets, no inline script, no remote URL. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
    modulePreload: { polyfill: false },
    rollupOptions: {
      // An import the build cannot resolve would be left as a bare specifier that the browser
      // cannot load (the console then shows nothing): fail the build instead.
      onwarn(warning, warn) {
        if (warning.code === 'UNRESOLVED_IMPORT') throw new Error(warning.message);
        warn(warning);
      },
    },
  },
});
