import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * The Content-Security-Policy of every answer (decision 0039), fitted to the built client:
 * - scripts only from the portal itself (Vite emits module scripts, no inline script);
 * - styles from the portal plus inline ones: Mantine writes `<style>` elements (theme variables,
 *   responsive style props) and Tiptap's collaboration caret sets `style` attributes;
 * - images and fonts from the portal, `data:` (inline icons) and `blob:` (files built in the page);
 * - `connect-src 'self'`: the API, Socket.IO at /socket.io (polling and websocket) and y-websocket at
 *   /collab: CSP 3 lets 'self' match ws:/wss: on the page's own host and port;
 * - no plugins, no framing by anyone, forms post only to the portal, `<base>` only the portal.
 * Swagger UI (/api/docs) fits it as well: its scripts are files, its inline `<style>` blocks are allowed.
 */
export const CONTENT_SECURITY_POLICY: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'media-src': ["'self'", 'blob:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
};

/** One year; without includeSubDomains, since other hosts under the portal's domain are not ours. */
export const HSTS_VALUE = 'max-age=31536000';

/** Paths whose answers must never be stored by a browser or proxy: the API, but not Swagger UI's files. */
const API_PATH = /^\/api\//;
const DOCS_PATH = /^\/api\/docs(-json)?(\/|$)/;

/**
 * Security headers on every answer (pages, static files, API, errors), installed once in `app.ts`
 * before anything else can answer:
 * - helmet: the CSP above, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (token
 *   links such as /activate?token= and /safeguarding-incident/feedback/{token} must not travel in a
 *   Referer, not even their origin-stripped path to our own API), `X-Frame-Options: DENY`,
 *   Cross-Origin-Opener/Resource-Policy `same-origin`, and helmet's other defaults;
 * - `Strict-Transport-Security` only when the request came over TLS (`req.secure`: directly, or through
 *   the trusted proxy's X-Forwarded-Proto, see `trust proxy` in app.ts): over plain HTTP it is ignored
 *   by browsers and would be a lie;
 * - `Cache-Control: no-store` on API answers (user data, tokens, files), which a handler may replace;
 *   static assets keep the caching `express.static` gives them, the SPA index its `no-cache`.
 */
export function securityHeaders(): RequestHandler[] {
  const directives = Object.fromEntries(
    Object.entries(CONTENT_SECURITY_POLICY).map(([name, values]) => [name, [...values]]),
  );
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
  });
  const transportAndCaching = (req: Request, res: Response, next: NextFunction) => {
    if (req.secure) res.setHeader('Strict-Transport-Security', HSTS_VALUE);
    if (API_PATH.test(req.path) && !DOCS_PATH.test(req.path)) res.setHeader('Cache-Control', 'no-store');
    next();
  };
  return [headers as RequestHandler, transportAndCaching];
}
