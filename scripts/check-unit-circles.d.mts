// Types of scripts/check-unit-circles.mjs, for its test.
export function runtimeImports(text: string): string[];
export function stronglyConnected(graph: Map<string, Set<string>>): string[][];
export function checkUnitCircles(
  root: string,
  files?: Map<string, string | null>,
): {
  graph: Map<string, Set<string>>;
  edges: Map<string, { file: string; spec: string }>;
  components: string[][];
  cycles: string[][][];
  files: number;
};
