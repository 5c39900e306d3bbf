import { Badge, Box, Group, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconCircle, IconX } from '../../components/icons';
import type { ClusterStatus, DeploymentStatus, DeploymentStepState, StackStatus } from '@kumo/contract';
import { statusColorClass } from './cluster-status';
import { deploymentProgress } from './deployment-progress';

type StepState = DeploymentStepState;

interface DeploymentStepsProps {
  clusterStatus: ClusterStatus;
  stackStatus: StackStatus | null;
  deploymentStatus: DeploymentStatus | null;
}

/** The three steps of a deployment with their icons, and the sentence that sums them up (spec section 2). */
export function DeploymentSteps({ clusterStatus, stackStatus, deploymentStatus }: DeploymentStepsProps) {
  const progress = deploymentProgress(clusterStatus, stackStatus, deploymentStatus);
  return (
    <Stack gap="md">
      <Box role="status" aria-live="polite">
        <Text fw={600} className={progress.outcome === 'failed' ? statusColorClass('red') : undefined}>
          {progress.headline}
        </Text>
        {progress.hint && (
          <Text fz="sm" c="dimmed">
            {progress.hint}
          </Text>
        )}
      </Box>
      <Stack gap={0} component="ol" aria-label="Deployment steps" m={0} p={0} style={{ listStyle: 'none' }}>
        {progress.steps.map((step, index) => (
          <Group
            key={step.label}
            component="li"
            gap="sm"
            wrap="nowrap"
            py="xs"
            data-state={step.state}
            aria-label={`${step.label}: ${STATE_NAMES[step.state]}`}
            style={index > 0 ? { borderTop: '1px dashed var(--mantine-color-default-border)' } : undefined}
          >
            <StepIcon state={step.state} />
            <Text fz="sm" fw={step.state === 'progress' ? 600 : 400} style={{ flex: 1 }}>
              {step.label}
            </Text>
            {step.state === 'error' && (
              <Badge color="red" variant="light" tt="none">
                Failed
              </Badge>
            )}
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

const STATE_NAMES: Record<StepState, string> = {
  success: 'done',
  progress: 'in progress',
  error: 'failed',
  default: 'waiting',
};

function StepIcon({ state }: { state: StepState }) {
  if (state === 'progress') {
    return (
      <ThemeIcon variant="light" radius="xl" size={28} color="indigo" aria-hidden="true">
        <Loader size={16} color="indigo" />
      </ThemeIcon>
    );
  }
  if (state === 'success') {
    return (
      <ThemeIcon variant="filled" radius="xl" size={28} color="teal" aria-hidden="true">
        <IconCheck size={16} />
      </ThemeIcon>
    );
  }
  if (state === 'error') {
    return (
      <ThemeIcon variant="filled" radius="xl" size={28} color="red" aria-hidden="true">
        <IconX size={16} />
      </ThemeIcon>
    );
  }
  return (
    <ThemeIcon variant="light" radius="xl" size={28} color="gray" aria-hidden="true">
      <IconCircle size={14} />
    </ThemeIcon>
  );
}
