import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER_ROLES, STORAGE_KEYS, SYSTEM_ROLES } from '@kumo/contract';
import firstPaintScript from '../../../public/first-paint.js?raw';
import { discardFirstScreen, firstScreenShown, keepFirstScreen } from './first-screen';

const html = document.documentElement;

/** Runs public/first-paint.js as the page's head does, over the session stored in local storage. */
function runFirstPaint(user: Record<string, unknown> | null, tokens = true) {
  localStorage.clear();
  if (tokens) {
    localStorage.setItem(STORAGE_KEYS.jwtToken, 'jwt');
    localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh');
  }
  if (user) localStorage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(user));
  // The early reads it sends for an owner or admin (lib/early-reads.test.ts) go nowhere here.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => undefined)),
  );
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the head script itself, run as the browser runs it
  new Function(firstPaintScript)();
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.kumoEarlyReads;
  html.removeAttribute('data-first-screen');
  html.removeAttribute('style');
  localStorage.clear();
  discardFirstScreen();
});

describe('first-paint.js', () => {
  it("shows a customer page's drawn first screen to a signed-in customer, with their name in its CSS variables", () => {
    for (const role of CUSTOMER_ROLES) {
      html.removeAttribute('data-first-screen');
      runFirstPaint({ userName: ' Dana  Demo "Jr" ', role });
      expect(html.hasAttribute('data-first-screen'), role).toBe(true);
    }
    expect(html.style.getPropertyValue('--kumo-first-initials')).toBe('"DD"');
    expect(html.style.getPropertyValue('--kumo-first-first-name')).toBe('"Dana"');
    expect(html.style.getPropertyValue('--kumo-first-name')).toBe('" Dana  Demo \\"Jr\\" "');
  });

  it('keeps it hidden for a visitor, staff, a staff view of a customer and a session without tokens', () => {
    runFirstPaint(null);
    for (const role of SYSTEM_ROLES) runFirstPaint({ userName: 'Sam Staff', role });
    runFirstPaint({ userName: 'Dana Demo', role: 'ACCOUNT_OWNER', userSwitched: { userName: 'Sam Staff' } });
    runFirstPaint({ userName: 'Dana Demo', role: 'ACCOUNT_OWNER' }, false);
    localStorage.setItem(STORAGE_KEYS.userInfo, '{not json');
    expect(html.hasAttribute('data-first-screen')).toBe(false);
  });

  it("fetches the page's listed code at the first contentful paint, for a customer only", () => {
    // Paint timing as a browser reports it: the observers wait for the paint the test calls for.
    const observers: ((entries: { getEntriesByName: (name: string) => object[] }, observer: { disconnect: () => void }) => void)[] = [];
    class PaintObserver {
      static supportedEntryTypes = ['paint'];
      constructor(private readonly callback: (typeof observers)[number]) {}
      observe() {
        observers.push(this.callback);
      }
    }
    const paint = (name: string) => {
      for (const callback of observers.splice(0))
        callback({ getEntriesByName: (asked) => (asked === name ? [{}] : []) }, { disconnect() {} });
    };
    vi.stubGlobal('PerformanceObserver', PaintObserver);
    const code = document.createElement('meta');
    code.name = 'kumo-page-code';
    code.content = '/assets/console-a.js /assets/users-page-b.js';
    document.head.append(code);
    const preloads = () => [...document.head.querySelectorAll('link[rel=modulepreload]')].map((link) => link.getAttribute('href'));
    try {
      runFirstPaint(null);
      runFirstPaint({ userName: 'Sam Staff', role: 'SYSTEM_ADMIN' });
      expect(observers).toHaveLength(0);
      runFirstPaint({ userName: 'Dana Demo', role: 'CLUSTER_MEMBER' });
      expect(preloads()).toEqual([]);
      paint('first-contentful-paint');
      expect(preloads()).toEqual(['/assets/console-a.js', '/assets/users-page-b.js']);
    } finally {
      for (const link of document.head.querySelectorAll('link[rel=modulepreload]')) link.remove();
      code.remove();
    }
  });

  it('sets the colour scheme before anything is drawn', () => {
    runFirstPaint(null);
    expect(html.getAttribute('data-mantine-color-scheme')).toMatch(/^(light|dark)$/);
  });
});

describe('the kept first screen', () => {
  const container = () => {
    const root = document.createElement('div');
    root.innerHTML = '<div id="first-screen"><h1>Users</h1></div>';
    document.body.append(root);
    return root;
  };

  it('stays on screen, its nodes untouched, beside the element React renders into, until the first page is shown', async () => {
    html.setAttribute('data-first-screen', '');
    const root = container();
    const drawn = root.firstElementChild;
    const reactContainer = keepFirstScreen(root);
    expect(reactContainer).not.toBe(root);
    expect(reactContainer.parentElement).toBe(root);
    expect(reactContainer.style.display).toBe('contents');
    expect(root.firstElementChild).toBe(drawn);
    expect(firstScreenShown()).toBe(true);
    discardFirstScreen();
    expect(firstScreenShown()).toBe(false);
    // Hidden in the commit that shows the page, removed from the document in a task of its own.
    expect((drawn as HTMLElement).style.display).toBe('none');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(root.querySelector('#first-screen')).toBeNull();
    expect(root.children).toHaveLength(1);
    root.remove();
  });

  it('is nothing, and React renders into the root, when the frame was left hidden or the page has none', () => {
    const hidden = container();
    expect(keepFirstScreen(hidden)).toBe(hidden);
    expect(firstScreenShown()).toBe(false);
    html.setAttribute('data-first-screen', '');
    const empty = document.createElement('div');
    expect(keepFirstScreen(empty)).toBe(empty);
    expect(firstScreenShown()).toBe(false);
    hidden.remove();
  });
});
