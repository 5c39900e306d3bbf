import { Card, SimpleGrid, Switch, Text } from '@mantine/core';
import { ADMIN_MESSAGES, KM_USER_ROLE_LABELS, METERING_DIMENSION_LABELS, FREE_UNIT_DIMENSIONS, type CustomerDetail } from '@kumo/contract';
import { DetailField } from '../../../components/detail-field';
import { usePreviewToggle } from '../api/customer-tabs';
import { Permission } from '../permission';
import { notifyError } from '../../../components/notify';

/** Free units, the provider's access to the manager and the preview release (Overview tab). */
export function OverviewTab({ customer }: { customer: CustomerDetail }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Permission name="customer_free_build_up_detail">
        <Card withBorder>
          <DetailField label="Free units a month">
            {FREE_UNIT_DIMENSIONS.map((dimension) => (
              <Text fz="sm" key={dimension}>
                {METERING_DIMENSION_LABELS[dimension]}: up to {customer.overview.free_units?.[dimension] ?? '--'}
              </Text>
            ))}
          </DetailField>
        </Card>
      </Permission>
      <Permission name="customer_km_access">
        <Card withBorder>
          <DetailField label="Manager access">
            <Text fz="sm">Provider access: {customer.admin_access ? 'Allowed' : 'Not allowed'}</Text>
            <Text fz="sm">Customer role: {KM_USER_ROLE_LABELS[customer.km_user_role]}</Text>
          </DetailField>
        </Card>
      </Permission>
      <Permission name="customer_preview_release">
        {({ disabled }) => (
          <Card withBorder>
            <DetailField label="Preview release">
              <PreviewToggle customer={customer} disabled={disabled} />
            </DetailField>
          </Card>
        )}
      </Permission>
    </SimpleGrid>
  );
}

function PreviewToggle({ customer, disabled }: { customer: CustomerDetail; disabled: boolean }) {
  const toggle = usePreviewToggle(customer.user_id);
  const checked = toggle.isPending ? !!toggle.variables : customer.overview.kumo_ea_version_enabled;
  return (
    <Switch
      label={checked ? 'Enabled: preview versions offered at deployment' : 'Disabled'}
      checked={checked}
      disabled={disabled || toggle.isPending}
      onChange={(event) =>
        toggle.mutate(event.currentTarget.checked, {
          onError: () => notifyError(ADMIN_MESSAGES.previewFailed),
        })
      }
    />
  );
}
