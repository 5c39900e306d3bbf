import { useNavigate } from 'react-router';
import {
  Avatar,
  Badge,
  Box,
  Group,
  Menu,
  Paper,
  Stack,
  Text,
  UnstyledButton,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { ROLE_LABELS, UI_TIMING, isSystemRole, type Account, type UserDetail } from '@kumo/contract';
import { IconCheck, IconLogout } from '../../components/icons';
import { WideTextTooltip } from '../../components/wide-text-tooltip';
import { useSwitchAccount } from '../../lib/api/switch-account';
import { initials } from '../../lib/format';
import { signInPath, signOut } from '../../lib/sign-out';
import { notifyError, notifySuccess } from '../../components/notify';

export function ProfileMenu({ user }: { user: UserDetail }) {
  const navigate = useNavigate();
  const switchCall = useSwitchAccount();
  const activeAccount = user.accounts.find((account) => account.logged_in);
  const accountEmail = activeAccount?.account_owner_email_id ?? user.ownerEmailId;

  const logout = async () => {
    // Logging out of a customer view ends the view: back to the staff member's customers page.
    const target = user.userSwitched ? '/admin/customers' : signInPath(user.role);
    await signOut();
    void navigate(target, { replace: true });
  };

  // mutateAsync settles even when a failed switch ends the session and unmounts this menu.
  // Spec section 4: admin roles land on the customers list, everyone else on home.
  const switchTo = (account: Account) =>
    switchCall
      .mutateAsync(account.account_id)
      .then(({ user: switched, message }) => {
        notifySuccess(message, { autoClose: UI_TIMING.switchNotificationMs });
        void navigate(isSystemRole(switched.role) ? '/admin/customers' : '/');
      })
      .catch((error: unknown) => notifyError(error, { autoClose: UI_TIMING.switchNotificationMs }));

  return (
    // The dropdown never outgrows a phone's screen (390 px), so opening it does not widen the page.
    <Menu position="bottom-end" width={392} shadow="lg" radius="md" styles={{ dropdown: { maxWidth: 'calc(100vw - 16px)' } }}>
      <Menu.Target>
        {/* Named by what it shows, "AL Ada Lovelace", then what it does, so voice control finds it by its text. A
            label rather than hidden spans, which Chromium would read with a space before the colon. The space before
            the visible name keeps the text "AL Ada Lovelace" a part of the label. */}
        <UnstyledButton aria-label={`${initials(user.userName)} ${user.userName}: Profile menu`}>
          <Group gap="xs" wrap="nowrap">
            <Avatar color="indigo" radius="xl" size={34}>
              {initials(user.userName)}
            </Avatar>
            <Text component="span" fz="sm" fw={500} visibleFrom="sm" maw={180} truncate="end">
              {` ${user.userName}`}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Group gap="sm" p="sm" wrap="nowrap">
          <Avatar color="indigo" radius="xl" size={44}>
            {initials(user.userName)}
          </Avatar>
          <Box miw={0}>
            <Text fw={600} truncate="end">
              {user.userName}
            </Text>
            <Text fz="sm" c="dimmed" truncate="end">
              {user.emailId}
            </Text>
          </Box>
        </Group>
        {accountEmail && (
          <Paper bg="var(--kumo-color-page)" withBorder radius="md" p="xs" mx="xs" mb="xs">
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600} mb={2}>
              Working account
            </Text>
            <WideTextTooltip text={accountEmail} fz="sm" fw={500} />
          </Paper>
        )}
        {/* A customer view stays in the one account it was opened for. */}
        {user.accounts.length > 1 && !user.userSwitched && (
          <>
            <Menu.Label>Accounts</Menu.Label>
            {user.accounts.map((account) =>
              account.logged_in ? (
                <Group key={account.account_id} px="sm" py={8} justify="space-between" wrap="nowrap" aria-current="true">
                  <AccountLabel account={account} />
                  <Badge color="indigo" variant="light" leftSection={<IconCheck size={12} />} style={{ flexShrink: 0 }}>
                    Active
                  </Badge>
                </Group>
              ) : (
                <Menu.Item key={account.account_id} onClick={() => void switchTo(account)} disabled={switchCall.isPending}>
                  <AccountLabel account={account} />
                </Menu.Item>
              ),
            )}
          </>
        )}
        <Menu.Divider />
        <ColorSchemeItems />
        <Menu.Divider />
        <Menu.Item leftSection={<IconLogout />} onClick={() => void logout()}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function AccountLabel({ account }: { account: Account }) {
  return (
    <Stack gap={0} miw={0} flex={1}>
      <Text fz="sm" truncate="end">
        {account.account_owner_email_id}
      </Text>
      <Text fz="xs" c="dimmed">
        {ROLE_LABELS[account.role]}
      </Text>
    </Stack>
  );
}

const SCHEMES: { value: MantineColorScheme; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'auto', label: 'System' },
];

/** Light, Dark or System (the default: follows the operating system's setting); kept in this browser. */
function ColorSchemeItems() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <>
      <Menu.Label>Appearance</Menu.Label>
      <Menu.RadioGroup value={colorScheme} onChange={(value) => setColorScheme(value as MantineColorScheme)}>
        {SCHEMES.map(({ value, label }) => (
          // Stays open, so the person sees the change and can take it back.
          <Menu.RadioItem key={value} value={value} closeMenuOnClick={false}>
            {label}
          </Menu.RadioItem>
        ))}
      </Menu.RadioGroup>
    </>
  );
}
