import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../lib/api-error';
import { useClusterPower } from './api/start-stop-cluster';

/** Start or stop with the outcome told in a toast: the server's message on success, its error text otherwise. */
export function usePowerAction() {
  const power = useClusterPower();
  const run = (deploymentId: string, action: 'start' | 'stop', onDone?: () => void) =>
    power.mutate(
      { deploymentId, action },
      {
        onSuccess: (result) => notifications.show({ color: 'green', message: result.message }),
        onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
        onSettled: onDone,
      },
    );
  return { run, isPending: power.isPending, pendingFor: power.isPending ? power.variables?.deploymentId : undefined };
}
