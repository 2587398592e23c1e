// Types of scripts/check-table-writes.mjs, for its test.
export interface TableWrite {
  file: string;
  line: number;
  unit: string;
  table: string;
  owner: string;
  verb: 'insert' | 'update' | 'delete';
}
export function schemaTables(root: string): Map<string, { sql: string; file: string }>;
export function readOwners(root: string): Map<string, string>;
export function checkTableWrites(root: string): {
  tables: Map<string, { sql: string; file: string }>;
  owners: Map<string, string>;
  mapProblems: string[];
  writes: TableWrite[];
  violations: TableWrite[];
  scanned: number;
};
