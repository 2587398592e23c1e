import type { DocumentItem } from '@/lib/domain/documents';
import { unitLabel } from '@/lib/domain/documents/client';
import { formatDecimalAsTyped, formatRate } from '@/lib/platform/format';
import { VAT_CATEGORY_LABELS } from '../labels';
import { DataTable, StatusChip } from '@/components/ui';

type Line = Pick<DocumentItem, 'kind' | 'description' | 'quantity' | 'unit' | 'unit_price' | 'vat_rate' | 'total_ht'> &
  Partial<Pick<DocumentItem, 'id' | 'details' | 'vat_category'>>;

/** A document's lines, read-only: the document page and the previews (conversion, credit note) show the same table. */
export function ItemsTable({ items }: { items: readonly Line[] }) {
  return (
    <DataTable
      label="Lignes du document"
      columns={[
        {
          key: 'designation',
          header: 'Désignation',
          cell: (it) => (
            <>
              {it.description}
              {it.details && <div className="muted prewrap">{it.details}</div>}
            </>
          ),
        },
        {
          key: 'quantite',
          header: 'Quantité',
          num: true,
          cell: (it) => it.kind === 'discount' ? <StatusChip tone="chip-amber">remise</StatusChip> : `${formatDecimalAsTyped(it.quantity)} ${unitLabel(it.unit, it.quantity)}`,
        },
        { key: 'prix_unitaire_ht', header: 'Prix unitaire HT', money: (it) => it.kind === 'discount' ? -it.unit_price : it.unit_price },
        {
          key: 'tva',
          header: 'TVA',
          cell: (it) => (
            <>
              {formatRate(it.vat_rate)}
              {it.vat_category && it.vat_category !== 'S' && <div className="muted">{VAT_CATEGORY_LABELS[it.vat_category]}</div>}
            </>
          ),
        },
        { key: 'total_ht', header: 'Total HT', money: (it) => it.total_ht },
      ]}
      rows={items}
      rowKey={(it, i) => it.id ?? i}
    />
  );
}
