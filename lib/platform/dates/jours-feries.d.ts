// @socialgouv/jours-feries ships no types: the French public holidays of a year, by name, each a Date at local
// midnight (its Easter arithmetic adds 24-hour days, so around a DST change the time may be off by an hour).
declare module '@socialgouv/jours-feries' {
  export default function joursFeries(year: number, options?: { alsace?: boolean }): Record<string, Date>;
}
