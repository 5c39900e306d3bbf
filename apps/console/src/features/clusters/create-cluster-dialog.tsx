import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import {
  CLUSTER_LIMITS,
  CLUSTER_MESSAGES,
  DEFAULT_CLUSTER_SIZE,
  MESSAGES,
  QUERY_ENGINE_LIMITS,
  createClusterFormSchema,
  createClusterRequestFromForm,
  normalizeClusterNameInput,
  type CreateClusterForm,
} from '@kumo/contract';
import { ApiError, errorMessage } from '../../lib/api-error';
import { useCidrSuggestion } from './api/cidr';
import { useCreateCluster } from './api/create-cluster';
import { useKumoVersions } from './api/kumo-versions';
import { useRegionMapping } from './api/region-mapping';
import { useSubscriptionsForClusters } from './api/subscriptions';
import { useCreateClusterAutoStop } from './create-cluster-auto-stop';
import { bound, boundSelect, type FormField } from './create-cluster-bindings';
import { NetworkAccessSection } from './create-cluster-network';
import { PasswordSection } from './create-cluster-password';
import { PlacementSection } from './create-cluster-placement';
import { SubscriptionSection, belowMinimumBalance } from './create-cluster-subscription';
import { ReviewCluster } from './review-cluster';
import { SizeSection } from './create-cluster-size';
import { notifyError, notifySuccess } from '../../components/notify';

export { belowMinimumBalance } from './create-cluster-subscription';

/** The request's field names as the server reports them, mapped onto the form's (spec section 3 names both). */
const SERVER_FIELDS: Record<string, FormField> = {
  subscription_id: 'selectedSubscription',
  cluster_name: 'cluster_name',
  description: 'description',
  cloud_provider: 'cloud_provider',
  enable_dr_flag: 'enableDrFlag',
  cidr: 'cidr',
  region: 'region',
  backup_region: 'backupRegion',
  password: 'password',
  kumo_version: 'kumo_version',
};
/** Top to bottom, so the first field in error is the one scrolled to. */
const FIELD_ORDER: FormField[] = [
  'selectedSubscription',
  'cluster_name',
  'description',
  'cloud_provider',
  'region',
  'enableDrFlag',
  'backupRegion',
  'cidr',
  'password',
  'confirm_password',
  'kumo_version',
];

interface CreateClusterDialogProps {
  opened: boolean;
  /** The subscription to preselect, e.g. the one whose cluster is on screen. */
  subscriptionId: string | undefined;
  onClose: () => void;
  onCreated: (created: { subscription_id: string; deployment_id: string }) => void;
}

export function CreateClusterDialog({ opened, subscriptionId, onClose, onCreated }: CreateClusterDialogProps) {
  const [reviewing, setReviewing] = useState(false);
  const close = () => {
    setReviewing(false);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={reviewing ? 'Review Cluster' : 'New Cluster'} centered size="lg">
      {/* Mounted only while open, so every opening starts with an empty form. */}
      {opened && (
        <CreateClusterForm
          subscriptionId={subscriptionId}
          reviewing={reviewing}
          setReviewing={setReviewing}
          onClose={close}
          onCreated={onCreated}
        />
      )}
    </Modal>
  );
}

interface CreateClusterFormProps {
  subscriptionId: string | undefined;
  reviewing: boolean;
  setReviewing: (reviewing: boolean) => void;
  onClose: () => void;
  onCreated: CreateClusterDialogProps['onCreated'];
}

/**
 * The create form of spec section 5 over the contract's schema; Review and Deploy validates it and shows the
 * summary, Confirm deploys. Server field errors come back inline, the first scrolled to and focused.
 */
