import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// The console's single-page app: web/ is the root, the build goes to dist/web, which
// serveConsole() (src/) serves with its Content-Security-Policy. Workspace packages (the SDK)
// are bundled from their TypeScript sources (the `@cloud/source` export condition), so the
// console needs no build of the SDK first and Rollup tree-shakes it as ES modules.
export default defineConfig({
  root: 'web',
  base: '/',
  plugins: [react()],
  resolve: { conditions: ['@cloud/source', ...defaultClientConditions] },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // No inline assets: the CSP allows scripts, styles and fonts from 'self' only.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: { port: 5173, strictPort: true },
});
