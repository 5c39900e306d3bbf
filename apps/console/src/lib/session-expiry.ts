import { useSyncExternalStore } from 'react';
import { isSystemRole } from '@kumo/contract';
import { getSession, saveTokens } from './session';

/**
 * A staff member whose session can no longer be refreshed signs in again in a pop-up instead of being
 * sent to the login: the calls that found the session expired wait here and are retried afterwards.
 */
type Waiter = (renewed: boolean) => void;

let expired = false;
let waiters: Waiter[] = [];
const listeners = new Set<() => void>();

function notify(): void {
  listeners.forEach((listener) => listener());
}

function settle(renewed: boolean): void {
  const waiting = waiters;
  waiters = [];
  expired = false;
  notify();
  waiting.forEach((resolve) => resolve(renewed));
}

/** Staff keep their place while they sign in again; customers go back to the login (spec section 4). */
export function canRenewInteractively(): boolean {
  const role = getSession().user?.role;
  return role !== undefined && isSystemRole(role);
}

/** Marks the session expired and resolves once the person has signed in again (true) or given up (false). */
export function waitForRenewedSession(): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    waiters.push(resolve);
    if (!expired) {
      expired = true;
      notify();
    }
  });
}

/** New tokens from the renewed sign-in: store them and let the waiting calls go again. */
export function renewSession(jwtToken: string, refreshToken: string): void {
  saveTokens(jwtToken, refreshToken);
  settle(true);
}

/** The person chose not to sign in again: the waiting calls fail and the session ends. */
export function abandonSession(): void {
  settle(false);
}

export function isSessionExpired(): boolean {
  return expired;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while calls wait for the person to sign in again. */
export function useSessionExpired(): boolean {
  return useSyncExternalStore(subscribe, isSessionExpired, isSessionExpired);
}
