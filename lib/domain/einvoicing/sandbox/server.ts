import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FLOW_DOC_TYPES, type FlowSyntax } from '../port';
import { UNKNOWN_BUYER_SIREN } from './scenarios';
import { type SandboxFlow, type SandboxLine, type SandboxOptions, SandboxError, SandboxState } from './state';

/*
 * The sandbox PA over HTTP (`npm run pa:sandbox`; tests start it in-process on a free port). The AFNOR XP Z12-013
 * surface the connector uses — POST /oauth/token, /flow-service/v1/…, /directory-service/v1/… — and an admin API
 * under /sandbox (no auth; local use only): state, switches (down, slow, failing or dropped submissions), reset,
 * injected received invoices. docs/einvoicing.md § Sandbox PA.
 */

const MAX_BODY = 20 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new SandboxError(413, 'FILE_SIZE_EXCEEDED', 'Provided file is too big');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  if (Buffer.isBuffer(body)) {
    res.writeHead(status, headers).end(body);
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const fail = (res: ServerResponse, status: number, errorCode: string, errorMessage: string | null = null) => send(res, status, { errorCode, errorMessage });

const flowJson = (f: SandboxFlow) => ({
  flowId: f.flowId,
  trackingId: f.trackingId ?? undefined,
  flowType: f.flowType,
  processingRule: f.processingRule ?? undefined,
  processingRuleSource: 'Input',
  flowDirection: f.direction,
  flowSyntax: f.syntax,
  flowProfile: f.profile ?? undefined,
  submittedAt: f.submittedAt,
  updatedAt: f.updatedAt,
  acknowledgement: f.ack.details.length ? f.ack : { status: f.ack.status },
});

const lineJson = (l: SandboxLine) => ({
  idInstance: l.idInstance,
  addressingIdentifier: l.addressingIdentifier,
  siren: l.siren,
  siret: l.siret ?? undefined,
  dateFrom: l.dateFrom,
  routingCode: l.routingCode ? { routingIdentifier: l.routingCode } : undefined,
  platform: { platformType: 'WK', platformStatus: l.platformStatus },
});

function clientOf(req: IncomingMessage, form: URLSearchParams): { id: string; secret: string } {
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id, ...rest] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    return { id: decodeURIComponent(id ?? ''), secret: decodeURIComponent(rest.join(':')) };
  }
  return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
}

const SYNTAX_BY_TYPE: Record<string, FlowSyntax> = { 'application/pdf': 'Factur-X' };
function sniffSyntax(file: Buffer, contentType: string): FlowSyntax {
  if (SYNTAX_BY_TYPE[contentType] || file.subarray(0, 1024).includes('%PDF-')) return 'Factur-X';
  const head = file.subarray(0, 2048).toString('utf8');
  return /<(?:\w+:)?CrossIndustryInvoice\b/.test(head) ? 'CII' : 'UBL';
}

export class SandboxPa {
  readonly state: SandboxState;
  private server: Server;

