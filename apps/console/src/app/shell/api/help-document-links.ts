import { queryOptions } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { HelpLinks } from '@kumo/contract';
import { api } from '../../../lib/api-client';

export const helpLinksQueryKey = ['saas-common', 'help-document-links'] as const;

export function fetchHelpLinks(signal?: AbortSignal): Promise<HelpLinks> {
  return api.get('/api/saas-common/help-document-links', { signal });
}

/** The links change with releases, not during a visit: fetched once. */
export const helpLinksQuery = queryOptions({
  queryKey: helpLinksQueryKey,
  queryFn: ({ signal }) => fetchHelpLinks(signal),
  staleTime: Infinity,
});

export function useHelpLinks() {
  return useQuery(helpLinksQuery);
}

/** The help page for a key, else the home help page; link values are paths under BASE_URL. */
export function helpUrl(links: HelpLinks, key: string): string | undefined {
  const path = links.links[key] ?? links.links.home;
  if (path === undefined) return undefined;
  if (/^https?:\/\//i.test(path)) return path;
  const base = links.BASE_URL.replace(/\/+$/, '');
  return path ? `${base}/${path.replace(/^\/+/, '')}` : `${base}/`;
}
