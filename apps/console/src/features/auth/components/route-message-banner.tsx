import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { UI_TIMING } from '@kumo/contract';
import { withActionLink } from './action-message';
import { ErrorAlert } from '../../../components/error-alert';

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
  return <ErrorAlert mb="lg">{withActionLink(message)}</ErrorAlert>;
}
