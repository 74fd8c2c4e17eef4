// The /console route's query: without `asset` the page, with it one of its fingerprinted files.
import { z } from 'zod';
import { CONSOLE_ASSET } from '../console/assets';

export const ConsoleQuery = z.object({
  asset: z.string().regex(CONSOLE_ASSET).optional().meta({ description: 'A fingerprinted file of the console (served by the service itself: no CDN)' }),
});
