import { describe, expect, it } from 'vitest';
import { buildCdar, type CdarStatus, readCdar } from './cdar';

const encaissee: CdarStatus = {
  messageId: 'PARAPHE-212-0192',
  code: '212',
  reasonCode: null,
  reason: null,
  issuerRole: 'seller',
  issuedAt: '2026-10-02T09:30:00.000Z',
  invoice: { number: 'FAC-2026-00012', issueDate: '2026-09-15', sellerSiren: '732829320', typeCode: '380' },
  amount: { cents: 123_456, currency: 'EUR', vatRate: '20.00' },
};

describe('CDAR lifecycle messages', () => {
  it('reads back what it writes: 212 Encaissée with its amount in cents, issuer, dates', () => {
    expect(readCdar(Buffer.from(buildCdar(encaissee)))).toEqual([encaissee]);
  });

  it('keeps a refusal reason and code, escaped', () => {
    const refusee: CdarStatus = { ...encaissee, messageId: 'M-210', code: '210', reasonCode: 'TX_TVA_ERR', reason: 'Taux <20 %> & faux', issuerRole: 'buyer', amount: null };
    const [read] = readCdar(Buffer.from(buildCdar(refusee)));
    expect(read).toEqual(refusee);
  });

  it('refuses what is not a CDAR message or names no status', () => {
    expect(() => readCdar(Buffer.from('<Invoice/>'))).toThrow(/not a CDAR/);
    expect(() => readCdar(Buffer.from(buildCdar(encaissee).replace(/<ram:ProcessConditionCode>212<\/ram:ProcessConditionCode>/, '')))).toThrow(/status code/);
    expect(() => readCdar(Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x/>'))).toThrow(/DOCTYPE/);
  });
});
