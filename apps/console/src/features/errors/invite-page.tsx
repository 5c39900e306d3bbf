import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@mantine/core';
import { MESSAGES } from '@kumo/contract';
import { IconLock } from '../../components/icons';
import { PublicLayout } from '../../components/public-layout';
import { clearSession } from '../../lib/session';
import { StatusMessage } from './status-message';

/** /invite: an invitation link lands here; only a failed one (error=true) stays on the page. */
export function InvitePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const failed = params.get('error') === 'true';

  useEffect(() => {
    // Whoever was signed in on this browser is not necessarily the invited person.
    clearSession();
    if (!failed) void navigate('/login', { replace: true });
  }, [failed, navigate]);

  if (!failed) return null;
  return (
    <PublicLayout>
      <StatusMessage
        icon={<IconLock size={28} />}
        title="Unable to open this invitation"
        action={
          <Button component={Link} to="/login">
            Login
          </Button>
        }
      >
        {MESSAGES.accessExpired}
      </StatusMessage>
    </PublicLayout>
  );
}