  constructor(options: SandboxOptions = {}) {
    this.state = new SandboxState(options);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        if (error instanceof SandboxError) return fail(res, error.status, error.errorCode, error.message);
        fail(res, 500, 'INTERNAL_ERROR', (error as Error).message);
      });
    });
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    return `http://${host}:${address.port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    if (path.startsWith('/sandbox/')) return this.admin(req, res, url);
    if (req.method === 'POST' && path === '/oauth/token') {
      const form = new URLSearchParams((await readBody(req)).toString('utf8'));
      if (form.get('grant_type') !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
      const client = clientOf(req, form);
      const token = this.state.issueToken(client.id, client.secret);
      if (!token) return send(res, 401, { error: 'invalid_client', error_description: 'Unknown client or wrong secret.' });
      return send(res, 200, { access_token: token.token, token_type: 'Bearer', expires_in: token.expiresIn });
    }
    const { switches } = this.state;
    if (switches.slowMs > 0) await new Promise((r) => setTimeout(r, switches.slowMs));
    if (switches.down) return fail(res, 503, 'RESOURCE_ERROR', 'The sandbox PA is down (switch).');
    if (path === '/flow-service/v1/healthcheck' || path === '/directory-service/v1/healthcheck') return send(res, 200);
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) return fail(res, 401, 'MISSING_TOKEN');
    const tenant = this.state.tenantOf(bearer);
    if (!tenant) return fail(res, 401, 'INVALID_TOKEN', 'Unknown or expired token.');
    if (path.startsWith('/flow-service/v1/')) return this.flowService(req, res, url, tenant);
    if (path.startsWith('/directory-service/v1/')) return this.directoryService(req, res, url, tenant);
    return fail(res, 404, 'MISSING_RESOURCE', `No route ${req.method} ${path}`);
  }

  private async flowService(req: IncomingMessage, res: ServerResponse, url: URL, tenant: string) {
    const path = url.pathname.slice('/flow-service'.length);
    if (req.method === 'POST' && path === '/v1/flows') {
      const body = await readBody(req);
      const request = new Request('http://sandbox/v1/flows', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: new Uint8Array(body) });
      let form: FormData;
      try {
        form = await request.formData();
      } catch {
        return fail(res, 400, 'MISSING_REQUIRED_FIELD', 'Expected multipart/form-data with flowInfo and file.');
      }
      const infoPart = form.get('flowInfo');
      const filePart = form.get('file');
      if (!infoPart || !filePart || typeof filePart === 'string') return fail(res, 400, 'MISSING_REQUIRED_FIELD', 'flowInfo and file are required.');
      let info: Record<string, string | undefined>;
      try {
        info = JSON.parse(typeof infoPart === 'string' ? infoPart : await infoPart.text());
      } catch {
        return fail(res, 400, 'MISSING_REQUIRED_FIELD', 'flowInfo is not JSON.');
      }
      if (this.state.switches.failSubmissions > 0) {
        this.state.switches.failSubmissions--;
        return fail(res, 500, 'INTERNAL_ERROR', 'Submission failed (switch failSubmissions).');
      }
      const file = Buffer.from(await filePart.arrayBuffer());
      const flow = await this.state.submit(tenant, info as Parameters<SandboxState['submit']>[1], file, filePart.type || 'application/octet-stream');
      if (this.state.switches.dropResponses > 0) {
        this.state.switches.dropResponses--;
        req.socket.destroy();
        return;
      }
      return send(res, 202, { flowId: flow.flowId, submittedAt: flow.submittedAt, trackingId: flow.trackingId ?? undefined, name: flow.name ?? undefined, flowSyntax: flow.syntax, flowProfile: flow.profile ?? undefined, processingRule: flow.processingRule ?? undefined, sha256: flow.sha256 });
    }
    if (req.method === 'POST' && path === '/v1/flows/search') {
      let params: { limit?: number; where?: Record<string, unknown> };
      try {
        params = JSON.parse((await readBody(req)).toString('utf8'));
      } catch {
        return fail(res, 400, 'MISSING_REQUIRED_FIELD', 'The body is not JSON.');
      }
      const where = params.where ?? {};
      if (!Object.keys(where).length) return fail(res, 400, 'MISSING_REQUIRED_FIELD', 'At least one criterion is required.');
      const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), 100);
      const after = typeof where.updatedAfter === 'string' ? Date.parse(where.updatedAfter) : null;
      const before = typeof where.updatedBefore === 'string' ? Date.parse(where.updatedBefore) : null;
      const inList = (value: unknown, list: unknown) => !Array.isArray(list) || list.length === 0 || list.includes(value);
      const results = this.state
        .visible(tenant)
        .filter((f) => (after === null || Date.parse(f.updatedAt) > after) && (before === null || Date.parse(f.updatedAt) < before))
        .filter((f) => inList(f.flowType, where.flowType) && inList(f.direction, where.flowDirection) && inList(f.processingRule, where.processingRule))
        .filter((f) => (where.trackingId === undefined || f.trackingId === where.trackingId) && (where.ackStatus === undefined || f.ack.status === where.ackStatus))
        .sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt))
        .slice(0, limit);
      return send(res, 200, { limit, filters: where, results: results.map(flowJson) });
    }
    const get = /^\/v1\/flows\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && get) {
      const flow = this.state.visible(tenant).find((f) => f.flowId === decodeURIComponent(get[1]!));
      if (!flow) return fail(res, 404, 'MISSING_RESOURCE', 'Requested resource is Not Found');
      const docType = url.searchParams.get('docType') ?? 'Metadata';
      if (docType === 'Metadata') return send(res, 200, flowJson(flow));
      if (!(FLOW_DOC_TYPES as readonly string[]).includes(docType)) return fail(res, 400, 'INVALID_PARAMETER', `docType ${docType} is not one of Metadata, Original, Converted, ReadableView`);
      // The sandbox converts nothing: every view is the original file.
      const name = flow.name ?? `${flow.flowId}.${flow.syntax === 'Factur-X' ? 'pdf' : 'xml'}`;
      return send(res, 200, flow.file, { 'content-type': flow.contentType, 'content-disposition': `attachment;filename="${encodeURIComponent(name)}"` });
    }
    return fail(res, 404, 'MISSING_RESOURCE', `No route ${req.method} ${url.pathname}`);
  }

  private async directoryService(req: IncomingMessage, res: ServerResponse, url: URL, tenant: string) {
    const path = decodeURIComponent(url.pathname.slice('/directory-service'.length));
    const byCode = /^\/v1\/directory-line\/code:(.+)$/.exec(path);
    if (req.method === 'GET' && byCode) {
      const code = byCode[1]!;
      const line = [...this.state.lines.values()].find((l) => l.addressingIdentifier === code);
      if (line) return send(res, 200, lineJson(line));
      // Any other valid company is in the directory at some other PA (the sandbox's whole France), except the unknown one.
      if (/^\d{9}$/.test(code) && code !== UNKNOWN_BUYER_SIREN) {
        return send(res, 200, { addressingIdentifier: code, siren: code, platform: { platformType: 'WK', platformStatus: 'Enabled' } });
      }
      return fail(res, 404, 'MISSING_RESOURCE', `No directory line ${code}`);
    }
    const byId = /^\/v1\/directory-line\/id-instance:(\d+)$/.exec(path);
    if (byId) {
      const id = Number(byId[1]);
      const owned = this.state.lines.get(id);
      if (!owned || owned.tenant !== tenant) return fail(res, 404, 'MISSING_RESOURCE', `No directory line ${id}`);
      if (req.method === 'DELETE') {
        this.state.lines.delete(id);
        return send(res, 204);
      }
      if (req.method === 'GET') {
        const line = this.state.readLine(id);
        return line ? send(res, 200, lineJson(line)) : fail(res, 404, 'MISSING_RESOURCE', `Directory line ${id} was withdrawn (sandbox).`);
      }
    }
    if (req.method === 'POST' && path === '/v1/directory-line') {
      const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as {
        period?: { dateFrom?: string };
        addressingInformation?: { siren?: string; siret?: string; routingIdentifier?: string };
      };
      const info = body.addressingInformation;
      if (!info?.siren || !/^\d{9}$/.test(info.siren) || !body.period?.dateFrom) return fail(res, 400, 'MISSING_REQUIRED_FIELD', 'addressingInformation.siren and period.dateFrom are required.');
      if (info.siret && !(/^\d{14}$/.test(info.siret) && info.siret.startsWith(info.siren))) return fail(res, 422, 'INVALID_SIRET', 'The SIRET must be 14 digits starting with the SIREN.');
      if (info.routingIdentifier && !this.state.routingCodes.has(`${info.siret}_${info.routingIdentifier}`)) {
        return fail(res, 422, 'UNKNOWN_ROUTING_CODE', `Routing code ${info.routingIdentifier} does not exist for SIRET ${info.siret}.`);
      }
      const line = this.state.registerLine(tenant, { siren: info.siren, siret: info.siret ?? null, routingCode: info.routingIdentifier ?? null, dateFrom: body.period.dateFrom });
      return send(res, 201, { idInstance: line.idInstance, addressingIdentifier: line.addressingIdentifier, dateFrom: line.dateFrom });
    }
    if (req.method === 'POST' && path === '/v1/routing-code') {
      const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as { siret?: string; routingIdentifier?: string };
      if (!body.siret || !body.routingIdentifier) return fail(res, 400, 'MISSING_REQUIRED_FIELD', 'siret and routingIdentifier are required.');
      const key = `${body.siret}_${body.routingIdentifier}`;
      const existing = this.state.routingCodes.get(key);
      if (existing) return fail(res, 409, 'ALREADY_EXISTS', `Routing code ${body.routingIdentifier} exists for SIRET ${body.siret}.`);
      const idInstance = 5000 + this.state.routingCodes.size;
      this.state.routingCodes.set(key, { idInstance, tenant });
      return send(res, 201, { idInstance, siret: body.siret, routingIdentifier: body.routingIdentifier });
    }
    return fail(res, 404, 'MISSING_RESOURCE', `No route ${req.method} ${url.pathname}`);
  }

  private async admin(req: IncomingMessage, res: ServerResponse, url: URL) {
    const path = url.pathname;
    if (req.method === 'GET' && path === '/sandbox/state') {
      const flows = this.state.flows.map(({ file: _file, ...f }) => ({ ...f, size: _file.length }));
      return send(res, 200, { switches: this.state.switches, flows, lines: [...this.state.lines.values()] });
    }
    if (req.method === 'POST' && path === '/sandbox/reset') {
      this.state.reset();
      return send(res, 204);
    }
    if (req.method === 'POST' && path === '/sandbox/switches') {
      const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as Record<string, unknown>;
      const s = this.state.switches;
      if (typeof body.down === 'boolean') s.down = body.down;
      if (typeof body.slow_ms === 'number') s.slowMs = Math.max(0, body.slow_ms);
      if (typeof body.fail_submissions === 'number') s.failSubmissions = Math.max(0, body.fail_submissions);
      if (typeof body.drop_responses === 'number') s.dropResponses = Math.max(0, body.drop_responses);
      return send(res, 200, s);
    }
    if (req.method === 'POST' && path === '/sandbox/inbound') {
      const to = url.searchParams.get('to') ?? '';
      if (!/^\d{9}$/.test(to)) return fail(res, 400, 'MISSING_REQUIRED_FIELD', 'Query parameter to=<recipient SIREN> is required.');
      const file = await readBody(req);
      if (!file.length) return fail(res, 400, 'EmptyFlow', 'The body (the invoice file) is empty.');
      const contentType = (req.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!.trim();
      const syntax = (url.searchParams.get('syntax') as FlowSyntax | null) ?? sniffSyntax(file, contentType);
      const flow = this.state.inject(to, file, contentType, syntax, url.searchParams.get('name'));
      return send(res, 201, { flowId: flow.flowId, flowSyntax: flow.syntax, tenant: flow.tenant });
    }
    if (req.method === 'POST' && path === '/sandbox/lifecycle') {
      const body = JSON.parse((await readBody(req)).toString('utf8') || '{}') as { flow_id?: string; code?: string; role?: string; reason_code?: string; reason?: string };
      const invoice = this.state.flows.find((f) => f.flowId === body.flow_id && f.direction === 'Out');
      if (!invoice || !body.code) return fail(res, 404, 'MISSING_RESOURCE', 'flow_id (an invoice submitted to this sandbox) and code are required.');
      this.state.queueStatuses(invoice, [
        { code: body.code, role: (body.role as 'buyer') ?? 'buyer', reasonCode: body.reason_code, reason: body.reason, paid: body.code === '212' },
      ]);
      return send(res, 202, { queued: 1 });
    }
    return fail(res, 404, 'MISSING_RESOURCE', `No admin route ${req.method} ${path}`);
  }
}

/** Starts a sandbox PA (port 0: a free one) and answers its base URL, for pdp_config.base_url. */
export async function startSandboxPa(options: SandboxOptions & { port?: number; host?: string } = {}): Promise<{ url: string; pa: SandboxPa; close: () => Promise<void> }> {
  const pa = new SandboxPa(options);
  const url = await pa.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  return { url, pa, close: () => pa.close() };
}
