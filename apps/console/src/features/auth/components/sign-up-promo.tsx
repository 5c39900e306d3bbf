import { Alert, Text } from '@mantine/core';
import { FREE_CREDIT_VALIDITY_DAYS, SIGN_UP_CREDIT_USD } from '@kumo/contract';
import { IconGift } from '../../../components/icons';
import { formatUsd } from '../../../lib/format-usd';

export function SignUpPromo() {
  return (
    <Alert
      variant="light"
      color="teal"
      icon={<IconGift size={20} />}
      mb="lg"
      title={`Get ${formatUsd(SIGN_UP_CREDIT_USD, 0)} in free credits`}
    >
      <Text fz="sm">
        Sign up today and your first subscription receives {formatUsd(SIGN_UP_CREDIT_USD, 0)} of free credits. Free credits expire{' '}
        {FREE_CREDIT_VALIDITY_DAYS} days after issue.
      </Text>
    </Alert>
  );
}
