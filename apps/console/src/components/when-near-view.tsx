import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useIsFetching } from '@tanstack/react-query';

interface NearViewOptions {
  /**
   * Also render once the page is quiet (no read under way, the browser idle), as a low-priority update that React
   * splits into short tasks: for a section that tests and links reach without scrolling. Not for a chart, whose
   * drawing is one long task whenever it happens.
   */
  whenIdle?: boolean;
}

/** The longest a `whenIdle` part waits for the page's reads (a page that polls may never be quite without one). */
export const IDLE_WAIT_MAX_MS = 3000;

const whenBrowserIdle = (run: () => void): (() => void) => {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const timer = window.setTimeout(run, 200);
  return () => window.clearTimeout(timer);
};

/**
 * Whether a part of the page below the first screen should render now: once its placeholder scrolls into sight, at the
 * first key pressed anywhere (so Tab and the keys of assistive technology find it in the page as they always did), or
 * with `whenIdle` once the page is quiet. A `whenIdle` part that is in sight while the page's reads are still under way
 * waits for them (IDLE_WAIT_MAX_MS at most), so it does not render only to be pushed down by what they bring. Renders in sight and when idle are
 * low-priority updates, split into short tasks. Without IntersectionObserver (an old browser, a test) it renders at
 * once.
 */
export function useNearView({ whenIdle = false }: NearViewOptions = {}): { ref: (element: HTMLElement | null) => void; near: boolean } {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const [inSight, setInSight] = useState(false);
  const [element, setElement] = useState<HTMLElement | null>(null);
  const seen = useRef(near);
  const fetching = useIsFetching() > 0;
  const [waitedEnough, setWaitedEnough] = useState(false);
  useEffect(() => {
    if (!whenIdle) return;
    const timer = window.setTimeout(() => setWaitedEnough(true), IDLE_WAIT_MAX_MS);
    return () => window.clearTimeout(timer);
  }, [whenIdle]);

  useEffect(() => {
    if (seen.current || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) startTransition(() => setInSight(true));
    });
    observer.observe(element);
    const onKey = () => {
      if (seen.current) return;
      seen.current = true;
      // The key moves the focus right after this handler: the part must be in the page before it does.
      flushSync(() => setNear(true));
    };
    document.addEventListener('keydown', onKey, { capture: true });
    return () => {
      observer.disconnect();
      document.removeEventListener('keydown', onKey, { capture: true });
    };
  }, [element]);

  const waiting = whenIdle && fetching && !waitedEnough;
  useEffect(() => {
    if (seen.current || waiting) return;
    const show = () => {
      if (seen.current) return;
      seen.current = true;
      startTransition(() => setNear(true));
    };
    if (inSight) return show();
    if (whenIdle) return whenBrowserIdle(show);
  }, [inSight, whenIdle, waiting]);

  return { ref: setElement, near };
}

/**
 * Renders `children` only once they are near the screen (useNearView); until then an empty box of `minHeight`, so the
 * page below does not jump up meanwhile.
 */
export function WhenNearView({ children, minHeight, whenIdle }: { children: ReactNode; minHeight: number } & NearViewOptions) {
  const { ref, near } = useNearView({ whenIdle });
  if (near) return <>{children}</>;
  return <div ref={ref} style={{ minHeight }} />;
}
