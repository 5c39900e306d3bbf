import { z } from 'zod';
import { ERROR_CODES, type ErrorResponse } from './errors.js';

/** The error body every failed call returns; errors.ts holds its type and a zod-free check for the console. */
export const errorResponseSchema = z
  .object({
    errorDetails: z.object({
      error_code: z.enum(ERROR_CODES),
      error_message: z.string(),
      request_id: z.string().optional().meta({ description: "The answer's Request-Id header: name it in a support request." }),
    }),
    field_errors: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ErrorResponse' });

// The hand-written type in errors.ts and this schema describe one shape: a change to either breaks the build.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof errorResponseSchema>, ErrorResponse> = true;
void sameShape;
