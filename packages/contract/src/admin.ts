import { z } from 'zod';

/** page (from 0) and size query parameters, coerced and bounded. */
export const pageQuerySchema = (defaultSize: number) =>
  z.object({
    page: z.coerce.number().int().min(0).max(100_000).default(0),
    size: z.coerce.number().int().min(1).max(100).default(defaultSize),
  });

export const customerListItemSchema = z
  .object({ user_id: z.uuid(), user_name: z.string(), email_id: z.string() })
  .meta({ id: 'CustomerListItem' });
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

export const customerPageSchema = z
  .object({ content: z.array(customerListItemSchema), totalPages: z.number().int() })
  .meta({ id: 'CustomerPage' });
export type CustomerPage = z.infer<typeof customerPageSchema>;
