import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { pageSettings, PROXY_CA_PATH, type ConsoleServerSettings } from './settings';

/** The built single-page app: `vite build` writes it here (apps/console/dist/web). */
export const DEFAULT_WEB_ROOT = path.join(__dirname, '..', 'dist', 'web');

/**
 * The console's HTTP app: the built page and its assets, `/config.json`, the dev proxy's
 * certificate, and index.html for every other GET (the page routes itself), under a
 * Content-Security-Policy that lets the page load only its own files and talk only to the four APIs.
 */
export function createConsoleApp(settings: ConsoleServerSettings, webRoot = DEFAULT_WEB_ROOT): Express {
  const index = path.join(webRoot, 'index.html');
  if (!existsSync(index)) throw new Error(`the console is not built: ${index} is missing (npm run build -w apps/console)`);
  const app = express();
  app.disable('x-powered-by');
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'", ...apiOrigins(settings)],
          manifestSrc: ["'self'"],
          baseUri: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      // The page calls the APIs on other origins (CORS); it embeds nothing cross-origin itself.
      crossOriginEmbedderPolicy: false,
    }),
  );
  // For the image's HEALTHCHECK and the cluster's probes: the page is there to serve.
  app.get('/healthz', (_request, response) => {
    response.set('cache-control', 'no-store').json({ status: 'ok' });
  });
  const page = pageSettings(settings);
  app.get('/config.json', (_request, response) => {
    response.set('cache-control', 'no-store').json(page);
  });
  // A certificate is public; its path on this machine is not the page's business. Read at each
  // request: the proxy remakes an outdated one at its start.
  const { proxyCaFile } = settings;
  if (proxyCaFile) {
    app.get(PROXY_CA_PATH, (_request, response, next) => {
      readFile(proxyCaFile, 'utf8')
        .then(
          (pem) => response.set({ 'cache-control': 'no-cache', 'content-type': 'application/x-pem-file' }).send(pem),
          () => response.status(404).json({ code: 'NotFound', message: 'the node-proxy has not made its certificate yet' }),
        )
        .catch(next);
    });
  }
  // Vite names assets by content hash: they never change, so browsers may keep them for good.
  app.use('/assets', express.static(path.join(webRoot, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }));
  app.use(express.static(webRoot, { index: false, maxAge: 0 }));
  app.get(/.*/, (_request, response) => {
    response.set('cache-control', 'no-cache').sendFile(index);
  });
  app.use((_request, response) => {
    response.status(405).json({ code: 'MethodNotAllowed', message: 'the console serves GET requests only' });
  });
  app.use((error: { status?: number; statusCode?: number }, _request: express.Request, response: express.Response, _next: express.NextFunction) => {
    const status = error.status ?? error.statusCode ?? 500;
    if (status === 404) response.status(404).json({ code: 'NotFound', message: 'no such file in the console' });
    else
      response
        .status(status < 500 ? status : 500)
        .json({ code: status < 500 ? 'InvalidInput' : 'InternalError', message: 'the console could not serve this request' });
  });
  return app;
}

/** The distinct origins of the four API URLs: what the page may connect to besides itself. */
export function apiOrigins(settings: Pick<ConsoleServerSettings, 'accountsUrl' | 'nodesUrl' | 'stakingUrl' | 'streamsUrl'>): string[] {
  return [...new Set([settings.accountsUrl, settings.nodesUrl, settings.stakingUrl, settings.streamsUrl].map((url) => new URL(url).origin))];
}
