import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useIsFetching } from '@tanstack/react-query';
import { primeReads, type FirstRead } from '../lib/api/first-reads';

interface NearViewOptions {
  /**
   * Also render once the page is quiet (no read under way, the browser idle), as a low-priority update that React
   * splits into short tasks: for a section that tests and links reach without scrolling. Not for a chart, whose
   * drawing is one long task whenever it happens.
   */
  whenIdle?: boolean;
  /**
   * The part's own reads: in sight or when idle, it renders once they are in the query cache (lib/api/first-reads.ts),
   * built once in short tasks, rather than shown empty and built again in one long task as each answer arrives.
   */
  reads?: () => FirstRead[];
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
export function useNearView({ whenIdle = false, reads }: NearViewOptions = {}): {
  ref: (element: HTMLElement | null) => void;
  near: boolean;
} {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const [inSight, setInSight] = useState(false);
  const [element, setElement] = useState<HTMLElement | null>(null);
  // Asked to render; and on its way to (its reads being primed), which a key pressed meanwhile does not wait for.
  const shown = useRef(near);
  const coming = useRef(near);
  const readsRef = useRef(reads);
  useEffect(() => {
    readsRef.current = reads;
  });
  const fetching = useIsFetching() > 0;
  const [waitedEnough, setWaitedEnough] = useState(false);
  useEffect(() => {
    if (!whenIdle) return;
    const timer = window.setTimeout(() => setWaitedEnough(true), IDLE_WAIT_MAX_MS);
    return () => window.clearTimeout(timer);
  }, [whenIdle]);

  useEffect(() => {
    if (shown.current || !element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) startTransition(() => setInSight(true));
    });
    observer.observe(element);
    const onKey = () => {
      if (shown.current) return;
      shown.current = true;
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
    if (coming.current || waiting) return;
    const reveal = () => {
      if (shown.current) return;
      shown.current = true;
      startTransition(() => setNear(true));
    };
    const show = () => {
      if (coming.current) return;
      coming.current = true;
      const partReads = readsRef.current?.();
      if (partReads?.length) void primeReads(partReads).then(reveal);
      else reveal();
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
export function WhenNearView({ children, minHeight, whenIdle, reads }: { children: ReactNode; minHeight: number } & NearViewOptions) {
  const { ref, near } = useNearView({ whenIdle, reads });
  if (near) return <>{children}</>;
  return <div ref={ref} style={{ minHeight }} />;
}
