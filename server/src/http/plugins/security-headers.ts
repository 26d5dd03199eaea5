import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Headers for an app that loads only its own scripts and shows only its own media. helmet builds
 * its middleware (parsing the policy) once here; the Fastify plugin rebuilt it for every request,
 * a measurable share of a small API call.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): Promise<void> {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // The toast library and React inline style attributes need inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Share links carry a token in the path; no page should leak it to another site.
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    // Only where the app is served over https (APP_URL): browsers then never fall back to http.
    strictTransportSecurity: options.https ? { maxAge: 15_552_000, includeSubDomains: false } : false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    void setHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
}
