import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { NETWORK_ACCESS_LIMITS, normalizeIpRange, type NetworkAccessEntryInput } from '@kumo/contract';
import { IconTrash } from '../../components/icons';

export interface EntryErrors {
  cidr?: string;
  description?: string;
}

interface NetworkAccessEditorProps {
  entries: NetworkAccessEntryInput[];
  onChange: (entries: NetworkAccessEntryInput[]) => void;
  /** Each row's errors, by position (the contract's messages, from the form's check or the server). */
  errors?: (EntryErrors | undefined)[];
  /** An error about the list as a whole (empty, too long). */
  listError?: string;
  /** The signed-in person's address, offered as a row of its own. */
  clientAddress?: string;
  disabled?: boolean;
}

/** The addresses and ranges a cluster answers, one row each, with a description; the create form and the cluster page share it. */
export function NetworkAccessEditor({ entries, onChange, errors = [], listError, clientAddress, disabled }: NetworkAccessEditorProps) {
  const full = entries.length >= NETWORK_ACCESS_LIMITS.maxEntries;
  const mine = clientAddress ? normalizeIpRange(clientAddress) : null;
  const listed = entries.some((entry) => mine !== null && normalizeIpRange(entry.cidr) === mine);
  const update = (index: number, patch: Partial<NetworkAccessEntryInput>) =>
    onChange(entries.map((entry, at) => (at === index ? { ...entry, ...patch } : entry)));

  return (
    <Stack gap="xs">
      {entries.map((entry, index) => (
        // Rows have no id of their own: a row is its position, as the server's field errors name it.
        <Group key={index} align="flex-start" gap="xs" wrap="wrap">
          <TextInput
            aria-label={`Address or range ${index + 1}`}
            placeholder="203.0.113.7 or 2001:db8::/48"
            value={entry.cidr}
            onChange={(event) => update(index, { cidr: event.currentTarget.value })}
            error={errors[index]?.cidr}
            disabled={disabled}
            autoComplete="off"
            spellCheck={false}
            ff="monospace"
            style={{ flex: '1 1 12rem', minWidth: 0 }}
          />
          <TextInput
            aria-label={`Description ${index + 1}`}
            placeholder="Description (optional)"
            value={entry.description ?? ''}
            onChange={(event) => update(index, { description: event.currentTarget.value })}
            error={errors[index]?.description}
            maxLength={NETWORK_ACCESS_LIMITS.descriptionMaxLength}
            disabled={disabled}
            style={{ flex: '2 1 12rem', minWidth: 0 }}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            mt={2}
            aria-label={`Remove ${entry.cidr.trim() || `row ${index + 1}`}`}
            onClick={() => onChange(entries.filter((_, at) => at !== index))}
            disabled={disabled}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {listError && (
        <Text fz="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          disabled={disabled || full}
          onClick={() => onChange([...entries, { cidr: '', description: '' }])}
        >
          Add address
        </Button>
        {clientAddress && !listed && (
          <Button
            variant="default"
            size="xs"
            disabled={disabled || full}
            onClick={() => onChange([...entries, { cidr: clientAddress, description: 'My address' }])}
          >
            Add my address ({clientAddress})
          </Button>
        )}
      </Group>
      <Text fz="xs" c="dimmed">
        IPv4 or IPv6 addresses or CIDR ranges, at most {NETWORK_ACCESS_LIMITS.maxEntries}.
      </Text>
    </Stack>
  );
}
