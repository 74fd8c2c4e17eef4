// The /docs route's query: without `asset` the page, with it one of the page's own static files.
import { z } from 'zod';

export const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js'] as const;

export const DocsQuery = z.object({
  asset: z.enum(DOCS_ASSETS).optional().meta({ description: 'A static file of the page (served by the service itself: no CDN)' }),
  v: z.string().max(40).optional().meta({ description: 'Cache key (the Swagger UI version); ignored' }),
});
