/** The consumption export as a response body that starts at once and grows a period at a time. */
import { Readable } from 'node:stream';
import type { ConsumptionExportRow } from '@kumo/contract';
import type { UsageExportRow } from './consumption-export.js';
import { consumptionExportCsv, consumptionExportHeader } from './csv.js';
import { toConsumptionExportRowWire } from './presentation.js';

type Periods = AsyncIterable<UsageExportRow[]>;

const wire = (rows: UsageExportRow[]): ConsumptionExportRow[] => rows.map(toConsumptionExportRowWire);

/** CSV: the header first, then each period's rows as they are read. */
export function csvExportStream(periods: Periods): Readable {
  return Readable.from(
    (async function* () {
      yield consumptionExportHeader;
      for await (const rows of periods) {
        const text = consumptionExportCsv(wire(rows));
        if (text) yield text;
      }
    })(),
  );
}

/** JSON: the range first, then `rows` written element by element, closed once the last period is read. */
export function jsonExportStream(periods: Periods, head: Record<string, string>): Readable {
  return Readable.from(
    (async function* () {
      yield `${JSON.stringify(head).slice(0, -1)},"rows":[`;
      let first = true;
      for await (const rows of periods) {
        for (const row of wire(rows)) {
          yield `${first ? '' : ','}${JSON.stringify(row)}`;
          first = false;
        }
      }
      yield ']}';
    })(),
  );
}
