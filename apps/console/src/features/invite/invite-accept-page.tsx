import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Center, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { MESSAGES, canUseCustomerArea } from '@kumo/contract';
import { IconLock } from '../../components/icons';
import { PublicLayout } from '../../components/public-layout';
import { ApiError, errorMessage } from '../../lib/api-error';
import { acceptInvitation } from './api/accept-invite';

const ACCESS_EXPIRED_PATH = '/invite?error=true';

/**
 * /invite/accept?token=…: the link in the invitation e-mail. Accepting signs the invited person in;
 * account owners and admins land on home, other roles on the unauthorized page. An expired, used or
 * unknown invitation goes to the Access Expired page.
 */
export function InviteAcceptPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [failure, setFailure] = useState<string | null>(null);
  // An invitation is single use: accept it once even when the effect runs again.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!token) {
      void navigate(ACCESS_EXPIRED_PATH, { replace: true });
      return;
    }
    acceptInvitation(token).then(
      ({ user, signUp }) => {
        const target = canUseCustomerArea(user.role) ? '/' : '/unauthorized-access';
        // Invited people join an account someone else set up: home's welcome promises them no sign-up credits.
        void navigate(target, { replace: true, state: { sign_up: signUp, invited: true } });
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.code === 'INVITATION_INVALID') {
          void navigate(ACCESS_EXPIRED_PATH, { replace: true });
        } else {
          setFailure(errorMessage(error));
        }
      },
    );
  }, [navigate, token]);

  if (failure) {
    return (
      <PublicLayout>
        <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} maw={560} mx="auto" mt={48} shadow="xs">
          <Stack align="center" ta="center" gap="md">
            <ThemeIcon size={56} radius="xl" variant="light" color="red">
              <IconLock size={28} />
            </ThemeIcon>
            <Title order={1} fz={26}>
              Unable to accept the invitation
            </Title>
            <Text c="dimmed" role="alert">
              {failure}
            </Text>
            <Button component={Link} to="/login">
              Login
            </Button>
          </Stack>
        </Paper>
      </PublicLayout>
    );
  }

  return (
    <Center mih="100dvh">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{MESSAGES.validating}</Text>
      </Stack>
    </Center>
  );
}
