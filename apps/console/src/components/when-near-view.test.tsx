import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useQuery } from '../lib/use-query';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_WAIT_MAX_MS, WhenNearView } from './when-near-view';
import { queryClient } from '../lib/api/query-client';

/** An IntersectionObserver the test moves: `enter()` brings every observed element into sight. */
class ObserverStub {
  static all: ObserverStub[] = [];
  elements: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    ObserverStub.all.push(this);
  }
  observe(element: Element) {
    this.elements.push(element);
  }
  disconnect() {
    this.elements = [];
  }
  static enter() {
    for (const observer of ObserverStub.all) {
      const entries = observer.elements.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry);
      if (entries.length > 0) observer.callback(entries, observer as unknown as IntersectionObserver);
    }
  }
}

function renderWithQueries(children: ReactNode, client = new QueryClient()) {
  return render(<QueryClientProvider client={client}>{children}</QueryClientProvider>);
}

describe('WhenNearView', () => {
  beforeEach(() => {
    ObserverStub.all = [];
    vi.stubGlobal('IntersectionObserver', ObserverStub);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    queryClient.clear();
  });

  it('keeps an empty box of the given height until the part scrolls into sight', () => {
    const { container } = renderWithQueries(
      <WhenNearView minHeight={240}>
        <p>Below the fold</p>
      </WhenNearView>,
    );
    expect(screen.queryByText('Below the fold')).toBeNull();
    expect((container.firstChild as HTMLElement).style.minHeight).toBe('240px');
    act(() => ObserverStub.enter());
    expect(screen.getByText('Below the fold')).toBeInTheDocument();
  });

  it('renders at the first key pressed, before the focus moves', () => {
    renderWithQueries(
      <WhenNearView minHeight={100}>
        <button type="button">Reached by Tab</button>
      </WhenNearView>,
    );
    expect(screen.queryByRole('button', { name: 'Reached by Tab' })).toBeNull();
    fireEvent.keyDown(document.body, { key: 'Tab' });
    // No waiting: the part is in the page as soon as the key handler has run.
    expect(screen.getByRole('button', { name: 'Reached by Tab' })).toBeInTheDocument();
  });

  it('with whenIdle, renders once no read is under way and the browser is idle; without it, never by itself', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const client = new QueryClient();
    let answer: (value: string) => void = () => undefined;
    void client.fetchQuery({ queryKey: ['slow'], queryFn: () => new Promise<string>((resolve) => (answer = resolve)) });
    renderWithQueries(
      <>
        <WhenNearView minHeight={100} whenIdle>
          <p>Idle part</p>
        </WhenNearView>
        <WhenNearView minHeight={100}>
          <p>Chart</p>
        </WhenNearView>
      </>,
      client,
    );
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText('Idle part')).toBeNull();
    await act(async () => {
      answer('done');
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByText('Idle part')).toBeInTheDocument();
    expect(screen.queryByText('Chart')).toBeNull();
  });

  it('with whenIdle, waits in sight until the reads above it are in, so they do not push it down', async () => {
    const client = new QueryClient();
    let answer: (value: string) => void = () => undefined;
    void client.fetchQuery({ queryKey: ['people'], queryFn: () => new Promise<string>((resolve) => (answer = resolve)) });
    renderWithQueries(
      <WhenNearView minHeight={100} whenIdle>
        <p>Lower section</p>
      </WhenNearView>,
      client,
    );
    act(() => ObserverStub.enter());
    expect(screen.queryByText('Lower section')).toBeNull();
    await act(async () => answer('in'));
    expect(await screen.findByText('Lower section')).toBeInTheDocument();
  });

  it('with whenIdle, stops waiting for reads that never end after IDLE_WAIT_MAX_MS', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const client = new QueryClient();
    void client.fetchQuery({ queryKey: ['polled'], queryFn: () => new Promise<string>(() => undefined) });
    renderWithQueries(
      <WhenNearView minHeight={100} whenIdle>
        <p>Shown at last</p>
      </WhenNearView>,
      client,
    );
    await act(() => vi.advanceTimersByTimeAsync(IDLE_WAIT_MAX_MS - 100));
    expect(screen.queryByText('Shown at last')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(200));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('Shown at last')).toBeInTheDocument();
  });

  it('with reads, renders in sight once they are in the cache, with their answers', async () => {
    let answer: (rows: string[]) => void = () => undefined;
    const rows = new Promise<string[]>((resolve) => (answer = resolve));
    function Part() {
      const { data } = useQuery({ queryKey: ['part', 'rows'], queryFn: () => rows });
      return <p>{data ? `Rows: ${data.join(', ')}` : 'Loading rows'}</p>;
    }
    renderWithQueries(
      <WhenNearView minHeight={100} reads={() => [{ queryKey: ['part', 'rows'], queryFn: () => rows }]}>
        <Part />
      </WhenNearView>,
      queryClient,
    );
    act(() => ObserverStub.enter());
    // Not shown empty first: the part waits in its box for its reads.
    expect(screen.queryByText('Loading rows')).toBeNull();
    await act(async () => answer(['a', 'b']));
    expect(await screen.findByText('Rows: a, b')).toBeInTheDocument();
    expect(screen.queryByText('Loading rows')).toBeNull();
  });

  it('with reads, still renders at once at a key pressed while they are on their way', () => {
    renderWithQueries(
      <WhenNearView minHeight={100} reads={() => [{ queryKey: ['part', 'never'], queryFn: () => new Promise(() => undefined) }]}>
        <button type="button">Reached by Tab</button>
      </WhenNearView>,
      queryClient,
    );
    act(() => ObserverStub.enter());
    expect(screen.queryByRole('button', { name: 'Reached by Tab' })).toBeNull();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(screen.getByRole('button', { name: 'Reached by Tab' })).toBeInTheDocument();
  });

  it('renders at once where the browser has no IntersectionObserver', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    renderWithQueries(
      <WhenNearView minHeight={100}>
        <p>Shown</p>
      </WhenNearView>,
    );
    expect(screen.getByText('Shown')).toBeInTheDocument();
  });
});
