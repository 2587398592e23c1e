import { createHash, randomUUID } from 'node:crypto';
import { buildCdar, readCdar } from '../lifecycle/cdar';
import { parseInboundInvoice } from '../parse';
import type { FlowAckDetail, FlowAckStatus, FlowDirection, FlowProfile, FlowSyntax, FlowType, ProcessingRule } from '../port';
import { enrollmentScenarioFor, type ScenarioStatus, scenarioFor, UNKNOWN_BUYER_SIREN, UNREADABLE } from './scenarios';

/*
 * The sandbox PA's memory: clients (tenants, one per client_id), their flows and directory lines. Nothing is
 * persisted. Time moves by `stepMs`: the statuses of a submitted invoice become visible one step apart.
 */

export interface SandboxOptions {
  /** Delay between an invoice's successive statuses, ms (0: all at once; `npm run pa:sandbox`: 2000). */
  stepMs?: number;
  /** Accepted credentials (client_id → client_secret); null: any pair is accepted, each client_id its own tenant. */
  clients?: Record<string, string> | null;
  /** Token lifetime in seconds. */
  tokenLifetime?: number;
}

export interface SandboxFlow {
  flowId: string;
  tenant: string;
  trackingId: string | null;
  name: string | null;
  flowType: FlowType;
  direction: FlowDirection;
  syntax: FlowSyntax;
  profile: FlowProfile | null;
  processingRule: ProcessingRule | null;
  sha256: string;
  file: Buffer;
  contentType: string;
  submittedAt: string;
  updatedAt: string;
  /** Invisible (search, get) before this instant. */
  visibleAt: number;
  ack: { status: FlowAckStatus; details: FlowAckDetail[] };
  /** For an outgoing invoice: what the sandbox read of it. */
  invoice?: { number: string; issueDate: string | null; sellerSiren: string | null; buyerSiren: string | null; totalCents: number | null };
}

export interface SandboxLine {
  idInstance: number;
  tenant: string;
  siren: string;
  siret: string | null;
  routingCode: string | null;
  addressingIdentifier: string;
  dateFrom: string;
  platformStatus: 'Enabled' | 'Disabled';
  /** What happens to a Disabled line once it has been read `readsBefore` more times. */
  onRead: 'enable' | 'withdraw' | null;
  /** The connector reads a line right after creating it: that read leaves it pending; the next one moves it on. */
  readsBefore: number;
}

export interface Switches {
  /** Every Flow/Directory call answers 503. */
  down: boolean;
  /** Every Flow/Directory call waits this long first. */
  slowMs: number;
  /** The next N flow submissions answer 500 without storing anything. */
  failSubmissions: number;
  /** The next N flow submissions are stored, then the connection is cut before the answer (a crash mid-call). */
  dropResponses: number;
}

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

export class SandboxState {
  flows: SandboxFlow[] = [];
  lines = new Map<number, SandboxLine>();
  routingCodes = new Map<string, { idInstance: number; tenant: string }>();
  switches: Switches = { down: false, slowMs: 0, failSubmissions: 0, dropResponses: 0 };
  private tokens = new Map<string, { tenant: string; expiresAt: number }>();
  private nextLine = 1000;
  private lastStamp = 0;

  constructor(readonly options: SandboxOptions = {}) {}

  reset() {
    this.flows = [];
    this.lines.clear();
    this.routingCodes.clear();
    this.tokens.clear();
    this.switches = { down: false, slowMs: 0, failSubmissions: 0, dropResponses: 0 };
  }

  /** OAuth client credentials → a bearer token, or null when refused. */
  issueToken(clientId: string, secret: string): { token: string; expiresIn: number } | null {
    const clients = this.options.clients ?? null;
    if (!clientId || !secret || (clients && clients[clientId] !== secret)) return null;
    const token = randomUUID();
    const expiresIn = this.options.tokenLifetime ?? 3600;
    this.tokens.set(token, { tenant: clientId, expiresAt: Date.now() + expiresIn * 1000 });
    return { token, expiresIn };
  }

  tenantOf(token: string): string | null {
    const t = this.tokens.get(token);
    return t && t.expiresAt > Date.now() ? t.tenant : null;
  }

  /** A strictly increasing instant ≥ `at`, so that flows never share an updatedAt (the search cursor stays exact). */
  private stamp(at: number): number {
    this.lastStamp = Math.max(at, this.lastStamp + 1);
    return this.lastStamp;
  }

  private addFlow(flow: Omit<SandboxFlow, 'flowId' | 'submittedAt' | 'updatedAt' | 'visibleAt' | 'sha256'> & { at?: number }): SandboxFlow {
    const due = flow.at ?? Date.now();
    const iso = new Date(this.stamp(due)).toISOString();
    const stored: SandboxFlow = { ...flow, flowId: randomUUID(), sha256: createHash('sha256').update(flow.file).digest('hex'), submittedAt: iso, updatedAt: iso, visibleAt: due };
    this.flows.push(stored);
    return stored;
  }

