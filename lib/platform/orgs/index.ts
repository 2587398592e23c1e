// Tenancy: the org's identity, its users and their memberships. Platform code (the staff session, the API keys'
// org) and the domain modules read it; the onboarding checklist and the demo data that use the domain live in
// lib/composition.
export * from './calendar';
export * from './identity-check';
export * from './orgs';
export * from './schemas';
export * from './invitations';
