import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button, buttonClass, ChipLink, DataTable, Dialog, type DialogProps, EmptyState, type EmptyStateProps, FilterBar, type FilterBarProps, FilterSelect, StatusChip, type StatusChipProps } from '.';

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

  it('DataTable cards: each cell says its place on a phone card (data-card) and its name (data-label, the header)', () => {
    const table = (cards: boolean) =>
      renderToStaticMarkup(
        h(DataTable<{ id: string; n: string; s: string; cents: number }>, {
          label: 'Documents',
          cards,
          columns: [
            { key: 'select', header: h('span', null, 'Tout'), className: 'select-cell', cell: () => 'x' },
            { key: 'number', header: 'Numéro', card: 'title', cell: (r) => r.n },
            { key: 'status', header: 'Statut', card: 'chips', cell: (r) => r.s },
            { key: 'ht', header: 'Total HT', card: 'hide', money: (r) => r.cents },
            { key: 'ttc', header: 'Total TTC', card: 'figure', money: (r) => r.cents },
            { key: 'date', header: 'Émis le', cell: () => '01/12/2026' },
          ],
          rows: [{ id: 'a', n: 'FAC-1', s: 'payé', cents: 100 }],
          rowKey: (r) => r.id,
        }),
      );
    const html = table(true);
    expect(html).toContain('<table class="table cards" aria-label="Documents">');
    expect(html).toContain('<td class="select-cell">x</td><td data-card="title">FAC-1</td><td data-card="chips">payé</td>');
    expect(html).toContain('<td class="num" data-label="Total HT" data-card="hide">');
    expect(html).toContain('<td class="num" data-label="Total TTC" data-card="figure">');
    expect(html).toContain('<td data-label="Émis le">01/12/2026</td>');
    expect(html).toContain('<th scope="col" class="num" data-card="hide">Total HT</th>');
    // Without `cards`, the table is the one it was: no card attributes.
    expect(table(false)).not.toMatch(/data-card|data-label/);
  });

  it('FilterBar: a <details> whose summary counts the filters in force, the chips folded with the fields', () => {
    const bar = (active?: number) => {
      const props: FilterBarProps = { base: '/documents', filtered: Boolean(active), active, chips: h('nav', null, 'chips'), children: h('input', { name: 'q' }) };
      return renderToStaticMarkup(h(FilterBar, props));
    };
    const seven = bar(7);
    expect(seven).toContain('<search class="filter-bar"><details class="filter-fold"><summary class="btn btn-sm"><span>Filtres (7<span class="sr-only"> actifs</span>)</span></summary>');
    expect(seven).toMatch(/<form class="toolbar" action="\/documents"><input name="q"\/>.*Effacer les filtres.*<\/form><nav>chips<\/nav><\/details><\/search>$/);
    expect(bar(1)).toContain('Filtres (1<span class="sr-only"> actif</span>)</span></summary>');
    expect(bar()).toContain('<summary class="btn btn-sm"><span>Filtres</span></summary>');
    expect(bar()).not.toContain('Effacer les filtres');
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
