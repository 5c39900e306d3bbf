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

/** The staff member's own session while they view a customer's console (userSwitched). */
interface KeptSession {
  jwtToken: string;
  refreshToken: string;
  user: UserDetail;
}

/**
 * A staff member starts viewing a customer's console: their own session is kept aside, the view's tokens take
 * its place and the customer is loaded afresh (the guard loads the user detail).
 */
export function enterCustomerView(jwtToken: string, refreshToken: string): void {
  const { jwtToken: ownToken, refreshToken: ownRefresh, user } = current;
  if (ownToken && ownRefresh && user) {
    const kept: KeptSession = { jwtToken: ownToken, refreshToken: ownRefresh, user };
    localStorage.setItem(STORAGE_KEYS.staffSession, JSON.stringify(kept));
  }
  localStorage.removeItem(STORAGE_KEYS.userInfo);
  saveTokens(jwtToken, refreshToken);
}

/** True while a staff member's own session waits aside for a customer view to end. */
export function inCustomerView(): boolean {
  return localStorage.getItem(STORAGE_KEYS.staffSession) !== null;
}

function readKept(): KeptSession | null {
  try {
    const kept = JSON.parse(localStorage.getItem(STORAGE_KEYS.staffSession) ?? 'null') as KeptSession | null;
    return kept?.jwtToken && kept.refreshToken && kept.user ? kept : null;
  } catch {
    return null;
  }
}

/** Told the access token of a session that ends, while it is still the stored one; it may return a promise. */
type SessionEndListener = (jwtToken: string) => unknown;
const endListeners = new Set<SessionEndListener>();
/** The access token whose end was last announced: a session's end is announced once, however many paths end it. */
let announcedEnd: string | null = null;

/** Registers what happens whenever a session ends (spec section 4: the report tool's logout). */
export function onSessionEnd(listener: SessionEndListener): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

/**
 * Tells the listeners that the current session ends, once per session, and resolves when they have done (their
 * failures are theirs). Logout announces it before asking the server, while the token still opens calls.
 */
export async function announceSessionEnd(): Promise<void> {
  const token = current.jwtToken;
  if (!token || token === announcedEnd) return;
  announcedEnd = token;
  await Promise.allSettled([...endListeners].map(async (listener) => listener(token)));
}

/** Signing out forgets everything the portal stored, not only the session keys (a staff session kept aside too). */
export function clearSession(): void {
  void announceSessionEnd();
  localStorage.clear();
  reload();
}

/**
 * The current session is over (logout, a failed renewal, the account gone). A customer view ends however it
 * ends, and the staff member's own session comes back untouched; any other session is forgotten with everything.
 */
export function endSession(): void {
  void announceSessionEnd();
  const kept = readKept();
  if (!kept) return clearSession();
  localStorage.removeItem(STORAGE_KEYS.staffSession);
  localStorage.setItem(STORAGE_KEYS.userInfo, JSON.stringify(kept.user));
  saveTokens(kept.jwtToken, kept.refreshToken);
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

// A sign-in or sign-out in another tab applies here too.
window.addEventListener('storage', (event) => {
  if (event.key === null || Object.values<string>(STORAGE_KEYS).includes(event.key)) reload();
});
