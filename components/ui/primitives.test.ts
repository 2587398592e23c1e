import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button, buttonClass, ChipLink, DataTable, Dialog, type DialogProps, EmptyState, type EmptyStateProps, FilterSelect, StatusChip, type StatusChipProps } from '.';

// The primitives write the markup the pages wrote by hand before (classes of app/globals.css, roles, names), so
// the e2e journeys' locators and axe see the same page.

describe('UI primitives', () => {
  it('Button: the .btn classes of its variant and size, type="button" unless told', () => {
    expect(buttonClass()).toBe('btn');
    expect(buttonClass({ variant: 'danger', small: true })).toBe('btn btn-danger btn-sm');
    expect(renderToStaticMarkup(h(Button, { variant: 'ghost' }, 'Retour'))).toBe('<button type="button" class="btn btn-ghost">Retour</button>');
    expect(renderToStaticMarkup(h(Button, { type: 'submit' }, 'Filtrer'))).toBe('<button type="submit" class="btn">Filtrer</button>');
  });

  it('DataTable: .table named by aria-label, scoped headers, .num figures, money in French, a CSV link above', () => {
    const html = renderToStaticMarkup(
      h(DataTable<{ id: string; name: string; cents: number | null }>, {
        label: 'Produits',
        csv: { href: '/x.csv' },
        columns: [{ key: 'name', header: 'Nom', cell: (r) => r.name }, false, { key: 'price', header: 'Prix', money: (r) => r.cents }],
        rows: [
          { id: 'a', name: 'Conseil', cents: 123456 },
          { id: 'b', name: 'Rien', cents: null },
        ],
        rowKey: (r) => r.id,
        rowProps: (r) => ({ 'data-testid': `row-${r.id}` }),
      }),
    );
    expect(html).toContain('<a class="btn btn-sm" href="/x.csv" download="">Exporter en CSV</a>');
    expect(html).toContain('<table class="table" aria-label="Produits">');
    expect(html).toContain('<th scope="col">Nom</th><th scope="col" class="num">Prix</th>');
    expect(html).toContain('<tr data-testid="row-a"><td>Conseil</td><td class="num">1\u202f234,56\u00a0€</td></tr>');
    expect(html).toContain('<td class="num"><span class="muted">—</span></td>');
  });

  it('ChipLink: a chip that leads somewhere, the current one marked', () => {
    expect(renderToStaticMarkup(h(ChipLink, { href: '/x', tone: 'chip-blue', current: true }, 'Tag'))).toBe('<a class="chip chip-blue" aria-current="true" href="/x">Tag</a>');
    expect(renderToStaticMarkup(h(ChipLink, { href: '/y' }, 'Tous'))).toBe('<a class="chip" href="/y">Tous</a>');
  });

  it('FilterSelect: "all" first, then the values, the current one preselected', () => {
    const html = renderToStaticMarkup(h(FilterSelect, { name: 'type', label: 'Type', allLabel: 'Tous les types', options: { devis: 'Devis', facture: 'Facture' }, value: 'facture' }));
    expect(html).toBe('<select name="type" aria-label="Type"><option value="">Tous les types</option><option value="devis">Devis</option><option value="facture" selected="">Facture</option></select>');
  });

  it('EmptyState, StatusChip, Dialog', () => {
    expect(renderToStaticMarkup(h(EmptyState, {} as EmptyStateProps, 'Rien.'))).toBe('<p class="empty">Rien.</p>');
    expect(renderToStaticMarkup(h(EmptyState, { action: 'Créer' } as EmptyStateProps, 'Rien.'))).toBe('<div class="empty"><p>Rien.</p><p>Créer</p></div>');
    const chip = { tone: 'chip-green', 'data-testid': 's' } as StatusChipProps;
    expect(renderToStaticMarkup(h(StatusChip, chip, 'payée'))).toBe('<span class="chip chip-green" data-testid="s">payée</span>');
    expect(renderToStaticMarkup(h(Dialog, { label: 'Finaliser', tone: 'warning' } as DialogProps, 'x'))).toBe('<div role="dialog" aria-label="Finaliser" class="notice notice-warning">x</div>');
  });
});
