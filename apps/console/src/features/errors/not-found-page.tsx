import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { MESSAGES } from '@kumo/contract';
import { IconHelp } from '../../components/icons';
import { PublicLayout } from '../../components/public-layout';
import { StatusMessage } from './status-message';

export function NotFoundPage() {
  return (
    <PublicLayout>
      <StatusMessage
        icon={<IconHelp size={28} />}
        title={MESSAGES.pageNotFound}
        action={
          <Button component={Link} to="/">
            Go to Home
          </Button>
        }
      >
        The page you are looking for does not exist or has moved.
      </StatusMessage>
    </PublicLayout>
  );
}