function CreateClusterForm({ subscriptionId, reviewing, setReviewing, onClose, onCreated }: CreateClusterFormProps) {
  const subscriptions = useSubscriptionsForClusters();
  const regions = useRegionMapping('AWS');
  const versions = useKumoVersions();
  const create = useCreateCluster();
  const autoStop = useCreateClusterAutoStop();

  const { register, control, handleSubmit, formState, getValues, setValue, setError, trigger, setFocus } = useForm<CreateClusterForm>({
    resolver: zodResolver(createClusterFormSchema),
    mode: 'onTouched',
    defaultValues: {
      selectedSubscription: subscriptionId ?? '',
      cluster_name: '',
      description: '',
      cloud_provider: 'AWS',
      enableDrFlag: false,
      cidr: '',
      region: '',
      backupRegion: null,
      password: '',
      confirm_password: '',
      kumo_version: '',
      network_access: { allow_anywhere: true, allowed: [] },
      size: DEFAULT_CLUSTER_SIZE,
      query_engines: QUERY_ENGINE_LIMITS.default,
    },
  });
  const [selectedId, region, enableDrFlag, backupRegion, password, description] = useWatch({
    control,
    name: ['selectedSubscription', 'region', 'enableDrFlag', 'backupRegion', 'password', 'description'],
  });

  // Defaults arrive with the lists: the first subscription, the default version.
  const subscriptionList = subscriptions.data;
  useEffect(() => {
    const first = subscriptionList?.[0];
    if (first && !getValues('selectedSubscription')) setValue('selectedSubscription', first.subscription_id);
  }, [subscriptionList, getValues, setValue]);
  const versionList = versions.data?.versions;
  useEffect(() => {
    const preferred = versionList?.find((version) => version.default) ?? versionList?.[0];
    if (preferred && !getValues('kumo_version')) setValue('kumo_version', preferred.version);
  }, [versionList, getValues, setValue]);

  // The CIDR is prefilled with a block free in the chosen regions, again whenever they change.
  const cidr = useCidrSuggestion({ deploymentRegion: region, backupRegion: backupRegion ?? '', enableDrFlag, cloudProvider: 'AWS' });
  const suggested = cidr.data?.cidr;
  useEffect(() => {
    if (suggested) setValue('cidr', suggested, { shouldValidate: true });
  }, [suggested, setValue]);

  // The region and CIDR lookups are needed to fill the form: when they fail there is nothing to deploy.
  const lookupError = regions.error ?? cidr.error;
  useEffect(() => {
    if (!lookupError) return;
    notifyError(lookupError instanceof ApiError && lookupError.status ? errorMessage(lookupError) : MESSAGES.internal);
    onClose();
  }, [lookupError, onClose]);

  const selected = subscriptionList?.find((subscription) => subscription.subscription_id === selectedId);
  const insufficient = belowMinimumBalance(selected);
  const backupOptions = regions.data?.region_mapping.find((entry) => entry.region === region)?.backup_regions ?? [];

  /** Server answers about fields appear under them, the first scrolled to; a cluster_error is a toast. */
  const showServerErrors = (error: unknown) => {
    const fieldErrors = error instanceof ApiError ? error.fieldErrors : {};
    const onFields = Object.entries(fieldErrors)
      // The access list's rows keep the server's names (network_access.allowed.0.cidr), as the form's own are.
      .map(
        ([name, message]) =>
          [SERVER_FIELDS[name] ?? (name.startsWith('network_access') ? (name as FormField) : undefined), message] as const,
      )
      .filter((entry): entry is readonly [FormField, string] => !!entry[0]);
    const clusterError = fieldErrors.cluster_error;
    if (onFields.length === 0) {
      notifyError(clusterError ?? errorMessage(error));
      return;
    }
    if (clusterError) notifyError(clusterError);
    onFields.forEach(([field, message]) => setError(field, { message }));
    setReviewing(false);
    const first = FIELD_ORDER.find((field) => onFields.some(([name]) => name === field));
    if (first) {
      // After the form is shown again: scroll the field into view, then focus it.
      requestAnimationFrame(() => {
        document.querySelector(`[name="${first}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
        setFocus(first);
      });
    }
  };

  const review = handleSubmit(() => {
    if (autoStop.check()) setReviewing(true);
  });
  const confirm = () =>
    create.mutate(createClusterRequestFromForm(getValues()), {
      onSuccess: (created) => {
        notifySuccess(created.message || CLUSTER_MESSAGES.deploymentStarted);
        autoStop.applyTo(created.deployment_id);
        onClose();
        onCreated(created);
      },
      onError: showServerErrors,
    });

  const loading = subscriptions.isPending || regions.isPending || versions.isPending;

  return (
    <>
      {reviewing && (
        <ReviewCluster
          form={getValues()}
          subscriptionName={selected?.subscription_name ?? ''}
          versionLabel={versionList?.find((version) => version.version === getValues('kumo_version'))?.description}
          deploying={create.isPending}
          onBack={() => setReviewing(false)}
          onConfirm={confirm}
        />
      )}
      <form onSubmit={(event) => void review(event)} noValidate style={reviewing ? { display: 'none' } : undefined}>
        <Stack gap="md">
          <SubscriptionSection
            control={control}
            loading={loading}
            subscriptionList={subscriptionList}
            subscriptionsError={subscriptions.isError ? subscriptions.error : null}
            selected={selected}
            insufficient={insufficient}
          />
          <Controller
            control={control}
            name="cluster_name"
            render={(rendered) => (
              <TextInput
                label="Cluster Name"
                required
                data-autofocus
                autoComplete="off"
                placeholder="e.g. analytics-prod"
                maxLength={CLUSTER_LIMITS.nameMaxLength}
                {...bound(rendered)}
                onChange={(event) => rendered.field.onChange(normalizeClusterNameInput(event.currentTarget.value))}
              />
            )}
          />
          <Textarea
            label="Description"
            placeholder="Optional: what this cluster is for"
            rows={2}
            maxLength={CLUSTER_LIMITS.descriptionMaxLength}
            description={`${description.length}/${CLUSTER_LIMITS.descriptionMaxLength}`}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            error={formState.errors.description?.message}
            {...register('description')}
          />
          <PlacementSection
            control={control}
            setValue={setValue}
            regionOptions={(regions.data?.region_mapping ?? []).map((entry) => entry.region)}
            backupOptions={backupOptions}
            region={region}
            enableDrFlag={enableDrFlag}
            findingCidr={cidr.isFetching}
          />
          <SizeSection control={control} subscriptionId={selectedId || undefined} />
          <PasswordSection control={control} getValues={getValues} trigger={trigger} password={password} />
          <Controller
            control={control}
            name="kumo_version"
            render={(rendered) => (
              <Select
                label="Kumo Version"
                required
                placeholder="Select a version"
                data={(versionList ?? []).map((version) => ({
                  value: version.version,
                  label: `${version.version} — ${version.description}`,
                }))}
                {...boundSelect(rendered)}
              />
            )}
          />
          <NetworkAccessSection control={control} />
          {autoStop.field}
          <Group justify="flex-end" gap="sm" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={insufficient || !selected}
              // The press keeps the focus where it is: a field losing it shows its error at once, which pushed
              // this button down under the pointer before the press ended, so the form was never submitted and
              // only that one error showed. Submitting validates every field, shows each error and focuses the first.
              onMouseDown={(event) => event.preventDefault()}
            >
              Review and Deploy
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
