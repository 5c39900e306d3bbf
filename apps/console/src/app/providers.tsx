import './mantine-styles';
import { lazy, Suspense, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { UI_TIMING } from '@kumo/contract';
import { useToastHostWanted } from '../lib/toast-host';
import { colorSchemeManager } from './color-scheme';
import notificationClasses from './notifications.module.css';
import { theme } from './theme';

// The toast host (and its transitions) loads with the first toast (lib/toast-host.ts): `notifications.show` queues in
// the store until it mounts, and keeping it off every page's first screen keeps that screen's work short.
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

export function Providers({ children }: { children: ReactNode }) {
  const toastHostWanted = useToastHostWanted();
  return (
    // "auto" follows the system setting until the person picks Light or Dark in the profile menu.
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      // The theme's CSS variables are a stylesheet written at build time (theme-variables.css, from mantine-styles.ts).
      withCssVariables={false}
    >
      {toastHostWanted && (
        <Suspense fallback={null}>
          {/* Below the 60 px top bar, so a toast never covers the profile menu's button. */}
          <Notifications position="top-right" autoClose={UI_TIMING.notificationMs} classNames={{ root: notificationClasses.root }} />
        </Suspense>
      )}
      {/* The query cache is provided by app/query-layout.tsx, which loads after the sign-in screen. */}
      {children}
    </MantineProvider>
  );
}
