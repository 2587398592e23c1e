import { formatMoney, formatMoneyCompact, formatMonth } from '@/lib/platform/format';
import { monthLabel, niceScale } from './chart-scale';
import { DataTable } from '@/components/ui';

interface Props {
  months: Array<{ month: string; net_ht: number; invoice_count: number; credit_note_count: number }>;
  title: string;
}

const W = 720;
const H = 240;
const M = { top: 12, right: 8, bottom: 38, left: 72 };

/**
 * Monthly revenue as SVG bars (server-rendered, no script): one bar per month, negative months below the axis
 * (credit notes above invoices). Screen readers get the title, each bar's own title, and the table of figures.
 */
export function RevenueChart({ months, title }: Props) {
  const scale = niceScale(months.map((m) => m.net_ht));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const y = (v: number) => M.top + ((scale.max - v) / (scale.max - scale.min)) * plotH;
  const band = plotW / Math.max(1, months.length);
  const barW = band * 0.62;
  return (
    <figure style={{ margin: 0 }}>
      <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="revenue-chart-title">
        <title id="revenue-chart-title">{title}</title>
        {scale.ticks.map((t) => (
          <g key={t}>
            <line className="axis" x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} strokeWidth={t === 0 ? 1.5 : 1} />
            <text x={M.left - 8} y={y(t) + 4} textAnchor="end">
              {formatMoneyCompact(t)}
            </text>
          </g>
        ))}
        {months.map((m, i) => {
          const x = M.left + i * band + (band - barW) / 2;
          const top = y(Math.max(0, m.net_ht));
          const height = Math.max(m.net_ht === 0 ? 0 : 1, Math.abs(y(m.net_ht) - y(0)));
          const label = monthLabel(m.month, i === 0);
          return (
            <g key={m.month}>
              <rect className={m.net_ht < 0 ? 'bar bar-negative' : 'bar'} x={x} y={top} width={barW} height={height} rx={2}>
                <title>{`${formatMonth(m.month, 'long')} : ${formatMoney(m.net_ht)} HT`}</title>
              </rect>
              <text x={x + barW / 2} y={H - M.bottom + 16} textAnchor="middle">
                {label.month}
              </text>
              {label.year && (
                <text x={x + barW / 2} y={H - M.bottom + 30} textAnchor="middle">
                  {label.year}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details>
        <summary className="muted">Voir les chiffres</summary>
        <DataTable
          label="Chiffre d’affaires par mois"
          columns={[
            { key: 'mois', header: 'Mois', cell: (m) => formatMonth(m.month, 'long') },
            { key: 'factures_et_acomptes', header: 'Factures et acomptes', num: true, cell: (m) => m.invoice_count },
            { key: 'avoirs', header: 'Avoirs', num: true, cell: (m) => m.credit_note_count },
            { key: 'net_ht', header: 'Net HT', money: (m) => m.net_ht },
          ]}
          rows={months}
          rowKey={(m) => m.month}
        />
      </details>
    </figure>
  );
}
