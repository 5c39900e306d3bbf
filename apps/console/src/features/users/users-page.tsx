import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Grid } from '@mantine/core';
import { UsersHeader } from '../../components/page-headers';
import { WhenNearView } from '../../components/when-near-view';
import { useActiveName } from '../../lib/active-names';
import { useSession } from '../../lib/session';
import { ApiTokens } from './api-tokens';
import { utcMonthStart } from '../../components/cost/months';
import { accountAuditQuery } from './api/account-audit';
import { apiTokensQuery } from './api/api-tokens';
import { webhooksQuery } from './api/webhooks';
import { accountUsersQuery, useAccountUsers } from './api/account-users';
import { pendingInvitationsQuery, usePendingInvitations } from './api/pending-invitations';
import type { FirstRead } from '../../lib/api/first-reads';
import { UserDetails } from './user-details';
import { PendingInvitations } from './pending-invitations';
import { StaffAccess } from './staff-access';
import { UserList } from './user-list';
import { Webhooks } from './webhooks';
import { lazyChunk } from '../../lib/load-chunk';
import { LoadedWhenOpened } from '../../components/loaded-when-opened';

// The invitation form (its checks and schemas) loads when first opened, not with the page.
const AddUserDialog = lazyChunk(() => import('./add-user-dialog').then((m) => ({ default: m.AddUserDialog })));

/** /users and /users/{userId}: the account's people on the left, the selected person's details on the right. */
/** What the page is first shown with (app/routes.tsx). */
export const usersFirstReads = (): FirstRead[] => [accountUsersQuery, pendingInvitationsQuery];

/** What the sections below the people read first: the person's API tokens, the webhooks, this month's staff access. */
const lowerSectionsReads = (): FirstRead[] => [apiTokensQuery, webhooksQuery, accountAuditQuery(utcMonthStart())];

export function UsersPage() {
  const { userId } = useParams();
  const navigate = useNavigate();
  const { user: me } = useSession();
  const usersQuery = useAccountUsers();
  // The details show once the people and the pending invitations are in: on a phone they sit below both, and would
  // otherwise be pushed down as each arrives (the first person is selected then anyway).
  const invitationsQuery = usePendingInvitations();
  const waiting = usersQuery.isPending || invitationsQuery.isPending;
  const [adding, setAdding] = useState(false);
  const users = usersQuery.data ?? [];
  const selected = users.find((user) => user.user_id === userId);
  useActiveName('user', selected?.user_name);

  // The route follows the selection; with none made, the first person is selected.
  const first = users[0];
  if (!userId && first) return <Navigate to={`/users/${first.user_id}`} replace />;
  // The guard renders this page only for a signed-in user.
  if (!me) return null;

  return (
    <>
      <UsersHeader />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5, lg: 4 }}>
          <UserList query={usersQuery} selectedId={userId} onAdd={() => setAdding(true)} />
          <PendingInvitations />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7, lg: 8 }}>
          {!waiting && <UserDetails user={selected} me={me} onDeleted={() => void navigate('/users', { replace: true })} />}
        </Grid.Col>
      </Grid>
      {/* Below the people on every screen: drawn as they come into sight, or once the page is quiet. */}
      <WhenNearView minHeight={200} whenIdle reads={lowerSectionsReads}>
        <ApiTokens />
        <Webhooks />
        <StaffAccess />
      </WhenNearView>
      <LoadedWhenOpened opened={adding}>
        <AddUserDialog opened={adding} onClose={() => setAdding(false)} />
      </LoadedWhenOpened>
    </>
  );
}
