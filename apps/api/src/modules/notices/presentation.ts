import type { NoticePage } from '@kumo/contract';
import type { NoticePageValues } from './notices.service.js';

/** A page of notices in the wire's shape. */
export function toNoticePageWire(page: NoticePageValues): NoticePage {
  return {
    content: page.items.map((notice) => ({
      id: notice.id,
      kind: notice.kind,
      title: notice.title,
      body: notice.body,
      link: notice.link,
      created_at: notice.createdAt.toISOString(),
      read_at: notice.readAt?.toISOString() ?? null,
    })),
    totalPages: page.totalPages,
    unread: page.unread,
  };
}
