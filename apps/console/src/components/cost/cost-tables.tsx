import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Table, Text } from '@mantine/core';
import {
  METERING_DIMENSIONS,
  METERING_DIMENSION_LABELS,
  METERING_UNITS,
  FREE_UNIT_UNITS,
  type CreditAnalysis,
  type MeteringDimension,
} from '@kumo/contract';
import { formatUsd } from '../../lib/format';
import { IconMaximize } from '../icons';
import { costCell, usageCell } from './cost-format';
import { dayLabel } from './months';

/** Units as column captions: the consumption table holds quantities, not money. */
const UNIT_CAPTIONS: Record<string, string> = {
  'core-hour': 'core-hours',
  hour: 'hours',
  'GB-month': 'GB-month',
  GB: 'GB',
};

/** A right-aligned column header with its unit in small print after it. */
function UnitHeader({ children, unit }: { children: ReactNode; unit: string }) {
  return (
    <Table.Th scope="col" ta="right">
      {children}{' '}
      <Text span fz="xs" c="dimmed" fw={400}>
        ({unit})
      </Text>
    </Table.Th>
  );
}

/** A row's cells for the given services, in their order, right-aligned. */
export function DimensionCells({
  dimensions,
  value,
}: {
  dimensions: readonly MeteringDimension[];
  value: (dimension: MeteringDimension) => string;
}) {
  return dimensions.map((dimension) => (
    <Table.Td key={dimension} ta="right">
      {value(dimension)}
    </Table.Td>
  ));
}

/** The cost table of spec section 2: date, compute services, storage services, total cost; the month's total last. */
export function CostTable({ analysis, caption }: { analysis: CreditAnalysis; caption: string }) {
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped highlightOnHover>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col" ta="right">
              Compute Services
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Storage Services
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Total Cost
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {analysis.daily.map((day) => (
            <Table.Tr key={day.date}>
              <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
                {dayLabel(day.date)}
              </Table.Th>
              <Table.Td ta="right">{costCell(day.compute_total)}</Table.Td>
              <Table.Td ta="right">{costCell(day.storage_total)}</Table.Td>
              <Table.Td ta="right">{costCell(day.daily_total)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th scope="row">Total</Table.Th>
            <Table.Th ta="right">{formatUsd(analysis.compute_total)}</Table.Th>
            <Table.Th ta="right">{formatUsd(analysis.storage_total)}</Table.Th>
            <Table.Th ta="right">{formatUsd(analysis.total)}</Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The cost table in a card-sized box, with a button that shows it full screen (spec section 2). */
export function CostTableWithFullScreen({ analysis, caption }: { analysis: CreditAnalysis; caption: string }) {
  const [fullScreen, setFullScreen] = useState(false);
  return (
    <>
      <Group justify="space-between" align="center">
        <Text fw={600}>Cost</Text>
        <Button variant="subtle" size="compact-sm" leftSection={<IconMaximize size={16} />} onClick={() => setFullScreen(true)}>
          Full screen
        </Button>
      </Group>
      <CostTable analysis={analysis} caption={caption} />
      <Modal opened={fullScreen} onClose={() => setFullScreen(false)} fullScreen title={caption}>
        <CostTable analysis={analysis} caption={caption} />
      </Modal>
    </>
  );
}

/**
 * The consumption table of spec section 2: per day the quantity of each dimension in its unit, and the free
 * build hours and free cache storage the account used of its monthly allowance up to that day.
 */
export function ConsumptionTable({ analysis, caption }: { analysis: CreditAnalysis; caption: string }) {
  return (
    <Table.ScrollContainer minWidth={1100}>
      <Table striped highlightOnHover>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            {METERING_DIMENSIONS.map((dimension) => (
              <UnitHeader key={dimension} unit={UNIT_CAPTIONS[METERING_UNITS[dimension]] ?? METERING_UNITS[dimension]}>
                {METERING_DIMENSION_LABELS[dimension]}
              </UnitHeader>
            ))}
            {/* The allowance is the account's and given in build hours: the figures are the account's, in its unit. */}
            <UnitHeader unit={`${FREE_UNIT_UNITS.DATA_PROCESS}, account`}>Free Build Up To</UnitHeader>
            <UnitHeader unit={`${FREE_UNIT_UNITS.LOCAL_STORAGE}, account`}>Free Cache Storage Up To</UnitHeader>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {analysis.consumption.map((day) => (
            <Table.Tr key={day.date}>
              <Table.Th scope="row" fw={400} style={{ whiteSpace: 'nowrap' }}>
                {dayLabel(day.date)}
              </Table.Th>
              <DimensionCells dimensions={METERING_DIMENSIONS} value={(dimension) => usageCell(day.usage[dimension] ?? 0)} />
              <Table.Td ta="right">{usageCell(day.free_build_up_to)}</Table.Td>
              <Table.Td ta="right">{usageCell(day.free_cache_storage_up_to)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
