import { errorResponseSchema } from '@kumo/contract';

/** The error statuses a route documents, each with the one error shape. */
export function errorResponses<const Status extends number>(...statuses: Status[]): Record<Status, typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<Status, typeof errorResponseSchema>;
}
