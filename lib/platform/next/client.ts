// What a client component may take of the Next.js adapter: the server actions' form state and its wording.
export * from './form-state';
