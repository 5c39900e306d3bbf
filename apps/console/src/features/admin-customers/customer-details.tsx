import { MESSAGES, type CustomerListItem } from '@kumo/contract';
import { Avatar, Card, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { IconBuilding } from '../../components/icons';
import { initials } from '../../lib/format';

export function CustomerDetails({ customer }: { customer: CustomerListItem | undefined }) {
  if (!customer) {
    return (
      <Card>
        <EmptyState variant="light" icon={<IconBuilding size={24} />} title={MESSAGES.customerDetailsUnavailable} py={64} />
      </Card>
    );
  }
  return (
    <Card>
      <Group gap="md" wrap="nowrap">
        <Avatar color="indigo" radius="xl" size={56}>
          {initials(customer.user_name)}
        </Avatar>
        <Stack gap={2} miw={0}>
          <Title order={2} fz="xl">
            {customer.user_name}
          </Title>
          <Text c="dimmed" truncate="end">
            {customer.email_id}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}
