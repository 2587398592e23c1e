import { createHash } from 'node:crypto';
import type { PdpConfig } from '@/lib/domain/invoice-settings';
import {
  addressingIdentifierOf,
  type ConnectionCheck,
  type ConnectionStep,
  type DirectoryEntry,
  type DirectoryLine,
  type DirectoryLineInput,
  type DirectoryQuery,
  electronicAddressOf,
  type FlowDocType,
  type FlowFile,
  type FlowMeta,
  type FlowSearch,
  type PaConnector,
  PaError,
  type PaFlow,
  type SubmittedFlow,
} from '../port';
import { AfnorHttp, type AfnorHttpOptions } from './http';

/*
 * The port over AFNOR XP Z12-013 v1.1.0 (reference/afnor: flow-service and directory-service OpenAPI annexes). Paths,
 * bodies and answers as the annexes give them; docs/einvoicing.md maps each port method to its operation.
 */

interface AnnexFlow {
  flowId?: string;
  trackingId?: string;
  flowType?: string;
  flowDirection?: string;
  flowSyntax?: string;
  flowProfile?: string;
  processingRule?: string;
  submittedAt?: string;
  updatedAt?: string;
  sha256?: string;
  acknowledgement?: { status?: string; details?: { level: 'Error' | 'Warning'; item: string; reasonCode: string; reasonMessage: string }[] };
}

interface AnnexDirectoryLine {
  idInstance?: number | string;
  addressingIdentifier?: string;
  siren?: string;
  siret?: string;
  dateFrom?: string;
  routingCode?: { routingIdentifier?: string };
  platform?: { platformStatus?: 'Enabled' | 'Disabled' };
}

function toFlow(raw: AnnexFlow, what: string): PaFlow {
  if (!raw || typeof raw.flowId !== 'string') throw new PaError('invalid_response', `${what}: the PA's flow has no flowId`);
  const updatedAt = raw.updatedAt ?? raw.submittedAt;
  if (!updatedAt || Number.isNaN(Date.parse(updatedAt))) throw new PaError('invalid_response', `${what}: flow ${raw.flowId} has no valid updatedAt`);
  return {
    flowId: raw.flowId,
    trackingId: raw.trackingId ?? null,
    flowType: (raw.flowType ?? null) as PaFlow['flowType'],
    direction: (raw.flowDirection ?? null) as PaFlow['direction'],
    syntax: (raw.flowSyntax ?? null) as PaFlow['syntax'],
    profile: (raw.flowProfile ?? null) as PaFlow['profile'],
    processingRule: (raw.processingRule ?? null) as PaFlow['processingRule'],
    submittedAt: raw.submittedAt ?? null,
    updatedAt,
    ack: raw.acknowledgement?.status ? { status: raw.acknowledgement.status as 'Pending' | 'Ok' | 'Error', details: raw.acknowledgement.details ?? [] } : null,
  };
}

function toEntry(raw: AnnexDirectoryLine, what: string): DirectoryEntry {
  if (!raw || typeof raw.addressingIdentifier !== 'string' || typeof raw.siren !== 'string') {
    throw new PaError('invalid_response', `${what}: the PA's directory line has no addressingIdentifier or siren`);
  }
  return {
    siren: raw.siren,
    siret: raw.siret ?? null,
    routingCode: raw.routingCode?.routingIdentifier ?? null,
    addressingIdentifier: raw.addressingIdentifier,
    electronicAddress: electronicAddressOf(raw.addressingIdentifier),
    platformStatus: raw.platform?.platformStatus ?? null,
    idInstance: raw.idInstance === undefined ? null : String(raw.idInstance),
  };
}

const CONTENT_TYPES: Record<string, string> = { 'Factur-X': 'application/pdf', CII: 'application/xml', UBL: 'application/xml', CDAR: 'application/xml', FRR: 'application/xml' };

