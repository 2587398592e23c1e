/*
 * The port to a Plateforme Agréée (DESIGN §11, docs/einvoicing.md): what Paraphe asks of its PA, in the words of
 * AFNOR XP Z12-013 (Flow service: submit, search, get; Directory service: lookups, directory lines). The AFNOR
 * connector (./afnor) implements it over HTTP; the sandbox PA (./sandbox) serves the same HTTP surface.
 */

export const FLOW_SYNTAXES = ['CII', 'UBL', 'Factur-X', 'CDAR', 'FRR'] as const;
export type FlowSyntax = (typeof FLOW_SYNTAXES)[number];
export const FLOW_PROFILES = ['Basic', 'CIUS', 'Extended-CTC-FR'] as const;
export type FlowProfile = (typeof FLOW_PROFILES)[number];
export const PROCESSING_RULES = ['B2B', 'B2BInt', 'B2C', 'OutOfScope', 'ArchiveOnly', 'NotApplicable'] as const;
export type ProcessingRule = (typeof PROCESSING_RULES)[number];
export const FLOW_TYPES = [
  'CustomerInvoice',
  'SupplierInvoice',
  'StateInvoice',
  'CustomerInvoiceLC',
  'SupplierInvoiceLC',
  'StateCustomerInvoiceLC',
  'StateSupplierInvoiceLC',
  'AggregatedCustomerTransactionReport',
  'IndividualCustomerTransactionReport',
  'AggregatedCustomerPaymentReport',
  'UnitaryCustomerPaymentReport',
  'UnitarySupplierTransactionReport',
  'MultiFlowReport',
] as const;
export type FlowType = (typeof FLOW_TYPES)[number];
export const FLOW_DIRECTIONS = ['In', 'Out'] as const;
export type FlowDirection = (typeof FLOW_DIRECTIONS)[number];
export const FLOW_ACK_STATUSES = ['Pending', 'Ok', 'Error'] as const;
export type FlowAckStatus = (typeof FLOW_ACK_STATUSES)[number];
export const FLOW_DOC_TYPES = ['Original', 'Converted', 'ReadableView'] as const;
export type FlowDocType = (typeof FLOW_DOC_TYPES)[number];

/** What qualifies a submitted flow (the annex's FlowInfo, less the digest given apart). */
export interface FlowMeta {
  /** Our stable identity of the submission: a retry finds the flow it already made by searching on it. */
  trackingId: string;
  /** File name, e.g. `FAC-2026-0001.pdf`. */
  name: string;
  syntax: FlowSyntax;
  profile?: FlowProfile;
  processingRule?: ProcessingRule;
}

export interface SubmittedFlow {
  flowId: string;
  trackingId: string | null;
  /** The PA's clock: use it, not ours, as a time reference. */
  submittedAt: string | null;
}

export interface FlowAckDetail {
  level: 'Error' | 'Warning';
  item: string;
  reasonCode: string;
  reasonMessage: string;
}

/** A flow as the PA describes it (the annex's Flow). */
export interface PaFlow {
  flowId: string;
  trackingId: string | null;
  flowType: FlowType | null;
  direction: FlowDirection | null;
  syntax: FlowSyntax | null;
  profile: FlowProfile | null;
  processingRule: ProcessingRule | null;
  submittedAt: string | null;
  /** Changes when its acknowledgement does; the search cursor. */
  updatedAt: string;
  ack: { status: FlowAckStatus; details: FlowAckDetail[] } | null;
}

/** `POST /v1/flows/search` criteria (a logical AND; lists are ORs). */
export interface FlowSearch {
  /** Strictly after this instant (ISO 8601); null or absent: from the beginning. */
  updatedAfter?: string | null;
  flowTypes?: readonly FlowType[];
  directions?: readonly FlowDirection[];
  processingRules?: readonly ProcessingRule[];
  trackingId?: string;
  ackStatus?: FlowAckStatus;
  /** At most 100 (the annex's maximum); default 25. */
  limit?: number;
}

/** A flow's file (original, converted or readable view) with its metadata. */
export interface FlowFile {
  flow: PaFlow;
  file: Buffer;
  contentType: string;
  fileName: string | null;
  /** SHA-256 (hex) of `file`, computed on receipt. */
  sha256: string;
}

export interface DirectoryQuery {
  siren: string;
  siret?: string | null;
  routingCode?: string | null;
}

