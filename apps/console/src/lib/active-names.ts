import { useEffect, useSyncExternalStore } from 'react';

/**
 * The names of the items the pages have selected (spec section 3, client state: active subscription,
 * cluster, user and customer names). The breadcrumb and the document title read them.
 */
export type ActiveNameKey = 'subscription' | 'cluster' | 'user' | 'customer';
export type ActiveNames = Readonly<Partial<Record<ActiveNameKey, string>>>;

const listeners = new Set<() => void>();
let names: ActiveNames = {};

export function setActiveName(key: ActiveNameKey, name: string | undefined): void {
  if (names[key] === name) return;
  const next = { ...names };
  if (name) next[key] = name;
  else delete next[key];
  names = next;
  listeners.forEach((listener) => listener());
}

export function getActiveNames(): ActiveNames {
  return names;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useActiveNames(): ActiveNames {
  return useSyncExternalStore(subscribe, getActiveNames, getActiveNames);
}

/** Publishes the page's selected item for as long as the page shows it. */
export function useActiveName(key: ActiveNameKey, name: string | undefined): void {
  useEffect(() => {
    setActiveName(key, name);
    return () => setActiveName(key, undefined);
  }, [key, name]);
}

/**
 * Where an active item's name in the breadcrumb links to, when it has a page of its own (the Clusters
 * breadcrumb's subscription leads back to that subscription).
 */
export type ActiveLinks = Readonly<Partial<Record<ActiveNameKey, string>>>;

const linkListeners = new Set<() => void>();
let links: ActiveLinks = {};

function setActiveLink(key: ActiveNameKey, href: string | undefined): void {
  if (links[key] === href) return;
  const next = { ...links };
  if (href) next[key] = href;
  else delete next[key];
  links = next;
  linkListeners.forEach((listener) => listener());
}

function subscribeLinks(listener: () => void): () => void {
  linkListeners.add(listener);
  return () => linkListeners.delete(listener);
}

export function useActiveLinks(): ActiveLinks {
  return useSyncExternalStore(
    subscribeLinks,
    () => links,
    () => links,
  );
}

/** Publishes where the page's selected item links to, for as long as the page shows it. */
export function useActiveLink(key: ActiveNameKey, href: string | undefined): void {
  useEffect(() => {
    setActiveLink(key, href);
    return () => setActiveLink(key, undefined);
  }, [key, href]);
}
