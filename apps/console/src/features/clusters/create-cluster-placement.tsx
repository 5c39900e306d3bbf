import { Controller, type Control, type UseFormSetValue } from 'react-hook-form';
import { Checkbox, Select, SimpleGrid, TextInput } from '@mantine/core';
import { CLOUD_PROVIDER_LABELS, CREATABLE_CLOUD_PROVIDERS, normalizeCidrInput, type CreateClusterForm } from '@kumo/contract';
import { bound, boundSelect } from './create-cluster-bindings';

interface PlacementSectionProps {
  control: Control<CreateClusterForm>;
  setValue: UseFormSetValue<CreateClusterForm>;
  /** The regions a cluster can be deployed to. */
  regionOptions: string[];
  /** The backup regions the chosen region pairs with. */
  backupOptions: string[];
  region: string;
  enableDrFlag: boolean;
  /** Whether a free CIDR block is being looked up for the chosen regions. */
  findingCidr: boolean;
}

/** Where the cluster runs: the provider, the region, disaster recovery with its backup region, and the VPC block. */
export function PlacementSection({
  control,
  setValue,
  regionOptions,
  backupOptions,
  region,
  enableDrFlag,
  findingCidr,
}: PlacementSectionProps) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Select
          label="Cloud Provider"
          required
          data={CREATABLE_CLOUD_PROVIDERS.map((provider) => ({ value: provider, label: CLOUD_PROVIDER_LABELS[provider] }))}
          value="AWS"
          readOnly
          allowDeselect={false}
        />
        <Controller
          control={control}
          name="region"
          render={(rendered) => (
            <Select
              label="Region"
              required
              placeholder="Select a region"
              data={regionOptions}
              searchable
              {...boundSelect(rendered)}
              onChange={(value) => {
                rendered.field.onChange(value ?? '');
                // The backup region pairs with the region: a new region asks again.
                setValue('backupRegion', null);
              }}
            />
          )}
        />
      </SimpleGrid>
      <Controller
        control={control}
        name="enableDrFlag"
        render={({ field }) => (
          <Checkbox
            label="Enable Disaster Recovery"
            description="Backups are replicated to a second region."
            name={field.name}
            ref={field.ref}
            checked={field.value}
            onChange={(event) => {
              field.onChange(event.currentTarget.checked);
              if (!event.currentTarget.checked) setValue('backupRegion', null, { shouldValidate: true });
            }}
          />
        )}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Controller
          control={control}
          name="backupRegion"
          render={(rendered) => (
            <Select
              label="Backup Region"
              required={enableDrFlag}
              disabled={!enableDrFlag || !region}
              placeholder={enableDrFlag ? 'Select a backup region' : 'Disaster recovery off'}
              data={backupOptions}
              allowDeselect={false}
              {...bound(rendered)}
              onChange={(value) => rendered.field.onChange(value)}
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
        <Controller
          control={control}
          name="cidr"
          render={(rendered) => (
            <TextInput
              label="CIDR"
              required
              inputMode="decimal"
              autoComplete="off"
              placeholder="10.0.0.0/16"
              description={findingCidr ? 'Finding a free block…' : 'A block free in the chosen regions is filled in.'}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...bound(rendered)}
              onChange={(event) => rendered.field.onChange(normalizeCidrInput(event.currentTarget.value))}
            />
          )}
        />
      </SimpleGrid>
    </>
  );
}
