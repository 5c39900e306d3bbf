import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { AUTO_STOP_LIMITS } from '@kumo/contract';
import { notifyError } from '../../components/notify';
import { useSaveNewClusterAutoStop } from './api/auto-stop';
import { IdleMinutesField, idleValueOf, readIdleMinutes, type IdleMinutesValue } from './idle-minutes-field';

/**
 * The create form's auto-stop: a new cluster stops after 60 idle minutes unless changed here. The choice is saved on
 * the cluster right after it is created, always, 60 too: the server first gives a new cluster the operator's default
 * (AUTO_STOP_DEFAULT_MINUTES), which may be another number or off.
 */
export function useCreateClusterAutoStop() {
  const [value, setValue] = useState<IdleMinutesValue>(() => idleValueOf(AUTO_STOP_LIMITS.defaultIdleMinutes));
  const [error, setError] = useState<string | undefined>();
  const save = useSaveNewClusterAutoStop();
  return {
    field: (
      <CreateClusterAutoStop
        value={value}
        error={error}
        onChange={(next) => {
          setError(undefined);
          setValue(next);
        }}
      />
    ),
    /** Whether the minutes may be sent; says why not under the field. */
    check(): boolean {
      const read = readIdleMinutes(value);
      if (!read.ok) setError(read.error);
      return read.ok;
    },
    /** Saves the choice on the new cluster. */
    applyTo(deploymentId: string): void {
      const read = readIdleMinutes(value);
      if (!read.ok) return;
      save.mutate({ deploymentId, request: { idle_minutes: read.idleMinutes } }, { onError: (failure) => notifyError(failure) });
    },
  };
}

function CreateClusterAutoStop(props: { value: IdleMinutesValue; error?: string; onChange: (value: IdleMinutesValue) => void }) {
  return (
    <Stack gap={4} role="group" aria-label="Auto-stop">
      <Text fz="sm" fw={500}>
        Auto-stop
      </Text>
      <Text fz="xs" c="dimmed">
        An idle cluster is stopped (data kept, storage still charged) after this many minutes without a query.
      </Text>
      <IdleMinutesField {...props} />
    </Stack>
  );
}
