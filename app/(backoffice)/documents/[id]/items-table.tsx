import type { DocumentItem } from '@/lib/domain/documents/schemas';
import { unitLabel } from '@/lib/domain/documents/units';
import { formatDecimalAsTyped, formatMoney, formatRate } from '@/lib/platform/format';
import { VAT_CATEGORY_LABELS } from '../labels';

type Line = Pick<DocumentItem, 'kind' | 'description' | 'quantity' | 'unit' | 'unit_price' | 'vat_rate' | 'total_ht'> &
  Partial<Pick<DocumentItem, 'id' | 'details' | 'vat_category'>>;

/** A document's lines, read-only: the document page and the previews (conversion, credit note) show the same table. */
export function ItemsTable({ items }: { items: readonly Line[] }) {
  return (
    <table className="table">
      <thead>
        <tr>
          <th>Désignation</th>
          <th className="num">Quantité</th>
          <th className="num">Prix unitaire HT</th>
          <th>TVA</th>
          <th className="num">Total HT</th>
        </tr>
      </thead>
      <tbody>
        {items.map((it, i) => (
          // A preview's lines have no id yet; they never move, so their position keys them.
          <tr key={it.id ?? i}>
            <td>
              {it.description}
              {it.details && <div className="muted prewrap">{it.details}</div>}
            </td>
            <td className="num">{it.kind === 'discount' ? <span className="chip chip-amber">remise</span> : `${formatDecimalAsTyped(it.quantity)} ${unitLabel(it.unit, it.quantity)}`}</td>
            <td className="num">{formatMoney(it.kind === 'discount' ? -it.unit_price : it.unit_price)}</td>
            <td>
              {formatRate(it.vat_rate)}
              {it.vat_category && it.vat_category !== 'S' && <div className="muted">{VAT_CATEGORY_LABELS[it.vat_category]}</div>}
            </td>
            <td className="num">{formatMoney(it.total_ht)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