/** Where invoices to a company (or one of its facilities / routing codes) go, per the directory. */
export interface DirectoryEntry {
  siren: string;
  siret: string | null;
  routingCode: string | null;
  /** The line's addressing identifier (e.g. `732829320`, `732829320_73282932000074`). */
  addressingIdentifier: string;
  /** `0225:<addressing identifier>`. */
  electronicAddress: string;
  /** The receiving platform's status: a Disabled one does not receive yet. */
  platformStatus: 'Enabled' | 'Disabled' | null;
  idInstance: string | null;
}

export interface DirectoryLineInput {
  siren: string;
  siret?: string | null;
  routingCode?: string | null;
  /** YYYY-MM-DD, the first day the line is effective. */
  dateFrom: string;
}

/** One of our directory lines at the PA: `active` once its platform is Enabled, `pending` before. */
export interface DirectoryLine extends DirectoryEntry {
  idInstance: string;
  status: 'active' | 'pending';
  dateFrom: string | null;
}

export const PA_ERROR_KINDS = ['unreachable', 'timeout', 'auth', 'rejected', 'not_found', 'rate_limited', 'server', 'invalid_response'] as const;
export type PaErrorKind = (typeof PA_ERROR_KINDS)[number];

/**
 * Whatever went wrong talking to the PA. `retryable`: worth trying again later (down, slow, 429, 5xx); not: our
 * request or credentials are wrong (4xx), fix them first. `message` is for staff and logs, never holds a secret.
 */
export class PaError extends Error {
  constructor(
    readonly kind: PaErrorKind,
    message: string,
    readonly status: number | null = null,
    /** The PA's errorCode, when it gave one. */
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'PaError';
  }

  get retryable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.kind === 'rate_limited' || this.kind === 'server';
  }
}

/** What Paraphe asks of a PA. Every method throws PaError on failure. */
/** What the connection test checks, in order: the OAuth token, the Flow service, the Directory service. */
export const CONNECTION_STEPS = ['token', 'flow', 'directory'] as const;
export type ConnectionStep = (typeof CONNECTION_STEPS)[number];

/** One step of the connection test; `skipped` after a step that failed. `error.message` never holds a secret. */
export interface ConnectionCheck {
  step: ConnectionStep;
  outcome: 'ok' | 'failed' | 'skipped';
  error: { kind: PaErrorKind; message: string; status: number | null } | null;
}

export interface PaConnector {
  readonly provider: string;
  /** `POST /v1/flows`: uploads one invoice (or CDAR, or report) with its SHA-256; the PA checks it. */
  submitFlow(file: Uint8Array, sha256: string, meta: FlowMeta): Promise<SubmittedFlow>;
  /** `POST /v1/flows/search`: the flows matching, oldest update first (page on with the last `updatedAt`). */
  searchFlows(search: FlowSearch): Promise<PaFlow[]>;
  /** `GET /v1/flows/{id}`: its metadata and file (Original by default). PaError not_found when unknown. */
  getFlow(flowId: string, docType?: FlowDocType): Promise<FlowFile>;
  /** The directory line that routes to this SIREN (or SIRET / routing code), or null when none does. */
  lookup(query: DirectoryQuery): Promise<DirectoryEntry | null>;
  /** `POST /v1/directory-line`: registers our org's line (the PA makes it effective, at once or later). */
  registerDirectoryLine(input: DirectoryLineInput): Promise<DirectoryLine>;
  /** `GET /v1/directory-line/id-instance:{id}`: one of our lines as it stands, or null when it is gone. */
  getDirectoryLine(idInstance: string): Promise<DirectoryLine | null>;
  /** « Tester la connexion »: each step's outcome, without writing anything at the PA. */
  checkConnection(): Promise<ConnectionCheck[]>;
}

/** ISO 6523 ICD 0225 (French SIREN-based addressing): `0225:<addressing identifier>`. */
export const electronicAddressOf = (addressingIdentifier: string) => `0225:${addressingIdentifier}`;

/** The addressing identifier of a line: SIREN, SIREN_SIRET or SIREN_SIRET_ROUTINGCODE. */
export const addressingIdentifierOf = ({ siren, siret, routingCode }: DirectoryQuery) =>
  [siren, siret, siret ? routingCode : null].filter(Boolean).join('_');

/** The next `updatedAfter` after reading `flows` (the latest update among them), or `current` when none. */
export function nextCursor(flows: readonly PaFlow[], current: string | null): string | null {
  let latest = current;
  for (const f of flows) if (!latest || Date.parse(f.updatedAt) > Date.parse(latest)) latest = f.updatedAt;
  return latest;
}