  visible(tenant: string): SandboxFlow[] {
    const now = Date.now();
    return this.flows.filter((f) => f.tenant === tenant && f.visibleAt <= now);
  }

  /** POST /v1/flows. The invoice is read at once; its statuses are queued `stepMs` apart. */
  async submit(
    tenant: string,
    info: { trackingId?: string; name?: string; flowSyntax?: FlowSyntax; flowProfile?: FlowProfile; processingRule?: ProcessingRule; sha256?: string },
    file: Buffer,
    contentType: string,
  ): Promise<SandboxFlow> {
    if (!info.flowSyntax) throw new SandboxError(400, 'MISSING_REQUIRED_FIELD', 'flowInfo.flowSyntax is required');
    if (file.length === 0) throw new SandboxError(422, 'EmptyFlow', 'The binary flow is empty.');
    const sha256 = createHash('sha256').update(file).digest('hex');
    if (info.sha256 && info.sha256 !== sha256) throw new SandboxError(422, 'ChecksumMismatch', `Checksum provided (${info.sha256}) differs from the computed one (${sha256}).`);
    if (info.trackingId && this.flows.some((f) => f.tenant === tenant && f.direction === 'Out' && f.trackingId === info.trackingId)) {
      throw new SandboxError(422, 'AlreadyExistingFlow', `A flow with trackingId ${info.trackingId} was already received.`);
    }
    const base = { tenant, trackingId: info.trackingId ?? null, name: info.name ?? null, direction: 'Out' as const, syntax: info.flowSyntax, profile: info.flowProfile ?? null, file, contentType };
    if (info.flowSyntax === 'CDAR') return this.submitStatus(base);
    const parsed = await parseInboundInvoice(file, { filename: info.name, mime: contentType });
    if (parsed.status !== 'parsed') {
      const flow = this.addFlow({
        ...base,
        flowType: 'CustomerInvoice',
        processingRule: info.processingRule ?? 'B2B',
        ack: { status: 'Error', details: [{ level: 'Error', item: 'file', reasonCode: 'InvalidSchema', reasonMessage: parsed.error.message }] },
      });
      this.queueStatuses(flow, UNREADABLE);
      return flow;
    }
    const f = parsed.fields;
    const flow = this.addFlow({
      ...base,
      flowType: 'CustomerInvoice',
      processingRule: info.processingRule ?? 'B2B',
      ack: { status: 'Ok', details: [] },
      invoice: { number: f.invoice_number, issueDate: f.issue_date, sellerSiren: f.sender_siren, buyerSiren: f.buyer_siren, totalCents: f.total_ttc },
    });
    const statuses = scenarioFor(f.buyer_siren);
    this.queueStatuses(flow, statuses);
    // Delivered within the sandbox: the buyer's tenant, when a line of it routes there, receives the invoice.
    const recipient = f.buyer_siren && f.buyer_siren !== UNKNOWN_BUYER_SIREN ? this.lineFor(f.buyer_siren) : null;
    if (recipient && statuses.some((s) => s.code === '203')) {
      const step = statuses.findIndex((s) => s.code === '203') + 1;
      this.addFlow({ ...base, tenant: recipient.tenant, trackingId: null, direction: 'In', flowType: 'SupplierInvoice', processingRule: 'B2B', ack: { status: 'Ok', details: [] }, at: Date.now() + step * this.step });
    }
    return flow;
  }

  private get step() {
    return this.options.stepMs ?? 0;
  }

  /** A status the tenant emits (212, or 204/207/210 on an invoice it received): stored, and passed on to the seller's tenant when known. */
  private submitStatus(base: Omit<SandboxFlow, 'flowId' | 'submittedAt' | 'updatedAt' | 'visibleAt' | 'sha256' | 'flowType' | 'processingRule' | 'ack'>): SandboxFlow {
    let statuses: ReturnType<typeof readCdar>;
    try {
      statuses = readCdar(base.file);
    } catch (error) {
      throw new SandboxError(422, 'InvalidSchema', `Not a CDAR message: ${(error as Error).message}`);
    }
    const flow = this.addFlow({ ...base, flowType: 'CustomerInvoiceLC', processingRule: 'B2B', ack: { status: 'Ok', details: [] } });
    for (const s of statuses) {
      const invoice = this.flows.find(
        (f) => f.direction === 'Out' && f.invoice?.number === s.invoice.number && (!s.invoice.sellerSiren || f.invoice.sellerSiren === s.invoice.sellerSiren),
      );
      if (invoice && invoice.tenant !== base.tenant) {
        this.addFlow({ ...base, tenant: invoice.tenant, trackingId: null, direction: 'In', flowType: 'CustomerInvoiceLC', processingRule: 'B2B', ack: { status: 'Ok', details: [] } });
      }
    }
    return flow;
  }

