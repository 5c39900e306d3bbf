import { useClusterPower } from './api/start-stop-cluster';
import { notifyError, notifySuccess } from '../../components/notify';

/** Start or stop with the outcome told in a toast: the server's message on success, its error text otherwise. */
export function usePowerAction() {
  const power = useClusterPower();
  const run = (deploymentId: string, action: 'start' | 'stop', onDone?: () => void) =>
    power.mutate(
      { deploymentId, action },
      {
        onSuccess: (result) => notifySuccess(result.message),
        onError: (error) => notifyError(error),
        onSettled: onDone,
      },
    );
  return { run, isPending: power.isPending, pendingFor: power.isPending ? power.variables?.deploymentId : undefined };
}
