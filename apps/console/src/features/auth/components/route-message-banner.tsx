import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert } from '@mantine/core';
import { UI_TIMING } from '@kumo/contract';
import { withActionLink } from './action-message';

/** Shows a message handed over in navigation state (e.g. a failed single sign-on) for a few seconds. */
export function RouteMessageBanner() {
  const location = useLocation();
  const message = (location.state as { message?: unknown } | null)?.message;
  const [hiddenKey, setHiddenKey] = useState<string | null>(null);

  useEffect(() => {
    if (typeof message !== 'string' || !message) return;
    const timer = setTimeout(() => setHiddenKey(location.key), UI_TIMING.errorBannerMs);
    return () => clearTimeout(timer);
  }, [message, location.key]);

  if (typeof message !== 'string' || !message || hiddenKey === location.key) return null;
  // ErrorAlert's look, without its reading of API errors (and the contract's whole message table) on the first download.
  return (
    <Alert color="red" variant="light" role="alert" mb="lg">
      {withActionLink(message)}
    </Alert>
  );
}
