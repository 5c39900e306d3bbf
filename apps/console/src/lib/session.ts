import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS, type UserDetail } from '@kumo/contract';

/** The signed-in session, kept in local storage so it survives reloads and is shared by tabs. */
export interface Session {
  jwtToken: string | null;
  refreshToken: string | null;
  user: UserDetail | null;
}

const listeners = new Set<() => void>();
let current: Session = readStorage();

function readStorage(): Session {
  return {
    jwtToken: localStorage.getItem(STORAGE_KEYS.jwtToken),
    refreshToken: localStorage.getItem(STORAGE_KEYS.refreshToken),
    user: parseUser(localStorage.getItem(STORAGE_KEYS.userInfo)),
  };
}

function parseUser(raw: string | null): UserDetail | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as UserDetail;
  } catch {
    return null;
  }
}

function reload(): void {
  current = readStorage();
  listeners.forEach((listener) => listener());
}

export function getSession(): Session {
  return current;
}

export function saveTokens(jwtToken: string, refreshToken: string): void {
  localStorage.setItem(STORAGE_KEYS.jwtToken, jwtToken);
  localStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
  reload();
}

export function saveUser(user: UserDetail): void {
  localStorage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(user));
  reload();
}

/** Signing out forgets everything the portal stored, not only the session keys. */
export function clearSession(): void {
  localStorage.clear();
  reload();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession);
}

// A sign-in or sign-out in another tab applies here too.
window.addEventListener('storage', (event) => {
  if (event.key === null || Object.values<string>(STORAGE_KEYS).includes(event.key)) reload();
});
