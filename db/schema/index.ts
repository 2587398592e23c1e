export * from './orgs';
export * from './platform';