function fileNameOf(disposition: string | null): string | null {
  const match = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  return match ? decodeURIComponent(match[1]!) : null;
}

export class AfnorConnector implements PaConnector {
  readonly provider = 'afnor';
  private readonly http: AfnorHttp;

  constructor(config: PdpConfig, options: AfnorHttpOptions = {}) {
    this.http = new AfnorHttp(config, options);
  }

  async submitFlow(file: Uint8Array, sha256: string, meta: FlowMeta): Promise<SubmittedFlow> {
    const what = `Submitting flow ${meta.name}`;
    const flowInfo = { trackingId: meta.trackingId, name: meta.name, flowSyntax: meta.syntax, flowProfile: meta.profile, processingRule: meta.processingRule, sha256 };
    const form = new FormData();
    form.append('flowInfo', new Blob([JSON.stringify(flowInfo)], { type: 'application/json' }));
    form.append('file', new Blob([new Uint8Array(file)], { type: CONTENT_TYPES[meta.syntax] ?? 'application/octet-stream' }), meta.name);
    const res = await this.http.call('flow', 'POST', '/v1/flows', what, { body: form });
    const body = await this.http.json<AnnexFlow>(res, what);
    if (typeof body.flowId !== 'string' || !body.flowId) throw new PaError('invalid_response', `${what}: the PA accepted it but answered no flowId`, res.status);
    if (body.sha256 && body.sha256 !== sha256) {
      throw new PaError('invalid_response', `${what}: the PA computed SHA-256 ${body.sha256}, not ${sha256}`, res.status, 'ChecksumMismatch');
    }
    return { flowId: body.flowId, trackingId: body.trackingId ?? null, submittedAt: body.submittedAt ?? null };
  }

  async searchFlows(search: FlowSearch): Promise<PaFlow[]> {
    const what = 'Searching flows';
    const where: Record<string, unknown> = {
      // At least one criterion is required: "from the beginning" is updatedAfter the epoch.
      updatedAfter: search.updatedAfter ?? '1970-01-01T00:00:00.000Z',
      ...(search.flowTypes?.length ? { flowType: search.flowTypes } : {}),
      ...(search.directions?.length ? { flowDirection: search.directions } : {}),
      ...(search.processingRules?.length ? { processingRule: search.processingRules } : {}),
      ...(search.trackingId ? { trackingId: search.trackingId } : {}),
      ...(search.ackStatus ? { ackStatus: search.ackStatus } : {}),
    };
    const res = await this.http.call('flow', 'POST', '/v1/flows/search', what, { json: { limit: Math.min(search.limit ?? 25, 100), where } });
    const body = await this.http.json<{ results?: AnnexFlow[] }>(res, what);
    if (!Array.isArray(body.results)) throw new PaError('invalid_response', `${what}: the PA's answer has no results list`, res.status);
    return body.results.map((r) => toFlow(r, what)).sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
  }

  /**
   * The connection test: a fresh token (the credentials), a one-flow search (the Flow service, authenticated) and the
   * Directory service's healthcheck (with the token too: a PA may guard it). The first failure skips what follows it.
   */
  async checkConnection(): Promise<ConnectionCheck[]> {
    const probes: Array<[ConnectionStep, () => Promise<unknown>]> = [
      ['token', () => this.http.checkToken()],
      ['flow', () => this.searchFlows({ limit: 1 })],
      ['directory', async () => (await this.http.call('directory', 'GET', '/v1/healthcheck', 'Directory service healthcheck')).body?.cancel()],
    ];
    const checks: ConnectionCheck[] = [];
    for (const [step, probe] of probes) {
      if (checks.some((c) => c.outcome !== 'ok')) {
        checks.push({ step, outcome: 'skipped', error: null });
        continue;
      }
      try {
        await probe();
        checks.push({ step, outcome: 'ok', error: null });
      } catch (err) {
        if (!(err instanceof PaError)) throw err;
        checks.push({ step, outcome: 'failed', error: { kind: err.kind, message: err.message, status: err.status } });
      }
    }
    return checks;
  }

