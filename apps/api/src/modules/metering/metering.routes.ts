import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEFAULT_CLUSTER_SIZE,
  MESSAGES,
  QUERY_ENGINE_LIMITS,
  balanceOutlookSchema,
  clusterConsumptionOverviewSchema,
  consumptionQuerySchema as monthQuerySchema,
  consumptionQuerySchema,
  creditAnalysisSchema,
  consumptionExportQuerySchema,
  consumptionExportSchema,
  csvExportQuerySchema,
  exportRangeEnd,
  deploymentIdParamsSchema,
  hourlyRatePreviewSchema,
  pricePreviewQuerySchema,
  pricePreviewSchema,
  resizePreviewSchema,
  resizeQuerySchema,
  hourlyRateQuerySchema,
  rateCardSchema,
  reportUrlResponseSchema,
  subscriptionConsumptionOverviewListSchema,
  queryEngineCores,
} from '@kumo/contract';
import { changesState, personOnly, requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { routeDeclarations } from '../../http/route.js';
import { FRAMED_BY_PORTAL } from '../../http/security-headers.js';
import { csvExportStream, jsonExportStream } from './consumption-export-stream.js';
import { auditLogsCsv, consumptionTableCsv, costTableCsv, transactionsCsv } from './csv.js';
import type { MeteringService } from './index.js';
import {
  toClusterCostWire,
  toCreditAnalysisWire,
  toHourlyRatePreviewWire,
  toPricePreviewWire,
  toResizePreviewWire,
  toSubscriptionCostWire,
} from './presentation.js';

const routes = routeDeclarations('Cost analysis');
const reads = errorResponses(400, 401, 403, 404);
const subscriptionParams = z.object({ subscriptionId: z.uuid({ error: MESSAGES.subscriptionNotFound }) });
const csvResponse = z.string().describe('text/csv');

function sendAttachment(reply: FastifyReply, name: string, contentType: string, body: string | Readable) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
    .send(body);
}

function sendCsv(reply: FastifyReply, name: string, body: string) {
  return sendAttachment(reply, name, 'text/csv; charset=utf-8', body);
}

