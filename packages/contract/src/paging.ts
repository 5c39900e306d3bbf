import { z } from 'zod';

/** page (from 0) and size query parameters, coerced and bounded. Kept apart so any contract file may import it without a cycle. */
export const pageQuerySchema = (defaultSize: number) =>
  z.object({
    page: z.coerce.number().int().min(0).max(100_000).default(0),
    size: z.coerce.number().int().min(1).max(100).default(defaultSize),
  });