  /** Queues lifecycle (CDAR) flows for the seller's tenant, one step apart. */
  queueStatuses(invoice: SandboxFlow, statuses: readonly ScenarioStatus[]) {
    statuses.forEach((s, i) => {
      const at = Date.now() + (i + 1) * this.step;
      const total = invoice.invoice?.totalCents;
      const xml = buildCdar({
        messageId: `SBX-${randomUUID()}`,
        code: s.code,
        reasonCode: s.reasonCode ?? null,
        reason: s.reason ?? null,
        issuerRole: s.role,
        issuedAt: new Date(at).toISOString(),
        invoice: {
          number: invoice.invoice?.number ?? invoice.name ?? invoice.flowId,
          issueDate: invoice.invoice?.issueDate ?? null,
          sellerSiren: invoice.invoice?.sellerSiren ?? null,
          typeCode: null,
        },
        amount: s.paid && total != null ? { cents: total, currency: 'EUR', vatRate: null } : null,
      });
      this.addFlow({
        tenant: invoice.tenant,
        trackingId: null,
        name: `CDAR-${s.code}-${invoice.flowId}.xml`,
        direction: 'In',
        flowType: 'CustomerInvoiceLC',
        syntax: 'CDAR',
        profile: null,
        processingRule: 'B2B',
        file: Buffer.from(xml, 'utf8'),
        contentType: 'application/xml',
        ack: { status: 'Ok', details: [] },
        at,
      });
    });
  }

  /** An invoice received from outside (the admin endpoint): an In SupplierInvoice flow for the tenant the SIREN routes to. */
  inject(toSiren: string, file: Buffer, contentType: string, syntax: FlowSyntax, name: string | null): SandboxFlow {
    const line = this.lineFor(toSiren);
    if (!line) throw new SandboxError(404, 'MISSING_RESOURCE', `No directory line of this sandbox routes to SIREN ${toSiren}: enroll it first.`);
    return this.addFlow({
      tenant: line.tenant,
      trackingId: null,
      name,
      direction: 'In',
      flowType: 'SupplierInvoice',
      syntax,
      profile: null,
      processingRule: 'B2B',
      file,
      contentType,
      ack: { status: 'Ok', details: [] },
    });
  }

  /** The line registered in this sandbox for a SIREN (any of its meshes, the company's own first). */
  lineFor(siren: string): SandboxLine | null {
    const lines = [...this.lines.values()].filter((l) => l.siren === siren && l.platformStatus === 'Enabled');
    return lines.find((l) => l.addressingIdentifier === siren) ?? lines[0] ?? null;
  }

  registerLine(tenant: string, input: { siren: string; siret: string | null; routingCode: string | null; dateFrom: string }): SandboxLine {
    const addressingIdentifier = [input.siren, input.siret, input.siret ? input.routingCode : null].filter(Boolean).join('_');
    const existing = [...this.lines.values()].find((l) => l.addressingIdentifier === addressingIdentifier);
    if (existing) {
      if (existing.tenant !== tenant) throw new SandboxError(422, 'ALREADY_REGISTERED', `${addressingIdentifier} is already registered by another platform user.`);
      return existing;
    }
    const scenario = enrollmentScenarioFor(input.siren);
    if (scenario === 'refused') throw new SandboxError(422, 'SIREN_NOT_ELIGIBLE', `SIREN ${input.siren} is not eligible to the directory: not registered for VAT (sandbox).`);
    const line: SandboxLine = {
      idInstance: this.nextLine++,
      tenant,
      ...input,
      addressingIdentifier,
      platformStatus: scenario === 'enabled' ? 'Enabled' : 'Disabled',
      onRead: scenario === 'pending' ? 'enable' : scenario === 'withdrawn' ? 'withdraw' : null,
      readsBefore: 1,
    };
    this.lines.set(line.idInstance, line);
    return line;
  }

  /** GET of a line by id: a pending line moves on (Enabled, or withdrawn) when read after the creation's own read. */
  readLine(idInstance: number): SandboxLine | null {
    const line = this.lines.get(idInstance);
    if (!line?.onRead) return line ?? null;
    if (line.readsBefore > 0) {
      line.readsBefore--;
      return line;
    }
    if (line.onRead === 'withdraw') {
      this.lines.delete(idInstance);
      return null;
    }
    line.platformStatus = 'Enabled';
    line.onRead = null;
    return line;
  }
}
