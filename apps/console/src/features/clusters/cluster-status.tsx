import { CLUSTER_STATUS_COLORS, CLUSTER_STATUS_LABELS, isClusterBusy, type ClusterStatus } from '@kumo/contract';
import { AnimatedDots } from './animated-dots';
import classes from './cluster-status.module.css';

/** The class colouring a text like a status: 'green', 'red', 'blue' or 'gray'. */
export const statusColorClass = (color: 'green' | 'red' | 'blue' | 'gray') => classes[color];

/** The status as the spec writes it ('Deploying...', 'Deployment Failed', …), coloured, with dots while it moves. */
export function ClusterStatusText({ status, size = 'sm' }: { status: ClusterStatus; size?: 'xs' | 'sm' }) {
  const label = CLUSTER_STATUS_LABELS[status];
  const busy = isClusterBusy(status);
  return (
    <span data-status={status} data-size={size} className={`${classes.status} ${classes[CLUSTER_STATUS_COLORS[status]]}`}>
      {busy ? label.replace(/\.\.\.$/, '') : label}
      {busy && <AnimatedDots />}
    </span>
  );
}
