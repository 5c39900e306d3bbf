import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTICE_KINDS, type Notice, type NoticePage } from '@kumo/contract';
import { jsonResponse, mockApi } from '../../../test/api';
import { landed, renderRoutes } from '../../../test/render';
import { userDetail } from '../../../test/users';
import { formatDateTime } from '../../lib/dates';
import { saveTokens, saveUser } from '../../lib/session';
import { NoticesBell } from './notices-bell';

const notice = (n: number, read = false): Notice => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  kind: 'RUNWAY',
  title: `Notice ${n}`,
  body: `Body of notice ${n}`,
  link: n === 1 ? '/subscriptions/s-1' : null,
  created_at: `2026-06-0${n}T10:00:00.000Z`,
  read_at: read ? '2026-06-09T10:00:00.000Z' : null,
});

function renderBell(pages: NoticePage[]) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail());
  let call = 0;
  const api = mockApi({
    'GET /api/user/notifications': () => jsonResponse(200, pages[Math.min(call++, pages.length - 1)]),
    'POST /api/user/notifications/read': () => jsonResponse(200, { message: 'Notifications marked as read.', marked: 2, unread: 0 }),
  });
  renderRoutes([{ path: '/', element: <NoticesBell /> }, landed('/subscriptions/s-1')], '/');
  return api;
}

afterEach(() => vi.unstubAllGlobals());

describe('the notifications bell', () => {
  it('says the unread count in its name, opens from the keyboard and lists the latest notices', async () => {
    renderBell([{ content: [notice(1), notice(2), notice(3, true)], totalPages: 1, unread: 2 }]);
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    const user = userEvent.setup();
    await user.tab();
    expect(bell).toHaveFocus();
    await user.keyboard('{Enter}');
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(panel).getAllByRole('listitem')).toHaveLength(3);
    expect(within(panel).getByText('Body of notice 2')).toBeInTheDocument();
    expect(within(panel).getByText(formatDateTime('2026-06-02T10:00:00.000Z'))).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Notice 1' })).toHaveAttribute('href', '/subscriptions/s-1');
  });

  it('marks the bell button itself open, and gives it the focus back when Escape closes the popover', async () => {
    renderBell([{ content: [notice(1)], totalPages: 1, unread: 1 }]);
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    const user = userEvent.setup();
    await user.tab();
    await user.keyboard('{Enter}');
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    // Only the button says it is expanded (a wrapper with aria-expanded is an invalid ARIA attribute).
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    expect(bell).toHaveAttribute('aria-controls', panel.id);
    expect(document.querySelectorAll('[aria-expanded]')).toHaveLength(1);
    await waitFor(() => expect(panel).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument());
    expect(bell).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(bell).toHaveFocus());
  });

  it('marks all as read and shows the count go', async () => {
    const api = renderBell([
      { content: [notice(1), notice(2)], totalPages: 1, unread: 2 },
      { content: [notice(1, true), notice(2, true)], totalPages: 1, unread: 0 },
    ]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(api.bodiesOf('POST /api/user/notifications/read')).toEqual([{ all: true }]));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('lists a notice of every kind the portal writes, the automatic top-up cap among them', async () => {
    const content = NOTICE_KINDS.map((kind, n) => ({
      ...notice(1),
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      kind,
      title: `Notice of kind ${kind}`,
    }));
    renderBell([{ content, totalPages: 1, unread: content.length }]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Notifications, ${content.length} unread` }));
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(panel).getAllByRole('listitem')).toHaveLength(NOTICE_KINDS.length);
    expect(within(panel).getByRole('link', { name: 'Notice of kind TOP_UP_CAP_REACHED' })).toHaveAttribute('href', '/subscriptions/s-1');
  });

  it('says so when there is nothing yet', async () => {
    renderBell([{ content: [], totalPages: 0, unread: 0 }]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  });
});
