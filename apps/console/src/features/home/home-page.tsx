import type { ReactNode } from 'react';
import { Box, Grid, SimpleGrid, Stack } from '@mantine/core';
import { CardLoader } from '../../components/card-states';
import { HomeHeader } from '../../components/page-headers';
import { useSubscriptionList } from '../../lib/api/subscription-list';
import { useSession } from '../../lib/session';
import { DocumentationCard } from './documentation-card';
import { MinBalanceBanner } from './min-balance-banner';
import { QuickLinksCard } from './quick-links-card';
import { SubscriptionsSummary } from './subscriptions-summary';
import { WelcomeDialog } from './welcome-dialog';

/** The dashboard; the clusters table comes from the clusters feature, composed in app/. */
export function HomePage({ clustersCard }: { clustersCard: ReactNode }) {
  const { user } = useSession();
  const firstName = user?.userName.split(' ')[0];
  // Nothing below the heading shows until the subscriptions are in: the minimum-balance banner they may call for would
  // otherwise push a painted page down. The cards mount hidden meanwhile, so their own reads start at once.
  const waiting = useSubscriptionList().isPending;

  return (
    <>
      <HomeHeader firstName={firstName} />
      {waiting && <CardLoader label="Loading home" mih={150} />}
      <Box hidden={waiting}>
        <MinBalanceBanner />
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 3 }}>
            <SubscriptionsSummary />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 9 }}>
            <Stack gap="lg">
              {clustersCard}
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                <QuickLinksCard />
                <DocumentationCard />
              </SimpleGrid>
            </Stack>
          </Grid.Col>
        </Grid>
      </Box>
      <WelcomeDialog />
    </>
  );
}
