import { Profiler, Suspense, use, useLayoutEffect, type ReactNode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
// TanStack's own hook, to show the difference this module makes.
// eslint-disable-next-line no-restricted-imports
import { QueryClient, QueryClientProvider, useQuery as useUrgentQuery } from '@tanstack/react-query';
import { useQuery } from './use-query';

const KEY = ['word'];
const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
/** Sets the query's data and waits for the cache to tell its readers (TanStack notifies them in a later task). */
const answer = (client: QueryClient, data: string) =>
  act(async () => {
    client.setQueryData(KEY, data);
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
const wrap = (client: QueryClient, children: ReactNode) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;

/** Shows a word; "slow" words suspend until `arrived` resolves, as a part whose code is still on its way does. */
function Word({ word, arrived }: { word: string; arrived: Promise<void> }) {
  if (word.startsWith('slow')) use(arrived);
  return <p>{word}</p>;
}

function Reader({ hook, arrived }: { hook: typeof useQuery; arrived: Promise<void> }) {
  const query = hook({ queryKey: KEY, queryFn: () => Promise.resolve('first') });
  return (
    <Suspense fallback={<p>loading the part</p>}>
      <Word word={query.data ?? 'nothing yet'} arrived={arrived} />
    </Suspense>
  );
}

describe('useQuery', () => {
  it('renders the answer, then each new one', async () => {
    const client = newClient();
    render(wrap(client, <Reader hook={useQuery} arrived={Promise.resolve()} />));
    expect(await screen.findByText('first')).toBeInTheDocument();
    await answer(client, 'second');
    expect(await screen.findByText('second')).toBeInTheDocument();
  });

  it('renders an answer as a transition: a part that suspends keeps the screen as it was meanwhile', async () => {
    const client = newClient();
    let arrive = () => {};
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    render(wrap(client, <Reader hook={useQuery} arrived={arrived} />));
    await screen.findByText('first');

    await answer(client, 'slow second');
    expect(screen.getByText('first')).toBeInTheDocument();
    expect(screen.queryByText('loading the part')).not.toBeInTheDocument();

    await act(async () => arrive());
    expect(await screen.findByText('slow second')).toBeInTheDocument();
  });

  it("differs from TanStack's own hook, whose answers render urgently and show the part's fallback", async () => {
    const client = newClient();
    const arrived = new Promise<void>(() => {});
    render(wrap(client, <Reader hook={useUrgentQuery as typeof useQuery} arrived={arrived} />));
    await screen.findByText('first');
    await answer(client, 'slow second');
    expect(screen.getByText('loading the part')).toBeInTheDocument();
  });

  it('renders again an answer that changed between its render and its subscription', async () => {
    const client = newClient();
    client.setQueryData(KEY, 'first');
    // A layout effect runs after the reader rendered and before it subscribes (in a passive effect).
    function Changer() {
      useLayoutEffect(() => void client.setQueryData(KEY, 'changed meanwhile'), []);
      return null;
    }
    render(
      wrap(
        client,
        <>
          <Reader hook={useQuery} arrived={Promise.resolve()} />
          <Changer />
        </>,
      ),
    );
    expect(await screen.findByText('changed meanwhile')).toBeInTheDocument();
  });

  it('re-renders only for the properties a reader uses', async () => {
    const client = newClient();
    let renders = 0;
    function DataOnly() {
      const query = useQuery({ queryKey: KEY, queryFn: () => Promise.resolve('same') });
      return <p>{query.data ?? 'nothing yet'}</p>;
    }
    render(
      wrap(
        client,
        <Profiler id="reader" onRender={() => (renders += 1)}>
          <DataOnly />
        </Profiler>,
      ),
    );
    await screen.findByText('same');
    const settled = renders;
    // A read again that brings the same answer changes the fetch status only, which this reader does not use.
    await act(() => client.refetchQueries({ queryKey: KEY }));
    expect(screen.getByText('same')).toBeInTheDocument();
    expect(renders).toBe(settled);
  });
});
