import { formatMonth } from '@/lib/platform/format';

/**
 * The value axis of a bar chart: bounds that include zero and every value, cut into a few "round" steps
 * (1, 2, 2.5 or 5 × a power of ten), so the gridlines read 0, 5 000, 10 000… Integers in, integers out (cents).
 */
export interface Scale {
  min: number;
  max: number;
  step: number;
  ticks: number[];
}

export function niceScale(values: readonly number[], targetTicks = 4): Scale {
  const lo = Math.min(0, ...values);
  const hi = Math.max(0, ...values);
  if (lo === hi) return { min: 0, max: 1, step: 1, ticks: [0, 1] };
  const rough = (hi - lo) / targetTicks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, ([1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power));
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let t = min; t <= max + step / 2; t += step) ticks.push(Math.round(t));
  return { min, max, step, ticks };
}

/** "2026-03" → "mars" (and the year under January or the first month, so the axis says which year). */
export function monthLabel(month: string, first: boolean): { month: string; year: string | null } {
  return { month: formatMonth(month, 'short'), year: first || month.endsWith('-01') ? month.slice(0, 4) : null };
}
