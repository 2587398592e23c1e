/*
 * Outbound calls to URLs a tenant chose (webhooks, the PA; docs/security.md "Outbound calls"): https to public
 * addresses only, checked after DNS, the connection pinned to the checked address, no redirect followed. Each caller
 * passes its own lift (allowPrivate: WEBHOOKS_ALLOW_PRIVATE, EINVOICING_ALLOW_PRIVATE).
 */
export { addressRange, isPublicAddress } from './address';
export { type PinnedConnection, pinnedConnection } from './connection';
export { type OutboundFailure, OutboundError, type OutboundInit, type OutboundOptions, outboundFetch } from './fetch';
export { checkUrlShape, type ResolvedAddress, type Resolver, resolveTarget, systemResolver, type TargetOptions, TargetRefused } from './target';
