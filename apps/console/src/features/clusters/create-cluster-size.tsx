import { Controller, useWatch, type Control } from 'react-hook-form';
import { SegmentedControl, Slider, Stack, Text } from '@mantine/core';
import {
  CLUSTER_SIZE_NAMES,
  QUERY_ENGINE_LIMITS,
  shapeLabel,
  type ClusterSize,
  type CreateClusterForm,
  type PricePreview,
} from '@kumo/contract';
import { formatUsd } from '../../lib/format-usd';
import { CapacityBars } from './capacity-bars';
import { useClusterSizes, usePricePreview } from './api/resize';

/** "S × 2: $4.21 per hour (about $3,073.30 a month); the balance lasts about 4.9 days with it". */
export function shapePriceText(shape: string, price: PricePreview): string {
  const lasts = price.runway_days === null ? '' : `; the balance lasts about ${price.runway_days} days with it`;
  return `${shape}: ${formatUsd(price.hourly_cost)} per hour (about ${formatUsd(price.monthly_cost_estimate)} a month)${lasts}`;
}

/** The price of a shape at the customer's rates, and the runway after, for the form and its review. */
export function ShapePrice({
  subscriptionId,
  size,
  queryEngines,
}: {
  subscriptionId: string | undefined;
  size: ClusterSize;
  queryEngines: number;
}) {
  const price = usePricePreview(subscriptionId, size, queryEngines);
  if (!price.data) return null;
  return (
    <Text fz="sm" fw={500} data-testid="shape-price">
      {shapePriceText(shapeLabel(size, queryEngines), price.data)}.
    </Text>
  );
}

/** How many query engines run, 1 to 5, for the create form and the Resize dialog. */
export function EnginesSlider({ labelId, value, onChange }: { labelId: string; value: number; onChange: (engines: number) => void }) {
  return (
    <Slider
      aria-labelledby={labelId}
      // The thumb is what takes the focus: it needs the name too.
      thumbLabel="Query engines"
      min={QUERY_ENGINE_LIMITS.min}
      max={QUERY_ENGINE_LIMITS.max}
      step={1}
      value={value}
      onChange={onChange}
      marks={[1, 2, 3, 4, 5].map((engines) => ({ value: engines, label: String(engines) }))}
      mb="md"
    />
  );
}

/** The size of the query engines (each with its cores and memory) and how many run, with the price before creating. */
export function SizeSection({ control, subscriptionId }: { control: Control<CreateClusterForm>; subscriptionId: string | undefined }) {
  const sizes = useClusterSizes();
  const [size, engines] = useWatch({ control, name: ['size', 'query_engines'] });
  const spec = sizes.data?.find((s) => s.size === size);
  return (
    <Stack gap="xs">
      <Text fw={500} fz="sm" id="create-size-label">
        Size of the query engines
      </Text>
      <Controller
        control={control}
        name="size"
        render={({ field }) => (
          <SegmentedControl
            aria-labelledby="create-size-label"
            data={CLUSTER_SIZE_NAMES.map((name) => ({ value: name, label: name }))}
            value={field.value}
            onChange={(value) => field.onChange(value)}
          />
        )}
      />
      {spec && (
        <Text fz="xs" c="dimmed">
          {spec.instance_type}: {spec.cores} cores, {spec.memory_gib} GiB each
        </Text>
      )}
      <Text fw={500} fz="sm" id="create-engines-label">
        Query engines: {engines}
      </Text>
      <Controller
        control={control}
        name="query_engines"
        render={({ field }) => <EnginesSlider labelId="create-engines-label" value={field.value} onChange={field.onChange} />}
      />
      <CapacityBars capacity={engines} />
      <ShapePrice subscriptionId={subscriptionId} size={size} queryEngines={engines} />
    </Stack>
  );
}
