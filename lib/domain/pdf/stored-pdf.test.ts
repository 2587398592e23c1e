import { describe, expect, it } from 'vitest';
import { contentDisposition } from './stored-pdf';

describe('contentDisposition', () => {
  it('gives the UTF-8 name in filename* and an ASCII copy in filename, which a Fetch header accepts', () => {
    const value = contentDisposition('Contrat d’engagement — été “2026” 🚀.pdf', true);
    expect(value).toBe(
      `attachment; filename="Contrat d_engagement _ ete _2026_ __.pdf"; filename*=UTF-8''${encodeURIComponent('Contrat d’engagement — été “2026” 🚀.pdf')}`,
    );
    // A value outside Latin-1 makes Headers throw (the 500 this guards against).
    expect(() => new Headers({ 'Content-Disposition': value })).not.toThrow();
    expect(() => new Headers({ 'Content-Disposition': 'inline; filename="d’engagement.pdf"' })).toThrow();
  });

  it('drops quotes and backslashes from the plain name, inline by default', () => {
    expect(contentDisposition('FAC-2026-00001 "copie"\\.pdf')).toMatch(/^inline; filename="FAC-2026-00001 copie\.pdf"; filename\*=UTF-8''/);
  });
});
