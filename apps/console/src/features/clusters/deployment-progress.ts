import {
  CLUSTER_MESSAGES,
  DEPLOYMENT_STEP_LABELS,
  deploymentSteps,
  type ClusterStatus,
  type DeploymentStatus,
  type DeploymentStepState,
  type StackStatus,
} from '@kumo/contract';

export interface DeploymentProgress {
  outcome: 'in-progress' | 'failed' | 'completed';
  headline: string;
  hint?: string;
  steps: { label: string; state: DeploymentStepState }[];
}

/**
 * Where a deployment stands: the step icons follow the stack and deployment statuses (the contract's
 * rule); the sentence above them follows the steps, or the cluster's own FAILED status.
 */
export function deploymentProgress(
  clusterStatus: ClusterStatus,
  stackStatus: StackStatus | null,
  deploymentStatus: DeploymentStatus | null,
): DeploymentProgress {
  const steps = deploymentSteps(stackStatus, deploymentStatus).map((state, index) => ({ label: DEPLOYMENT_STEP_LABELS[index]!, state }));
  const failed = clusterStatus === 'FAILED' || steps.some((step) => step.state === 'error');
  if (failed) {
    // A cluster that failed before its statuses said so still shows the step it stopped at.
    if (!steps.some((step) => step.state === 'error')) {
      const stopped = steps.find((step) => step.state === 'progress') ?? steps.find((step) => step.state === 'default');
      if (stopped) stopped.state = 'error';
    }
    return { outcome: 'failed', headline: CLUSTER_MESSAGES.deploymentFailed, steps };
  }
  if (steps.every((step) => step.state === 'success')) {
    return { outcome: 'completed', headline: CLUSTER_MESSAGES.deploymentCompleted, steps };
  }
  return { outcome: 'in-progress', headline: CLUSTER_MESSAGES.deploymentInProgress, hint: CLUSTER_MESSAGES.deploymentTakesAnHour, steps };
}
