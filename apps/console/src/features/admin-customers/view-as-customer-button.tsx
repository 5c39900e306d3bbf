import { useNavigate } from 'react-router';
import { Button } from '@mantine/core';
import { IconEye } from '../../components/icons';
import { useStartUserSwitch } from '../../lib/api/switch-user';
import { notifyError } from '../../components/notify';

/**
 * Opens the customer's console as the customer sees it, read-only (customer_switch_user). The page leaves the
 * admin area once the view starts, so what follows is chained on the call rather than on this component.
 */
export function ViewAsCustomerButton({ userId, disabled }: { userId: string; disabled: boolean }) {
  const navigate = useNavigate();
  const start = useStartUserSwitch();
  const view = () =>
    start.mutateAsync(userId).then(
      () => void navigate('/'),
      (error: unknown) => notifyError(error),
    );
  return (
    <Button variant="light" leftSection={<IconEye />} disabled={disabled} loading={start.isPending} onClick={() => void view()}>
      View as customer
    </Button>
  );
}