  async getFlow(flowId: string, docType: FlowDocType = 'Original'): Promise<FlowFile> {
    const what = `Getting flow ${flowId}`;
    const path = `/v1/flows/${encodeURIComponent(flowId)}`;
    const meta = await this.http.call('flow', 'GET', `${path}?docType=Metadata`, what);
    const flow = toFlow(await this.http.json<AnnexFlow>(meta, what), what);
    const res = await this.http.call('flow', 'GET', `${path}?docType=${docType}`, what, { accept: 'application/octet-stream, application/pdf, application/xml' });
    const file = Buffer.from(await res.arrayBuffer());
    return {
      flow,
      file,
      contentType: res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream',
      fileName: fileNameOf(res.headers.get('content-disposition')),
      sha256: createHash('sha256').update(file).digest('hex'),
    };
  }

  private async lineByCode(code: string, what: string): Promise<DirectoryEntry | null> {
    const res = await this.http.call('directory', 'GET', `/v1/directory-line/code:${encodeURIComponent(code)}?include=platform,routingCode`, what, { expect: [404] });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    return toEntry(await this.http.json<AnnexDirectoryLine>(res, what), what);
  }

  async lookup(query: DirectoryQuery): Promise<DirectoryEntry | null> {
    const what = `Directory lookup of ${query.siret ?? query.siren}`;
    // The finest line first (SIREN_SIRET_ROUTINGCODE, SIREN_SIRET), then the company's own (SIREN).
    const codes = [...new Set([addressingIdentifierOf(query), query.siret ? `${query.siren}_${query.siret}` : null, query.siren].filter((c): c is string => !!c))];
    for (const code of codes) {
      const entry = await this.lineByCode(code, what);
      if (entry) return entry;
    }
    return null;
  }

  async registerDirectoryLine(input: DirectoryLineInput): Promise<DirectoryLine> {
    const what = `Registering the directory line of ${input.siret ?? input.siren}`;
    if (input.routingCode) {
      if (!input.siret) throw new PaError('rejected', `${what}: a routing code belongs to a SIRET`);
      const body = { siret: input.siret, routingIdentifier: input.routingCode, routingCodeName: input.routingCode, facilityNature: 'Private', administrativeStatus: 'A' };
      const res = await this.http.call('directory', 'POST', '/v1/routing-code', `${what} (routing code)`, { json: body, expect: [409] });
      await res.body?.cancel();
    }
    const addressingInformation = { siren: input.siren, ...(input.siret ? { siret: input.siret } : {}), ...(input.routingCode ? { routingIdentifier: input.routingCode } : {}) };
    const res = await this.http.call('directory', 'POST', '/v1/directory-line', what, { json: { period: { dateFrom: input.dateFrom }, addressingInformation } });
    const created = await this.http.json<{ idInstance?: number | string }>(res, what);
    if (created.idInstance === undefined) throw new PaError('invalid_response', `${what}: the PA created the line but answered no idInstance`, res.status);
    const line = await this.getDirectoryLine(String(created.idInstance));
    if (!line) throw new PaError('invalid_response', `${what}: line ${created.idInstance} is not found right after its creation`);
    return line;
  }

  async getDirectoryLine(idInstance: string): Promise<DirectoryLine | null> {
    const what = `Reading directory line ${idInstance}`;
    const res = await this.http.call('directory', 'GET', `/v1/directory-line/id-instance:${encodeURIComponent(idInstance)}?include=platform,routingCode`, what, { expect: [404] });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    const raw = await this.http.json<AnnexDirectoryLine>(res, what);
    const entry = toEntry(raw, what);
    return { ...entry, idInstance, status: entry.platformStatus === 'Enabled' ? 'active' : 'pending', dateFrom: raw.dateFrom ?? null };
  }
}