export function meteringRoutes(metering: MeteringService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = routes.behind(requireAccountAdmin(verify));

    app.get('/api/subscription/consumption/overview', {
      ...customer({
        summary: "Each subscription's cost this month (or the startDate's month), forecast and balance",
        querystring: consumptionQuerySchema,
        response: { 200: subscriptionConsumptionOverviewListSchema, ...reads },
      }),
      handler: async (request) =>
        (await metering.subscriptionOverview(accountCallerOf(request).accountId, request.query.startDate)).map(toSubscriptionCostWire),
    });

    app.get('/api/subscription/consumption/credit-analysis/:subscriptionId', {
      ...customer({
        summary: 'Daily costs by service, costs by cluster, usage and the last 12 months of one subscription',
        params: subscriptionParams,
        querystring: consumptionQuerySchema,
        response: { 200: creditAnalysisSchema, ...reads },
      }),
      handler: async (request) =>
        toCreditAnalysisWire(
          await metering.subscriptionAnalysis(accountCallerOf(request).accountId, request.params.subscriptionId, request.query.startDate),
        ),
    });

    app.get('/api/subscription/consumption/rates/:subscriptionId', {
      ...customer({
        summary: "The account's service rates in effect now",
        params: subscriptionParams,
        response: { 200: rateCardSchema, ...reads },
      }),
      handler: async (request) => metering.rateCard(accountCallerOf(request).accountId),
    });

    app.get('/api/subscription/consumption/outlook/:subscriptionId', {
      ...customer({
        summary: 'How long the balance lasts at the current rate, paid funds and free credits by grant, and rate changes to come',
        params: subscriptionParams,
        response: { 200: balanceOutlookSchema, ...reads },
      }),
      handler: async (request) => metering.outlook.ofSubscription(accountCallerOf(request).accountId, request.params.subscriptionId),
    });

    app.get('/api/cluster/consumption/credit-analysis/:deploymentId', {
      ...customer({
        summary: 'Daily costs by service and usage of one cluster',
        params: deploymentIdParamsSchema,
        querystring: consumptionQuerySchema,
        response: { 200: creditAnalysisSchema, ...reads },
      }),
      handler: async (request) =>
        toCreditAnalysisWire(
          await metering.clusterAnalysis(accountCallerOf(request).accountId, request.params.deploymentId, request.query.startDate),
        ),
    });

    app.get('/api/cluster/consumption/overview/:deploymentId', {
      ...customer({
        summary: "One cluster's cost this month and its forecast",
        params: deploymentIdParamsSchema,
        querystring: consumptionQuerySchema,
        response: { 200: clusterConsumptionOverviewSchema, ...reads },
      }),
      handler: async (request) =>
        toClusterCostWire(
          await metering.clusterOverview(accountCallerOf(request).accountId, request.params.deploymentId, request.query.startDate),
        ),
    });

    app.get('/api/cluster/consumption/hourly-rate', {
      ...customer({
        summary: 'What a running cluster costs per hour at your rates, and how many hours the balance covers',
        querystring: hourlyRateQuerySchema,
        response: { 200: hourlyRatePreviewSchema, ...reads },
      }),
      handler: async (request) => {
        const { subscriptionId, dr, size, query_engines } = request.query;
        // A shape given in part is completed from today's M × 5.
        const cores =
          size || query_engines ? queryEngineCores(size ?? DEFAULT_CLUSTER_SIZE, query_engines ?? QUERY_ENGINE_LIMITS.default) : undefined;
        return toHourlyRatePreviewWire(
          await metering.hourlyRatePreview(accountCallerOf(request).accountId, subscriptionId, dr === 'true', cores),
        );
      },
    });

    app.get('/api/cluster/price-preview', {
      ...customer({
        summary: "A new cluster's hourly and monthly cost at your rates for a size and number of query engines, and the runway after",
        querystring: pricePreviewQuerySchema,
        response: { 200: pricePreviewSchema, ...reads },
      }),
      handler: async (request) => {
        const { subscription_id, size, query_engines } = request.query;
        return toPricePreviewWire(
          await metering.pricePreview(accountCallerOf(request).accountId, subscription_id, { size, queryEngines: query_engines }),
        );
      },
    });

    app.get('/api/cluster/resize-preview/:deploymentId', {
      ...customer({
        summary: "A cluster's hourly cost and the runway at its shape and at a proposed one",
        params: deploymentIdParamsSchema,
        querystring: resizeQuerySchema,
        response: { 200: resizePreviewSchema, ...reads },
      }),
      handler: async (request) => {
        const { size, query_engines } = request.query;
        return toResizePreviewWire(
          await metering.resizePreview(accountCallerOf(request).accountId, request.params.deploymentId, {
            size,
            queryEngines: query_engines,
          }),
        );
      },
    });

    app.get('/api/subscription/consumption/export/:subscriptionId', {
      ...customer({
        summary:
          'Usage rows of a range (from, to, granularity, format) that add up to the ledger, or the cost or consumption table of a month as CSV (startDate, table)',
        params: subscriptionParams,
        querystring: consumptionExportQuerySchema,
        response: { 200: z.union([csvResponse, consumptionExportSchema]), ...reads },
      }),
      handler: async (request, reply) => {
        const accountId = accountCallerOf(request).accountId;
        const { subscriptionId } = request.params;
        const { from, to, granularity, format, table } = request.query;
        if (from !== undefined && to !== undefined) {
          const rows = await metering.consumptionExport(
            accountId,
            subscriptionId,
            { from: new Date(`${from}T00:00:00Z`), to: exportRangeEnd(to) },
            granularity,
          );
          const name = `consumption-${from}-${to}-${granularity.toLowerCase()}.${format}`;
          const body =
            format === 'csv' ? csvExportStream(rows) : jsonExportStream(rows, { subscription_id: subscriptionId, from, to, granularity });
          return sendAttachment(reply, name, format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8', body);
        }
        const analysis = await metering.subscriptionAnalysis(accountId, subscriptionId, request.query.startDate);
        const body = table === 'cost' ? costTableCsv(analysis) : consumptionTableCsv(analysis);
        return sendCsv(reply, `${table}-${analysis.month.from.toISOString().slice(0, 7)}.csv`, body);
      },
    });

    app.get('/api/cluster/consumption/export/:deploymentId', {
      ...customer({
        summary: "The cluster's cost or consumption table of a month as CSV",
        params: deploymentIdParamsSchema,
        querystring: csvExportQuerySchema,
        response: { 200: csvResponse, ...reads },
      }),
      handler: async (request, reply) => {
        const analysis = await metering.clusterAnalysis(
          accountCallerOf(request).accountId,
          request.params.deploymentId,
          request.query.startDate,
        );
        const { table } = request.query;
        const body = table === 'cost' ? costTableCsv(analysis) : consumptionTableCsv(analysis);
        return sendCsv(reply, `cluster-${table}-${analysis.month.from.toISOString().slice(0, 7)}.csv`, body);
      },
    });

    app.get('/api/user/report-url', {
      // A report session hangs on a sign-in session, which a personal API token has not.
      config: personOnly,
      ...customer({
        summary: 'The address of the printable subscription report (a short-lived report session)',
        response: { 200: reportUrlResponseSchema, ...reads },
      }),
      handler: async (request) => {
        return metering.reportUrl(accountCallerOf(request));
      },
    });

    app.get('/api/user/report-logout', {
      // It ends the caller's report sessions: a write, refused to a customer view.
      config: { ...changesState, ...personOnly },
      ...customer({
        summary: 'Ends the report sessions of the caller',
        response: { 200: z.object({ message: z.string() }), ...reads },
      }),
      handler: async (request) => {
        const caller = accountCallerOf(request);
        await metering.reportLogout(caller.accountId, caller.userId);
        return { message: 'Report session ended.' };
      },
    });

    // The report itself: its session is the signed token in the address (a frame sends no bearer token).
    app.get('/reports/subscription', {
      // The console's Reports page shows the report in a frame: only the portal's own pages may frame it.
      helmet: FRAMED_BY_PORTAL,
      ...routes.open({
        summary: 'The printable subscription report (HTML)',
        querystring: z.object({ token: z.string().max(2000), startDate: consumptionQuerySchema.shape.startDate }),
        response: { 200: z.string().describe('text/html'), ...errorResponses(400, 401) },
      }),
      handler: async (request, reply) => {
        const html = await metering.reportPage(request.query.token, request.query.startDate);
        if (html === null) {
          return reply.code(401).send({
            errorDetails: {
              error_code: 'TOKEN_EXPIRED',
              error_message: 'The report session has ended. Open the Reports page again.',
            },
          });
        }
        return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
      },
    });

    app.get('/api/credit/export/credit-transactions/:subscriptionId', {
      ...customer({
        summary: "The subscription's transaction history as CSV, newest first",
        params: subscriptionParams,
        response: { 200: csvResponse, ...reads },
      }),
      handler: async (request, reply) =>
        sendCsv(
          reply,
          'transactions.csv',
          transactionsCsv(await metering.allTransactions(accountCallerOf(request).accountId, request.params.subscriptionId)),
        ),
    });

    app.get('/api/cluster/export/audit-logs/:deploymentId', {
      ...customer({
        summary: "A month of the cluster's audit log as CSV, newest first",
        params: deploymentIdParamsSchema,
        querystring: monthQuerySchema,
        response: { 200: csvResponse, ...reads },
      }),
      handler: async (request, reply) => {
        const caller = accountCallerOf(request);
        const entries = await metering.monthOfAuditLogs(
          caller.accountId,
          caller.userId,
          request.params.deploymentId,
          request.query.startDate,
        );
        return sendCsv(reply, `audit-logs-${request.params.deploymentId}.csv`, auditLogsCsv(entries));
      },
    });
  };
}
