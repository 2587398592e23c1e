import { create } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { bankTransfer, EPC_LIMITS, epcPayload, qrPath } from './bank-transfer';

const base = { beneficiary: 'Atelier Lumière SAS', iban: 'FR76 3000 6000 0112 3456 7890 189', bic: 'agrifrpp', amount: 270000, reference: 'FAC-2026-0007' };

/** The modules a path of qrPath draws, read back: "M{x} {y}h{n}v1h-{n}z" runs. */
function modulesOf(path: string, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y, n] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) for (let i = 0; i < Number(n); i++) grid[Number(y)]![Number(x) + i] = true;
  return grid;
}

describe('the EPC QR payload (EPC069-12, version 002)', () => {
  it('writes the fields in order, one per line: BCD, 002, UTF-8, SCT, BIC, name, IBAN, EUR amount, purpose, RF, remittance', () => {
    expect(epcPayload(base)).toBe(['BCD', '002', '1', 'SCT', 'AGRIFRPP', 'Atelier Lumière SAS', 'FR7630006000011234567890189', 'EUR2700.00', '', '', 'FAC-2026-0007'].join('\n'));
  });

  it('writes the amount as EUR with a point and two decimals', () => {
    const amountOf = (amount: number) => epcPayload({ ...base, amount }).split('\n')[7];
    expect([1, 5, 10, 1234, 100000, 123456789].map(amountOf)).toEqual(['EUR0.01', 'EUR0.05', 'EUR0.10', 'EUR12.34', 'EUR1000.00', 'EUR1234567.89']);
    expect(amountOf(EPC_LIMITS.maxAmount)).toBe('EUR999999999.99');
  });

  it('leaves the amount empty outside EUR0.01–EUR999999999.99 (the payer types it), and the BIC empty when there is none', () => {
    expect(epcPayload({ ...base, amount: 0 }).split('\n')[7]).toBe('');
    expect(epcPayload({ ...base, amount: EPC_LIMITS.maxAmount + 1 }).split('\n')[7]).toBe('');
    expect(epcPayload({ ...base, bic: null }).split('\n').slice(3, 6)).toEqual(['SCT', '', 'Atelier Lumière SAS']);
  });

  it('keeps each field to its length and on one line', () => {
    const long = epcPayload({ ...base, beneficiary: `${'N'.repeat(80)}`, reference: `FAC\n${'9'.repeat(200)}` });
    const lines = long.split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[5]).toBe('N'.repeat(70));
    expect(lines[10]).toBe(`FAC ${'9'.repeat(136)}`);
    expect(lines[10]).toHaveLength(140);
  });

  it('stays within 331 bytes: a name of multi-byte characters is shortened', () => {
    const payload = epcPayload({ ...base, beneficiary: '𝐀'.repeat(70), reference: 'R'.repeat(140) });
    expect(Buffer.byteLength(payload, 'utf8')).toBeLessThanOrEqual(331);
    expect(payload.split('\n')[10]).toBe('R'.repeat(140));
    expect([...payload.split('\n')[5]!].every((c) => c === '𝐀')).toBe(true);
  });
});

describe('the QR code', () => {
  it('draws the library\'s matrix for the payload (error correction M), dark modules only', () => {
    const payload = epcPayload(base);
    const { size, path } = qrPath(payload);
    const qr = create(payload, { errorCorrectionLevel: 'M' });
    expect(size).toBe(qr.modules.size);
    const expected = Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => Boolean(qr.modules.get(y, x))));
    expect(modulesOf(path, size)).toEqual(expected);
    // What the code carries, read back from its segments (byte mode is the payload's UTF-8): the payload, whole.
    const carried = Buffer.concat(qr.segments.map((s) => Buffer.from(s.data as string | Uint8Array))).toString('utf8');
    expect(carried).toBe(payload);
  });

  it('bankTransfer: the details the page shows and the code, or null without an IBAN or a balance', () => {
    const transfer = bankTransfer(base)!;
    expect(transfer).toMatchObject({ beneficiary: 'Atelier Lumière SAS', iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP', amount: 270000, reference: 'FAC-2026-0007' });
    expect(transfer.payload).toBe(epcPayload(base));
    expect(transfer.qr).toEqual(qrPath(transfer.payload));
    expect(bankTransfer({ ...base, iban: ' ' })).toBeNull();
    expect(bankTransfer({ ...base, amount: 0 })).toBeNull();
  });
});
