import { z } from 'zod';
import { pageQuerySchema } from './paging.js';

/** What a notice is about: each mail the portal sends a customer has its kind. */
export const NOTICE_KINDS = [
  'RUNWAY',
  'OVERDUE_WARNING',
  'OVERDUE_STOP',
  'CREDIT_EXPIRY',
  'SERVICE_RATES_CHANGED',
  'FUNDS_ADDED',
  'CLUSTER_DELETED',
  'BUDGET_ALERT',
  'BUDGET_STOP',
  'TOP_UP_SUCCEEDED',
  'TOP_UP_FAILED',
  'TOP_UP_CAP_REACHED',
  'CLUSTER_AUTO_STOPPED',
  'CLUSTER_RESTARTED',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

export const NOTICE_LIMITS = {
  /** The most ids one mark-as-read call takes. */
  maxIds: 100,
  defaultPageSize: 10,
} as const;

export const NOTICE_MESSAGES = {
  readTargetRequired: 'Give the ids of the notifications to mark as read, or all: true.',
  readIdsTooMany: `At most ${NOTICE_LIMITS.maxIds} notifications can be marked as read at once.`,
  readIdInvalid: 'Each notification id must be a UUID.',
  markedRead: 'Notifications marked as read.',
} as const;

/** GET /api/user/notifications?page&size: newest first. */
export const noticeListQuerySchema = pageQuerySchema(NOTICE_LIMITS.defaultPageSize);

export const noticeSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(NOTICE_KINDS),
    title: z.string(),
    body: z.string(),
    /** A console path, e.g. /subscriptions/{id}; null when the notice points nowhere. */
    link: z.string().nullable(),
    created_at: z.iso.datetime(),
    read_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Notice' });
export type Notice = z.infer<typeof noticeSchema>;

export const noticePageSchema = z
  .object({ content: z.array(noticeSchema), totalPages: z.number().int(), unread: z.number().int() })
  .meta({ id: 'NoticePage' });
export type NoticePage = z.infer<typeof noticePageSchema>;

/** POST /api/user/notifications/read: some of the caller's notices by id, or all of them. */
export const markNoticesReadRequestSchema = z
  .object({
    ids: z
      .array(z.uuid({ error: NOTICE_MESSAGES.readIdInvalid }), { error: NOTICE_MESSAGES.readTargetRequired })
      .min(1, NOTICE_MESSAGES.readTargetRequired)
      .max(NOTICE_LIMITS.maxIds, NOTICE_MESSAGES.readIdsTooMany)
      .optional(),
    all: z.literal(true, { error: NOTICE_MESSAGES.readTargetRequired }).optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.ids === undefined) === (value.all === undefined))
      ctx.addIssue({ code: 'custom', path: ['ids'], message: NOTICE_MESSAGES.readTargetRequired });
  })
  .meta({ id: 'MarkNoticesReadRequest' });
export type MarkNoticesReadRequest = z.input<typeof markNoticesReadRequestSchema>;

export const markNoticesReadResponseSchema = z
  .object({ message: z.string(), marked: z.number().int(), unread: z.number().int() })
  .meta({ id: 'MarkNoticesReadResponse' });
export type MarkNoticesReadResponse = z.infer<typeof markNoticesReadResponseSchema>;
