export * from './orgs';
export * from './platform';
export * from './contacts';
export * from './billing';
export * from './email';
export * from './pdf';
export * from './reminders';
export * from './online-payments';
