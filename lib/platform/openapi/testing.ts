// For tests: the committed webhook examples and how the catalogue walk keeps them true.
export * from './examples/record';
